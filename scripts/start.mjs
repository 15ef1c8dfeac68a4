#!/usr/bin/env node
// `npm start` (after `npm run build`): the product on the built-in sandbox.
//  1. the sandbox API on PORT (default 4010), with its demo key;
//  2. the Sheets preview on SHEETS_PREVIEW_PORT (default 4020): the built add-on in a local Apps
//     Script stand-in against the sandbox, with a grid and its sidebar (skip with --no-sheets-preview);
//  3. the n8n editor on N8N_PORT (default 5678) with our package, a credential pointing at the
//     sandbox and the example workflows (skip with --no-n8n or START_N8N=0).
// The preview and n8n start side by side; each prints its next step (start/next-steps.mjs) as soon
// as it is up, the preview in seconds, n8n later. Ctrl+C or SIGTERM stops every process it started.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { parseFlags } from './lib/cli.mjs';
import { descendants, endAll } from './start/children.mjs';
import { stepLines } from './start/next-steps.mjs';

const { values: flags } = parseFlags({
  options: { 'no-n8n': { type: 'boolean' }, 'no-sheets-preview': { type: 'boolean' } },
  usage: 'usage: npm start [-- --no-n8n] [--no-sheets-preview]   (ports: PORT, N8N_PORT, SHEETS_PREVIEW_PORT)',
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { startSandbox } = await import(pathToFileURL(join(root, 'dist/sandbox-lib.mjs')).href);

const stops = [];
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  // Who is running now, before the orderly stops: a child that goes first leaves its own children
  // (n8n's task runner) to init, where only this list still finds them.
  const started = descendants();
  for (const stop of stops) await Promise.resolve(stop()).catch(() => {});
  await endAll(started);
  process.exit(0);
}
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, shutdown);
// `npm start` runs this under npm and a shell, and a SIGTERM to npm ends them without passing it on:
// when the parent is gone, stop as for a signal rather than run on with no one to stop it.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && shutdown(), 1000).unref();

const port = Number(process.env.PORT ?? 4010);
// Where it listens: 127.0.0.1 unless IGDATA_LISTEN names another address (read by startSandbox and the
// Sheets preview alike; never HOST). startSandbox prints a warning if it does.
const sandbox = await startSandbox({ port, quiet: true });
stops.push(() => sandbox.close());
const line = '-'.repeat(72);
console.log(`${line}\nIG Data sandbox: the whole API, offline, with synthetic data\n${line}`);
console.log(`API base URL   ${sandbox.url}`);
console.log(`Demo API key   ${sandbox.demoKey}   (1,000,000 credits)`);
console.log(`OpenAPI        ${sandbox.url}/openapi.json`);
console.log(`MCP server     ${sandbox.mcpUrl}   (Streamable HTTP, one tool per endpoint, the same key and credits)`);
// What MCP clients that take a JSON config (e.g. a project's .mcp.json) need, on one line to paste.
const mcpConfig = {
  mcpServers: {
    'igdata-sandbox': { type: 'http', url: sandbox.mcpUrl, headers: { Authorization: `Bearer ${sandbox.demoKey}` } },
  },
};
console.log(`MCP config     ${JSON.stringify(mcpConfig)}`);
console.log(`Stats          ${sandbox.url}/_sandbox/stats      (requests and credits so far, by endpoint)`);
console.log(
  `Test accounts  ${sandbox.url}/_sandbox/fixtures   (handles, private and renamed accounts, tags, locations, posts)`,
);
console.log(`\nTry:`);
const auth = `-H "Authorization: Bearer ${sandbox.demoKey}"`;
console.log(`  curl -s ${auth} "${sandbox.url}/v1/profile?handle=nasa"`);
console.log(`  curl -s ${auth} "${sandbox.url}/v1/insights/profile/engagement?handle=natgeo&posts=12"`);
console.log(`  curl -s ${auth} "${sandbox.url}/v1/hashtag/recent?tag=veganrecipes"`);
console.log(`  curl -s -H "x-api-key: ${sandbox.demoKey}" "${sandbox.url}/v1/credits"`);
console.log(
  `  curl -s -X POST "${sandbox.url}/_sandbox/keys?balance=50"   # a fresh key with 50 credits, to try running out`,
);
console.log(
  `\nGoogle Sheets: sheets-addon/dist is built; to put it in your own sheet see README.md, "Install in Google Sheets".`,
);

const wantN8n = !flags['no-n8n'] && process.env.START_N8N !== '0';
const editorModule = join(root, 'scripts/n8n-harness/start-editor.mjs');
const withN8n = wantN8n && existsSync(editorModule);
console.log(`${line}\nNext steps, one line per surface as it is ready:`);

async function startPreview() {
  try {
    const { startSheetsPreview } = await import(pathToFileURL(join(root, 'scripts/sheets-preview/start.mjs')).href);
    const preview = await startSheetsPreview({
      sandboxUrl: sandbox.url,
      apiKey: sandbox.demoKey,
      port: Number(process.env.SHEETS_PREVIEW_PORT ?? 4020),
    });
    stops.unshift(() => preview.stop());
    if (!stopping) console.log(stepLines.preview(preview.url));
  } catch (e) {
    console.error(`The Sheets preview could not start: ${e.message}`);
  }
}

async function startN8n() {
  try {
    const { startN8nEditor } = await import(pathToFileURL(editorModule).href);
    const editor = await startN8nEditor({
      sandboxUrl: sandbox.url,
      apiKey: sandbox.demoKey,
      port: Number(process.env.N8N_PORT ?? 5678),
    });
    stops.unshift(() => editor.stop());
    if (stopping) return;
    console.log(stepLines.n8n(editor.url, editor.email, editor.password));
    console.log(
      `               (also there: ${(editor.workflows ?? []).length} example workflows; the credential "IG Data (sandbox)" points at ${sandbox.url})`,
    );
  } catch (e) {
    if (!stopping)
      console.error(
        `n8n could not start: ${e.message}\nThe rest keeps running; see README "Install in n8n" for the manual steps.`,
      );
  }
}

// n8n first (it takes longest), then each line as its surface is up: the preview in seconds.
const n8n = withN8n ? startN8n() : null;
if (!flags['no-sheets-preview']) await startPreview();
if (!stopping) console.log(stepLines.zapier());
if (n8n) {
  if (!stopping)
    console.log(`n8n editor     starting (the first start installs n8n 2.8.4 into .cache/, a few minutes)...`);
  await n8n;
}
if (!stopping) console.log(`${line}\nCtrl+C to stop (it stops everything started here).`);
