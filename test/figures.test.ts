/**
 * Figures in the READMEs and CONTRIBUTING come from the bench records (bench/records/*.json)
 * through `npm run docs` (scripts/docs/figures.mjs). The check runs on the repository as it is,
 * then on a copy of its documents and records where one thing is broken at a time: a figure typed
 * with no record, a record that changed (the documents are stale until `npm run docs`), a figure
 * given twice, an undated figure whose date nothing says.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(__dirname, '..');
const DOCUMENTS = ['README.md', 'sheets-addon/README.md', 'n8n-node/README.md', 'zapier/README.md', 'CONTRIBUTING.md'];
const docs = (args: string[]) =>
  spawnSync(process.execPath, [join(root, 'scripts/docs.mjs'), ...args], { encoding: 'utf8' });

let dir: string;
/** A fresh copy of the documents and the records. */
function copy() {
  dir = mkdtempSync(join(tmpdir(), 'igdata-figures-'));
  for (const d of DOCUMENTS) {
    mkdirSync(dirname(join(dir, d)), { recursive: true });
    cpSync(join(root, d), join(dir, d));
  }
  cpSync(join(root, 'bench/records'), join(dir, 'bench/records'), { recursive: true });
}
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
const edit = (file: string, change: (text: string) => string) =>
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
const check = () => docs(['--check', '--root', dir]);

test('every figure in the documents is current with its record', () => {
  const r = docs(['--check']);
  expect([r.status, r.stderr]).toEqual([0, '']);
});

test('a figure typed into a document without a record fails the check, naming it and where it is', () => {
  copy();
  expect(check().status).toBe(0);
  edit(
    'n8n-node/README.md',
    (t) => `${t}\nA lookup of 200 handles now takes 251 ms, 0.87x of the HTTP Request node.\n`,
  );
  const r = check();
  expect(r.status).toBe(1);
  const end = readFileSync(join(dir, 'n8n-node/README.md'), 'utf8').split('\n').length - 1;
  expect(r.stderr).toContain(`n8n-node/README.md:${end}: "251 ms" is a figure with no record`);
  expect(r.stderr).toContain(`n8n-node/README.md:${end}: "0.87x" is a figure with no record`);
});

test('a changed record makes the documents stale; npm run docs rewrites the figure and its date', () => {
  copy();
  edit('bench/records/sheets.json', (t) => {
    const records = JSON.parse(t);
    return JSON.stringify({ ...records, 'sheets.a.ms': { ...records['sheets.a.ms'], value: 1987 } });
  });
  edit('bench/records/bundle.json', (t) => {
    const records = JSON.parse(t);
    return JSON.stringify({
      ...records,
      'bundle.bytes': { ...records['bundle.bytes'], value: 90001, date: '2026-12-01' },
    });
  });
  const stale = check();
  expect(stale.status).toBe(1);
  expect(stale.stderr).toContain('Stale: sheets-addon/README.md');

  expect(docs(['--root', dir]).status).toBe(0);
  expect(check().status).toBe(0);
  const readme = readFileSync(join(dir, 'sheets-addon/README.md'), 'utf8');
  expect(readme).toContain('<!-- fig:sheets.a.ms nodate -->1,987 ms<!-- /fig -->');
  expect(readme).toContain('<!-- fig:bundle.bytes -->90,001 bytes (2026-12-01)<!-- /fig -->');
  expect(readme).not.toContain('2,178 ms');
});

test('a key with no record, a figure given twice and an undated figure whose date nothing says all fail', () => {
  copy();
  edit('README.md', (t) => `${t}\nSee <!-- fig:sheets.no.such.figure -->1 ms<!-- /fig -->.\n`);
  edit('CONTRIBUTING.md', (t) => `${t}\nAgain: <!-- fig:sheets.c.ms -->6,045 ms (2026-11-22)<!-- /fig -->.\n`);
  edit('bench/records/bundle.json', (t) =>
    JSON.stringify({
      ...JSON.parse(t),
      'bundle.kb@planted': { value: 70, unit: 'KB', date: '2026-12-02', machine: 'm', conditions: 'c' },
    }),
  );
  edit('n8n-node/README.md', (t) => `${t}\nHistory: <!-- fig:bundle.kb@planted nodate -->70.0 KB<!-- /fig -->.\n`);
  const r = check();
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('fig:sheets.no.such.figure has no record in bench/records/');
  expect(r.stderr).toMatch(/CONTRIBUTING\.md:\d+: fig:sheets\.c\.ms is already given at sheets-addon\/README\.md:\d+/);
  expect(r.stderr).toContain(
    'fig:bundle.kb@planted is undated (nodate) but no date marker in n8n-node/README.md says 2026-12-02',
  );
});
