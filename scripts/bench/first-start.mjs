#!/usr/bin/env node
// `npm run bench:first-start`: what a newcomer's first `npm ci && npm start` takes, as the README's
// first screen says it. In a fresh `git clone` of this commit, with this checkout's .cache/ linked in
// (n8n 2.8.4 already installed there: its cold install is the record setup.n8n-install.s):
//   - `npm ci --no-audit --no-fund` (npm's own cache as it is on the machine): its time, and the
//     size of node_modules it leaves (du);
//   - `npm start` (build, sandbox, preview, n8n) until it prints the preview's line and until it
//     prints n8n's: the two times a newcomer waits;
// and the size on disk (du) of what the first start installs into .cache/ (n8n 2.8.4) and of what
// `npm run try:zapier` adds (Zapier's CLI and the Node 24 it runs on). Written to
// bench/records/setup.json; `npm run docs` puts them in README.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR } from '../cache-install.mjs';
import { descendants } from '../start/children.mjs';
import { zapierCli } from '../zapier-cli/where.mjs';
import { load1, saveRecords } from './records.mjs';

const require = createRequire(import.meta.url);
const { runtimeFor, NEWEST } = require('../n8n-harness/versions.cjs');
const { freePort } = require('../n8n-harness/index.cjs');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Disk used by `paths` (du -sk, so blocks as the file system counts them), in MB of 10^6 bytes. */
function diskMb(...paths) {
  const r = spawnSync('du', ['-skc', ...paths], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`du ${paths.join(' ')}: ${r.stderr}`);
  const total = Number(/^(\d+)\s+total$/m.exec(r.stdout)[1]);
  return Math.round((total * 1024) / 1e6);
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const seconds = (ms) => Number((ms / 1000).toFixed(0));

/** Runs `npm start` in `dir` until both lines are printed; the ms to each, then stops it. */
async function startTimes(dir) {
  const t0 = performance.now();
  const child = spawn('npm', ['start'], {
    cwd: dir,
    env: { ...process.env, PORT: '0', SHEETS_PREVIEW_PORT: '0', N8N_PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const times = {};
  await new Promise((resolve, reject) => {
    const seen = () => {
      if (!times.preview && /^Sheets preview http/m.test(out)) times.preview = performance.now() - t0;
      if (!times.n8n && /^n8n editor {5}http/m.test(out)) times.n8n = performance.now() - t0;
      if (out.includes('Ctrl+C')) resolve();
    };
    child.stdout.on('data', (d) => ((out += d), seen()));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => reject(new Error(`npm start exited ${code}:\n${out}`)));
  });
  if (!times.n8n) throw new Error(`npm start printed no n8n line:\n${out}`);
  child.removeAllListeners('exit');
  // npm, its shell, start.mjs and what it started: all gone before the clone is removed (start.mjs
  // stops everything when npm, its parent's parent, is gone).
  const all = [child.pid, ...descendants(child.pid)];
  child.kill('SIGTERM');
  while (all.some(alive)) await new Promise((r) => setTimeout(r, 200));
  return times;
}

/** The n8n `npm start` runs (versions.cjs's default) and where it is installed. */
const n8n = runtimeFor();
const n8nDir = n8n.dir;
if (!existsSync(join(n8nDir, 'node_modules', 'n8n')))
  throw new Error(`n8n ${n8n.version} is not in ${n8nDir}: run \`npm start\` once (or npm run setup:test)`);
const cli = zapierCli();
/** The whole folder of the Node build Zapier's CLI runs on (.cache/node-<version>). */
const node24 = dirname(dirname(runtimeFor(NEWEST).nodeDir));
if (!existsSync(cli.bin)) throw new Error(`Zapier's CLI is not in ${cli.home}: run \`npm run try:zapier\` once`);

const loadBefore = load1();
const dir = mkdtempSync(join(tmpdir(), 'igdata-first-start-'));
try {
  const clone = spawnSync('git', ['clone', '-q', root, dir], { stdio: 'inherit' });
  if (clone.status !== 0) throw new Error('git clone failed');
  symlinkSync(CACHE_DIR, join(dir, '.cache'));
  const t0 = performance.now();
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  if (ci.status !== 0) throw new Error('npm ci failed');
  const ciMs = performance.now() - t0;
  const nodeModules = diskMb(join(dir, 'node_modules'));
  const times = await startTimes(dir);
  const conditions = `a fresh git clone of the commit, .cache/ linked in with n8n ${n8n.version} already installed, npm's cache as it was on the machine; npm start with n8n, ports free; load average ${loadBefore} at the start, ${load1()} at the end`;
  saveRecords(
    'setup',
    {
      'setup.npm-ci.s': { value: seconds(ciMs), unit: 's', what: '`npm ci` in a fresh clone' },
      'setup.node-modules.mb': { value: nodeModules, unit: 'MB', what: 'node_modules after `npm ci` (du)' },
      'setup.start-preview.s': {
        value: seconds(times.preview),
        unit: 's',
        what: '`npm start` (its build included) until it prints the Sheets preview line',
      },
      'setup.start-n8n.s': {
        value: seconds(times.n8n),
        unit: 's',
        what: '`npm start` until it prints the n8n editor line, n8n installed',
      },
      'setup.n8n.mb': { value: diskMb(n8nDir), unit: 'MB', what: `n8n ${n8n.version} in .cache/ (du)` },
      'setup.zapier-cli.mb': {
        value: diskMb(cli.home, node24),
        unit: 'MB',
        what: `what \`npm run try:zapier\` adds to .cache/: Zapier's CLI and the Node it runs on (du)`,
      },
    },
    conditions,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
