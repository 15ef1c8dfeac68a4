/**
 * The command-line scripts read their flags strictly (scripts/lib/cli.mjs): a typo is refused with
 * the known flags listed, never ignored; and `isMain` tells the script node runs from an import of
 * it, however the path is written. Every script is refused before it does anything (no build, no
 * install, no server), so this suite is quick.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(__dirname, '..');
const node = (args: string[], cwd = root) =>
  spawnSync(process.execPath, args, { cwd, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'production' } });

// Each script that takes flags, with the flags it knows.
const SCRIPTS: [string, string[]][] = [
  ['scripts/build.mjs', []],
  ['scripts/docs.mjs', ['--check', '--root']],
  ['scripts/start.mjs', ['--no-n8n', '--no-sheets-preview']],
  ['scripts/browser/install.mjs', ['--check']],
  ['scripts/n8n-harness/install.mjs', ['--force']],
  ['scripts/n8n-harness/queue-install.mjs', ['--check']],
  ['scripts/n8n-harness/overhead.mjs', []],
  ['scripts/n8n-gates/lint.mjs', ['--fix']],
  ['scripts/n8n-gates/scan.mjs', []],
  ['scripts/bench/core.mjs', ['--rounds', '--requests', '--seconds', '--json']],
  ['scripts/bench/n8n.mjs', ['--runs', '--json']],
  ['scripts/bench/bundle.mjs', []],
  ['scripts/bench/zapier-zip.mjs', []],
  ['scripts/bench/npm-test-record.mjs', ['--commit', '--conditions', '--date', '--wall', '--cache']],
  ['scripts/bench/quick-tier.mjs', ['--runs', '--cold', '--json']],
  ['sheets-addon/push.mjs', ['--script-id', '--status', '--json']],
];

test.each(SCRIPTS)('%s refuses an unknown flag, listing the ones it knows', (script, known) => {
  const r = node([script, '--no-such-flag']);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain("Unknown option '--no-such-flag'");
  const listed = /Known flags: (.*)/.exec(r.stderr)?.[1] ?? '';
  for (const flag of [...known, '--help']) expect(listed).toContain(flag);
  expect(r.stdout).toBe('');
});

test('a typo of a real flag is refused too (it was ignored: the script ran as if no flag were given)', () => {
  const r = node(['scripts/browser/install.mjs', '--chek']);
  expect(r.status).toBe(2);
  expect(r.stderr).toContain("Unknown option '--chek'");
  expect(r.stdout).not.toContain('[browser]');
});

test('positional arguments are checked where they mean something', () => {
  const build = node(['scripts/build.mjs', 'sandbx']);
  expect([build.status, build.stderr]).toEqual([2, expect.stringContaining('not a part to build: sandbx')]);
  const install = node(['scripts/n8n-harness/install.mjs', '2.8.5']);
  expect([install.status, install.stderr]).toEqual([2, expect.stringContaining('not a supported n8n version: 2.8.5')]);
  const docs = node(['scripts/docs.mjs', 'README.md']);
  expect([docs.status, docs.stderr]).toEqual([2, expect.stringContaining("Unexpected argument 'README.md'")]);
});

test('--help prints the usage and the known flags, and exits 0', () => {
  const r = node(['scripts/n8n-gates/lint.mjs', '--help']);
  expect(r.status).toBe(0);
  expect(r.stdout).toContain('usage: node scripts/n8n-gates/lint.mjs [--fix]');
  expect(r.stdout).toContain('Known flags: --fix, --help (-h)');
});

describe('isMain', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'igdata-ismain-'));
    const cli = JSON.stringify(pathToFileURL(join(root, 'scripts/lib/cli.mjs')).href);
    writeFileSync(
      join(dir, 'tool.mjs'),
      `import { isMain } from ${cli};\nconsole.log('tool main:', isMain(import.meta.url));\n`,
    );
    writeFileSync(
      join(dir, 'user.mjs'),
      `import './tool.mjs';\nimport { isMain } from ${cli};\nconsole.log('user main:', isMain(import.meta.url));\n`,
    );
    symlinkSync(join(dir, 'tool.mjs'), join(dir, 'linked.mjs'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('true for the script node runs: absolute, relative or through a symlink', () => {
    expect(node([join(dir, 'tool.mjs')]).stdout).toBe('tool main: true\n');
    expect(node([relative(root, join(dir, 'tool.mjs'))]).stdout).toBe('tool main: true\n');
    expect(node(['tool.mjs'], dir).stdout).toBe('tool main: true\n');
    expect(node([join(dir, 'linked.mjs')]).stdout).toBe('tool main: true\n');
  });

  test('false for a module the script imports', () => {
    expect(node([join(dir, 'user.mjs')]).stdout).toBe('tool main: false\nuser main: true\n');
  });

  test('false under node -e (no script at all)', () => {
    const r = node([
      '--input-type=module',
      '-e',
      `import { isMain } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/lib/cli.mjs')).href)}; console.log(isMain(import.meta.url));`,
    ]);
    expect(r.stdout).toBe('false\n');
  });
});
