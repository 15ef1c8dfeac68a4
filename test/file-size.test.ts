// Small files with names that say what they hold: no source file over 400 lines (Prettier's layout)
// but the data tables CONTRIBUTING.md names under "Files that hold one idea", each kept whole for the
// reason given there. A file that grows past the limit is split by concern, not trimmed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(__dirname, '..');
const LIMIT = 400;
const TREES = ['core', 'sheets-addon', 'n8n-node', 'scripts', 'test', 'zapier'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.cache']);
const SOURCE = /\.(ts|js|mjs|cjs)$/;
/** The data tables allowed over the limit: CONTRIBUTING.md lists each with its reason. */
const DATA_TABLES = ['core/src/registry/endpoints.ts'];

/** Every source file under `dir`, as a path relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return SKIP_DIRS.has(e.name) ? [] : sources(path);
    return e.isFile() && SOURCE.test(e.name) ? [relative(root, path)] : [];
  });
}

const lineCount = (path: string) => readFileSync(join(root, path), 'utf8').replace(/\n$/, '').split('\n').length;

it(`no source file is over ${LIMIT} lines but the data tables CONTRIBUTING.md names`, () => {
  const files = TREES.filter((t) => existsSync(join(root, t))).flatMap((t) => sources(join(root, t)));
  expect(files.length).toBeGreaterThan(100);
  const over = files
    .filter((f) => !DATA_TABLES.includes(f))
    .map((f) => ({ f, lines: lineCount(f) }))
    .filter(({ lines }) => lines > LIMIT)
    .map(({ f, lines }) => `${f} (${lines})`);
  expect(over).toEqual([]);
});

it('every data table allowed over the limit is named in CONTRIBUTING.md and exists', () => {
  const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  for (const f of DATA_TABLES) {
    expect(existsSync(join(root, f))).toBe(true);
    expect(contributing).toContain(`\`${f}\``);
  }
});
