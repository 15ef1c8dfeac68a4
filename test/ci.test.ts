/**
 * CI (.github/workflows/ci.yml) cannot run here, so its shape is checked: it parses, runs on pull
 * requests and pushes, and runs the README's test command after `npm ci`, as .ci/run does, on
 * Debian with Node 20 as root (the setup scripts' apt-get), with .cache/ cached on the lockfile and
 * the harness versions.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const root = join(__dirname, '..');
const read = (f: string) => readFileSync(join(root, f), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}
const workflow = parse(read('.github/workflows/ci.yml'));
const job = workflow.jobs.test;
const steps: Step[] = job.steps;
const runs = steps.filter((s) => s.run).map((s) => s.run!.trim());

/** The README's test command: the first code block's line commented "every test". */
function readmeTestCommand(): string {
  const block = /```sh\n([\s\S]*?)```/.exec(read('README.md'))![1];
  const line = block.split('\n').find((l) => /#\s*every test/.test(l))!;
  return line.split('#')[0].trim();
}
/** The commands .ci/run runs after moving to the repository. */
const ciRunCommands = () =>
  read('.ci/run')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('set ') && !l.startsWith('cd '));

test(".ci/run and the workflow both install from the lockfile, then run the README's test command", () => {
  const command = readmeTestCommand();
  expect(command).toBe('npm test');
  expect(ciRunCommands()).toEqual(['npm ci', command]);
  const install = runs.indexOf('npm ci');
  const test = runs.indexOf(command);
  expect(install).toBeGreaterThanOrEqual(0);
  expect(test).toBeGreaterThan(install);
  expect(runs.at(-1)).toBe(command);
  // Anything else it runs is an npm script of the repository (the quick tier first), not a copy of
  // what the setup scripts do (no apt-get, no installs in YAML).
  const scripts = JSON.parse(read('package.json')).scripts;
  for (const r of runs.filter((x) => x !== 'npm ci' && x !== command)) {
    expect(r).toMatch(/^npm run [\w:-]+$/);
    expect(scripts).toHaveProperty(r.replace('npm run ', ''));
  }
  expect(runs.join('\n')).not.toMatch(/apt|install/);
});

test('on every pull request and on pushes', () => {
  expect(workflow.on).toHaveProperty('pull_request');
  expect(workflow.on).toHaveProperty('push');
  expect(workflow.permissions).toEqual({ contents: 'read' });
});

test('Node 20 on Debian, as root, within 90 minutes', () => {
  expect(job['runs-on']).toMatch(/^ubuntu-/);
  expect(job.container).toMatch(/^node:20-bookworm$/);
  expect(job['timeout-minutes']).toBe(90);
  const setup = steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  expect(String(setup?.with?.['node-version'])).toMatch(/^20(\.|$)/);
});

test('.cache/ is cached, keyed on the lockfile and the harness versions (files that exist)', () => {
  const cache = steps.find((s) => s.uses?.startsWith('actions/cache@'))!;
  expect(cache.with!.path).toBe('.cache');
  const key = cache.with!.key;
  const hashed = [...key.matchAll(/hashFiles\(([^)]*)\)/g)].flatMap((m) =>
    [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]),
  );
  expect(hashed).toEqual(expect.arrayContaining(['package-lock.json', 'scripts/n8n-harness/versions.cjs']));
  // hashFiles of a missing file is silently empty: a renamed file would leave the key stale.
  for (const f of hashed) expect([f, existsSync(join(root, f))]).toEqual([f, true]);
  expect(cache.with!['restore-keys'].trim()).toBe(key.slice(0, key.indexOf('${{ hashFiles')));
  // The restore step comes before the install and the tests that fill .cache.
  expect(steps.indexOf(cache)).toBeLessThan(steps.findIndex((s) => s.run?.trim() === 'npm ci'));
});
