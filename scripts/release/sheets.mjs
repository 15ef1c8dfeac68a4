#!/usr/bin/env node
// `npm run release:sheets`: the add-on as the few files a person pastes into *Extensions > Apps
// Script* of their sheet, no terminal needed on their side (docs/install-sheets.md, the guide), made
// from the built add-on (sheets-addon/dist: what clasp pushes):
//   release/sheets/Code.gs          bundle.js, then the entry file Code.js: the whole script in one file
//   release/sheets/Sidebar.html     the sidebar
//   release/sheets/appsscript.json  the manifest: scopes, the API host, V8
//   release/igdata-sheets-<version>.zip  the three, to attach to a GitHub release
// `--out <dir>` writes there instead of release/. Needs `npm run build` (the npm script runs it).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain, parseFlags } from '../lib/cli.mjs';
import { zip } from './zip.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'sheets-addon', 'dist');

/**
 * The files to paste, in the guide's order: each with the name it takes in the Apps Script editor
 * and what it is made of (files of sheets-addon/dist, in load order).
 */
export const PASTE_IN = [
  { file: 'Code.gs', from: ['bundle.js', 'Code.js'] },
  { file: 'Sidebar.html', from: ['Sidebar.html'] },
  { file: 'appsscript.json', from: ['appsscript.json'] },
];

/** The commit's time (a release made twice from one commit is the same zip), else now. */
function releaseTime() {
  try {
    return Number(execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim()) * 1000;
  } catch {
    return Date.now();
  }
}

/** Writes the release into `out`; returns the paths written. */
export function releaseSheets(out) {
  for (const f of new Set(PASTE_IN.flatMap((p) => p.from)))
    if (!existsSync(join(dist, f))) throw new Error(`sheets-addon/dist/${f} is missing: run \`npm run build\` first`);
  const version = JSON.parse(readFileSync(join(root, 'sheets-addon', 'package.json'), 'utf8')).version;
  const dir = join(out, 'sheets');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = PASTE_IN.map((p) => ({
    name: p.file,
    data: p.from.map((f) => readFileSync(join(dist, f), 'utf8').replace(/\n*$/, '\n')).join('\n'),
  }));
  for (const f of files) writeFileSync(join(dir, f.name), f.data);
  const archive = join(out, `igdata-sheets-${version}.zip`);
  writeFileSync(archive, zip(files, releaseTime()));
  return [...files.map((f) => join(dir, f.name)), archive];
}

if (isMain(import.meta.url)) {
  const { values } = parseFlags({
    options: { out: { type: 'string' } },
    usage: 'usage: npm run release:sheets [-- --out <dir>]',
  });
  const written = releaseSheets(resolve(values.out ?? join(root, 'release')));
  for (const f of written)
    console.log(`release:sheets: ${f} (${readFileSync(f).length.toLocaleString('en-US')} bytes)`);
  console.log('release:sheets: how to paste them into a sheet: docs/install-sheets.md');
}
