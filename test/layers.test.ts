// Layers without circles: `npm run lint:cycles` (dependency-cruiser, .dependency-cruiser.cjs) passes
// on the real tree and fails on a copy of it with a circle planted in each checked tree (type-only
// imports, the kind that compiles away; the tools in scripts/ included), a types.ts that imports a
// module and a schedule that reaches into bulk and its owner.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const script = pkg.scripts['lint:cycles'];
const bin = join(root, 'node_modules', '.bin', 'depcruise');

/** Runs the `lint:cycles` script's command line in `cwd`. */
function lintCycles(cwd: string) {
  const [cmd, ...args] = script.split(/\s+/);
  expect(cmd).toBe('depcruise');
  const r = spawnSync(bin, args, { cwd, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const TREES = ['core/src', 'sheets-addon/src', 'n8n-node/nodes', 'zapier/src', 'scripts'];

it('lint:cycles checks core, the add-on, the n8n nodes, the Zapier integration and the tools, and is part of npm test', () => {
  for (const tree of TREES) expect(script).toContain(` ${tree}`);
  expect(pkg.scripts.test).toMatch(/npm run lint:cycles/);
});

it('passes on the real tree', () => {
  const r = lintCycles(root);
  expect(r.out).toMatch(/no dependency violations found/);
  expect(r.status).toBe(0);
});

// One copy of the tree holds every planted breach and is checked once (each run of
// dependency-cruiser costs seconds of CPU); each test then finds its own in that one report, and
// the count of errors in it is exactly what was planted, nothing more.
describe('on a copy with every breach planted', () => {
  const PLANTED = ['core/src', 'sheets-addon/src/engine', 'n8n-node/nodes/IgData', 'zapier/src', 'scripts/sandbox'];
  const SEAMS = 3; // the schedule's reach below: one import of each of three rules
  let r: { status: number | null; out: string };
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'igdata-layers-'));
    try {
      for (const f of [...TREES, 'tsconfig.json', '.dependency-cruiser.cjs'])
        cpSync(join(root, f), join(dir, f), { recursive: true });
      // A type-only circle of two modules in a folder of each tree.
      for (const folder of PLANTED) {
        writeFileSync(
          join(dir, folder, 'planted-a.ts'),
          "import type { B } from './planted-b';\nexport type A = { b?: B };\n",
        );
        writeFileSync(
          join(dir, folder, 'planted-b.ts'),
          "import type { A } from './planted-a';\nexport type B = { a?: A };\n",
        );
      }
      // A leaf that is not one: core's plain types importing a module above them.
      appendFileSync(
        join(dir, 'core/src/types.ts'),
        "\nimport type { DEFAULT_BASE_URL } from './constants';\nexport type Planted = typeof DEFAULT_BASE_URL;\n",
      );
      // A schedule that reaches into bulk and its owner.
      writeFileSync(
        join(dir, 'sheets-addon/src/schedule/planted-reach.ts'),
        "import { endStep } from '../bulk/step';\nimport { start } from '../bulk/control';\nimport { TRACKER_OWNER } from '../tracker/trackers';\nexport const planted = [endStep, start, TRACKER_OWNER];\n",
      );
      r = lintCycles(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails, naming each circle and the leaf that imports, and nothing but what was planted', () => {
    expect(r.status).not.toBe(0);
    for (const folder of PLANTED) {
      expect(r.out).toMatch(new RegExp(`no-circular: ${folder}/planted-[ab]\\.ts`));
    }
    expect(r.out).toMatch(/types-are-leaves: core\/src\/types\.ts → core\/src\/constants\.ts/);
    const violations = r.out.split('\n').filter((l) => /^\s*error /.test(l));
    expect(violations).toHaveLength(PLANTED.length + 1 + SEAMS);
  });

  it('fails where a schedule reaches into bulk and its owner, naming the bulk internal, the sidebar run and the owner it imports', () => {
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(
      /bulk-internals: sheets-addon\/src\/schedule\/planted-reach\.ts → sheets-addon\/src\/bulk\/step\.ts/,
    );
    expect(r.out).toMatch(
      /owned-runs-are-their-own: sheets-addon\/src\/schedule\/planted-reach\.ts → sheets-addon\/src\/bulk\/control\.ts/,
    );
    expect(r.out).toMatch(
      /schedules-know-no-owner: sheets-addon\/src\/schedule\/planted-reach\.ts → sheets-addon\/src\/tracker\/trackers\.ts/,
    );
  });
});
