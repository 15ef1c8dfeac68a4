/**
 * `npm run push` offline: clasp is installed, the script id given once is written to a
 * `.clasp.json` whose rootDir is the built dist, and clasp would push exactly the built files.
 * Pushing itself needs `npx clasp login` and a Google account, so it is not run here.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DIST, ROOT } from './harness';

const CLASP = path.join(ROOT, 'node_modules', '.bin', 'clasp');
const ID = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcdefghijk';
let home: string;
let clone: string;

// A copy of the add-on's folder as a fresh clone has it after `npm ci && npm run build` (push.mjs,
// dist, the scripts' shared CLI helpers, the workspace's node_modules), so the test never touches the
// developer's own .clasp.json.
beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'clasp-home-')); // no login: clasp must not need one here
  clone = path.join(home, 'clone');
  fs.mkdirSync(path.join(clone, 'sheets-addon'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'sheets-addon', 'push.mjs'), path.join(clone, 'sheets-addon', 'push.mjs'));
  fs.cpSync(DIST, path.join(clone, 'sheets-addon', 'dist'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'scripts', 'lib'), path.join(clone, 'scripts', 'lib'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

const projectFile = () => path.join(clone, 'sheets-addon', '.clasp.json');
const push = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [path.join(clone, 'sheets-addon', 'push.mjs'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, IGDATA_SCRIPT_ID: '', ...env },
  });

test('clasp is installed (npx clasp --version)', () => {
  const r = spawnSync(CLASP, ['--version'], { encoding: 'utf8', env: { ...process.env, HOME: home } });
  expect(r.status).toBe(0);
  expect(r.stdout.trim()).toMatch(/^3\.\d+\.\d+$/);
});

test('the script id given once is written with rootDir at dist; clasp would push exactly the built files', () => {
  const project = projectFile();
  const first = push(['--script-id', ID, '--status', '--json']);
  expect(first.stderr).not.toMatch(/push:/);
  expect(first.status).toBe(0);
  const written = JSON.parse(fs.readFileSync(project, 'utf8'));
  expect(written.scriptId).toBe(ID);
  expect(written.rootDir).toBe('dist');
  const status = JSON.parse(first.stdout.trim().split('\n').pop()!);
  expect(status.filesToPush.map((f: string) => path.basename(f)).sort()).toEqual([
    'Code.js',
    'Sidebar.html',
    'appsscript.json',
    'bundle.js',
  ]);
  expect(status.untrackedFiles).toEqual([]);
  // Afterwards the id is remembered: no argument needed.
  const again = push(['--status', '--json']);
  expect(again.status).toBe(0);
  expect(JSON.parse(fs.readFileSync(project, 'utf8')).scriptId).toBe(ID);
  // Or from the environment, replacing the remembered one.
  expect(push(['--status'], { IGDATA_SCRIPT_ID: `${ID}2` }).status).toBe(0);
  expect(JSON.parse(fs.readFileSync(project, 'utf8')).scriptId).toBe(`${ID}2`);
});

test('no script id: a message saying how to give it, nothing written', () => {
  const project = projectFile();
  fs.rmSync(project, { force: true });
  const r = push(['--status']);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('push: no script id. Run `npm run push -- --script-id <SCRIPT_ID>` once');
  expect(fs.existsSync(project)).toBe(false);
  expect(push(['--script-id', 'nope', '--status']).stderr).toContain(
    '"nope" does not look like an Apps Script script id',
  );
});

test(".clasp.json is git-ignored (the user's own, never committed)", () => {
  const r = spawnSync('git', ['check-ignore', '-q', 'sheets-addon/.clasp.json'], { cwd: ROOT });
  expect(r.status).toBe(0);
});
