#!/usr/bin/env node
// `npm start` (after `npm run build`): the product on the built-in sandbox.
//  1. the sandbox API on PORT (default 4010), with its demo key;
//  2. the n8n editor on N8N_PORT (default 5678) with our package, a credential pointing at the
//     sandbox and the example workflows (skip with --no-n8n or START_N8N=0).
//  3. the Sheets preview on SHEETS_PREVIEW_PORT (default 4020): the built add-on in a local Apps
//     Script stand-in against the sandbox, with a grid and its sidebar (skip with --no-sheets-preview).
// Ctrl+C stops everything.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { parseFlags } from './lib/cli.mjs';

const { values: flags } = parseFlags({
  options: { 'no-n8n': { type: 'boolean' }, 'no-sheets-preview': { type: 'boolean' } },
  usage: 'usage: npm start [-- --no-n8n] [--no-sheets-preview]   (ports: PORT, N8N_PORT, SHEETS_PREVIEW_PORT)',
});
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { startSandbox } = await import(pathToFileURL(join(root, 'dist/sandbox-lib.mjs')).href);

const port = Number(process.env.PORT ?? 4010);
// Where it listens: 127.0.0.1 unless IGDATA_LISTEN names another address (read by startSandbox and the
// Sheets preview alike; never HOST). startSandbox prints a warning if it does.
const sandbox = await startSandbox({ port, quiet: true });
const stops = [() => sandbox.close()];
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

let sheetsPreview = null;
if (!flags['no-sheets-preview']) {
  try {
    const { startSheetsPreview } = await import(pathToFileURL(join(root, 'scripts/sheets-preview/start.mjs')).href);
    sheetsPreview = await startSheetsPreview({
      sandboxUrl: sandbox.url,
      apiKey: sandbox.demoKey,
      port: Number(process.env.SHEETS_PREVIEW_PORT ?? 4020),
    });
    stops.unshift(() => sheetsPreview.stop());
  } catch (e) {
    console.error(`\nThe Sheets preview could not start: ${e.message}`);
  }
}

const wantN8n = !flags['no-n8n'] && process.env.START_N8N !== '0';
const editorModule = join(root, 'scripts/n8n-harness/start-editor.mjs');
if (wantN8n && existsSync(editorModule)) {
  console.log(`\nStarting n8n (first run installs n8n 2.8.4 into .cache/, a few minutes)...`);
  try {
    const { startN8nEditor } = await import(pathToFileURL(editorModule).href);
    const editor = await startN8nEditor({
      sandboxUrl: sandbox.url,
      apiKey: sandbox.demoKey,
      port: Number(process.env.N8N_PORT ?? 5678),
    });
    stops.unshift(() => editor.stop());
    console.log(`${line}\nn8n editor     ${editor.url}`);
    if (editor.email) console.log(`Sign in        ${editor.email} / ${editor.password}`);
    console.log(`Workflows      ${(editor.workflows ?? []).join(', ')}`);
    console.log(`Credential     "IG Data (sandbox)" points at ${sandbox.url}`);
  } catch (e) {
    console.error(
      `n8n could not start: ${e.message}\nThe sandbox keeps running; see README "n8n" for the manual steps.`,
    );
  }
}
console.log(
  `\nGoogle Sheets: sheets-addon/dist is built; to put it in your own sheet see README.md, "Install in Google Sheets".`,
);
if (sheetsPreview)
  console.log(
    `Sheets preview ${sheetsPreview.url}  (the built add-on in a local Apps Script stand-in, not Google Sheets)`,
  );
console.log(`${line}\nCtrl+C to stop.`);

let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    if (stopping) return;
    stopping = true;
    for (const stop of stops) await Promise.resolve(stop()).catch(() => {});
    process.exit(0);
  });
}
