#!/usr/bin/env node
// Pushes the built add-on (sheets-addon/dist) to your Apps Script project with clasp.
//
//   npx clasp login                                  once: authorise clasp with your Google account
//   npm run push -- --script-id <SCRIPT_ID>          the first time (or IGDATA_SCRIPT_ID=<id> npm run push)
//   npm run push                                     afterwards: the id is remembered
//
// The script id is on the Apps Script editor's Project Settings page (open your sheet, Extensions >
// Apps Script, then the gear icon). It is written to sheets-addon/.clasp.json with rootDir "dist",
// so clasp pushes exactly the built files; that file is yours (git-ignored, never committed).
//   --status  list the files clasp would push instead of pushing (no login needed)
//   --json    clasp's output as JSON
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, parseFlags } from '../scripts/lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const projectFile = join(here, '.clasp.json');
const DIST_FILES = ['appsscript.json', 'bundle.js', 'Code.js', 'Sidebar.html'];

function fail(message) {
  console.error(`push: ${message}`);
  process.exit(1);
}

/** The script id from --script-id (`given`), IGDATA_SCRIPT_ID or an earlier .clasp.json (in that order). */
export function scriptIdFrom(given, env, existing) {
  const id = (given || env.IGDATA_SCRIPT_ID || existing?.scriptId || '').trim();
  if (!id)
    return {
      error:
        'no script id. Run `npm run push -- --script-id <SCRIPT_ID>` once (Apps Script editor > Project Settings > Script ID).',
    };
  if (!/^[\w-]{20,}$/.test(id))
    return { error: `"${id}" does not look like an Apps Script script id (Project Settings > Script ID).` };
  return { id };
}

function main() {
  const { values: flags } = parseFlags({
    options: { 'script-id': { type: 'string' }, status: { type: 'boolean' }, json: { type: 'boolean' } },
    usage: 'usage: npm run push [-- --script-id <SCRIPT_ID>] [--status] [--json]',
  });
  let existing;
  try {
    existing = existsSync(projectFile) ? JSON.parse(readFileSync(projectFile, 'utf8')) : undefined;
  } catch {
    existing = undefined; // unreadable: written again below from the id given
  }
  const { id, error } = scriptIdFrom(flags['script-id'], process.env, existing);
  if (error) fail(error);
  const missing = DIST_FILES.filter((f) => !existsSync(join(dist, f)));
  if (missing.length) fail(`sheets-addon/dist lacks ${missing.join(', ')}: run \`npm run build\` first.`);
  writeFileSync(projectFile, `${JSON.stringify({ scriptId: id, rootDir: 'dist' }, null, 2)}\n`);
  const clasp = join(here, '..', 'node_modules', '.bin', process.platform === 'win32' ? 'clasp.cmd' : 'clasp');
  const args = flags.status ? ['show-file-status'] : ['push', '--force'];
  const r = spawnSync(clasp, [...args, ...(flags.json ? ['--json'] : [])], { cwd: here, stdio: 'inherit' });
  if (r.error) fail(`could not run clasp (${r.error.message}): run \`npm install\` first.`);
  process.exit(r.status ?? 1);
}

if (isMain(import.meta.url)) main();
