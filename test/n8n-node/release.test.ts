/**
 * The release path of the n8n package, as n8n's verification asks for it: published from GitHub
 * Actions with npm provenance, built and tested first, with a CHANGELOG and package metadata that
 * all name the same repository. The workflow cannot run here, so its shape is checked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const root = join(__dirname, '..', '..');
const workflow = parse(readFileSync(join(root, '.github/workflows/n8n-node-release.yml'), 'utf8'));
const pkg = JSON.parse(readFileSync(join(root, 'n8n-node/package.json'), 'utf8'));
const changelog = readFileSync(join(root, 'n8n-node/CHANGELOG.md'), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  if?: string;
  'working-directory'?: string;
}
const text = readFileSync(join(root, '.github/workflows/n8n-node-release.yml'), 'utf8');
const { test: testJob, publish: publishJob } = workflow.jobs;
const steps: Step[] = testJob.steps;
const publishSteps: Step[] = publishJob.steps;
const index = (pred: (s: Step) => boolean, list = steps) => list.findIndex(pred);
/** Every command a job's steps run, one a line, comments and blank lines left out. */
const commands = (list: Step[]) =>
  list
    .flatMap((s) => (s.run ?? '').split('\n'))
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

test('runs on a pushed n8n-node-v* tag; two jobs: the tests, then publishing, which needs them', () => {
  expect(workflow.on.push.tags).toEqual(['n8n-node-v*']);
  expect(workflow.permissions).toEqual({ contents: 'read' });
  expect(Object.keys(workflow.jobs).sort()).toEqual(['publish', 'test']);
  expect([publishJob.needs].flat()).toEqual(['test']);
});

test('the job that runs the tests holds no OIDC token and no npm token', () => {
  expect(testJob.permissions).toEqual({ contents: 'read' });
  expect(JSON.stringify(testJob)).not.toMatch(/id-token|NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
});

test('the publish job holds the OIDC token npm trusted publishing needs, no long-lived token, and runs no test suite, build or install', () => {
  expect(publishJob.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
  // No token anywhere in the workflow (its comments aside): publishing is trusted publishing (OIDC) only.
  expect(JSON.stringify(workflow)).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|secrets\./);
  expect(publishJob.container).toBeUndefined(); // a GitHub-hosted runner, as trusted publishing requires
  const runs = commands(publishSteps);
  for (const line of runs) {
    expect([line, /\b(npm (test|t|ci|install|i|run|exec|rebuild)\b|npx|jest|yarn|pnpm|scripts\/)/.test(line)]).toEqual([
      line,
      false,
    ]);
  }
  // npm itself only packs, publishes and says its version.
  const npmVerbs = runs.flatMap((l) => [...l.matchAll(/(?:^|[\s;(|&])npm ([a-z-]+)/g)].map((m) => m[1]));
  expect(new Set(npmVerbs)).toEqual(new Set(['--version', 'pack', 'publish']));
  // Actions: checkout, setup-node, and the tested build from the test job; nothing else.
  expect(publishSteps.filter((s) => s.uses).map((s) => s.uses!.replace(/@.*/, ''))).toEqual([
    'actions/checkout',
    'actions/setup-node',
    'actions/download-artifact',
  ]);
});

test('the test job checks out, installs from the lockfile, builds, tests, then keeps the build it tested', () => {
  const checkout = index((s) => !!s.uses?.startsWith('actions/checkout@'));
  const setup = index((s) => !!s.uses?.startsWith('actions/setup-node@'));
  const install = index((s) => s.run === 'npm ci');
  const build = index((s) => s.run === 'npm run build');
  const test = index((s) => s.run === 'npm test');
  const keep = index((s) => !!s.uses?.startsWith('actions/upload-artifact@'));
  expect([checkout, setup, install, build, test, keep].every((i) => i >= 0)).toBe(true);
  expect(checkout < setup && setup < install && install < build && build < test && test < keep).toBe(true);
  expect(steps[keep].with).toMatchObject({ name: 'n8n-node-dist', path: 'n8n-node/dist' });
  const fetched = publishSteps[index((s) => !!s.uses?.startsWith('actions/download-artifact@'), publishSteps)];
  expect(fetched.with).toEqual({ name: 'n8n-node-dist', path: 'n8n-node/dist' });
});

test("publishes with provenance through npm's trusted publishing: Node 22.14+ with npm 11.5.1+, the npm registry, packed from n8n-node/ without scripts", () => {
  const setup = publishSteps[index((s) => !!s.uses?.startsWith('actions/setup-node@'), publishSteps)];
  expect(setup.with?.['registry-url']).toBe('https://registry.npmjs.org');
  expect(Number(String(setup.with?.['node-version']).split('.')[0])).toBeGreaterThanOrEqual(24);
  const check = index((s) => !!s.run?.includes('npm --version'), publishSteps);
  const fetched = index((s) => !!s.uses?.startsWith('actions/download-artifact@'), publishSteps);
  const pack = index((s) => /^npm pack\b/.test(s.run ?? ''), publishSteps);
  const publish = index((s) => /^npm publish\b/.test(s.run ?? ''), publishSteps);
  expect([check, fetched, pack, publish].every((i) => i >= 0)).toBe(true);
  expect(check < pack && fetched < pack && pack < publish).toBe(true);
  expect(publishSteps[check].run).toContain('11.5.1');
  expect(publishSteps[pack]['working-directory']).toBe('n8n-node');
  expect(publishSteps[pack].run).toContain('--ignore-scripts');
  const run = publishSteps[publish].run!;
  expect(run).toMatch(/^npm publish \.\/n8n-nodes-igdata-\*\.tgz --provenance --access public --ignore-scripts /);
  expect(publishSteps[publish].env).toBeUndefined();
  // A manual run is a dry run: only a pushed tag publishes.
  expect(run).toContain("github.event_name == 'push'");
  expect(run).toContain('--dry-run');
  // The requirements are cited where they are met.
  expect(text).toContain('https://docs.npmjs.com/trusted-publishers');
  expect(text).toContain('11.5.1 or later and Node version 22.14.0 or higher');
});

test('refuses a tag that is not the package version or has no CHANGELOG entry', () => {
  const guard = steps[index((s) => !!s.run?.includes('GITHUB_REF_NAME'))];
  expect(guard).toBeDefined();
  expect(guard.run).toContain('n8n-node-v${version}');
  expect(guard.run).toContain('n8n-node/CHANGELOG.md');
  expect(changelog).toMatch(new RegExp(`^## ${pkg.version.replace(/\./g, '\\.')} `, 'm'));
});

test('package metadata names one repository, and the package publishes with provenance', () => {
  const repo = 'github.com/igdata/igdata';
  expect(pkg.repository).toEqual({ type: 'git', url: `git+https://${repo}.git`, directory: 'n8n-node' });
  expect(pkg.homepage).toBe(`https://${repo}/tree/main/n8n-node#readme`);
  expect(pkg.bugs.url).toBe(`https://${repo}/issues`);
  expect(pkg.author).toEqual({ name: expect.any(String), email: expect.stringContaining('@') });
  expect(pkg.publishConfig).toEqual({ access: 'public', provenance: true });
  expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'CHANGELOG.md']));
  // Every documentation link the package ships points into the same repository.
  const shipped = [
    'credentials/IgDataApi.credentials.ts',
    'nodes/IgData/IgData.node.json',
    'nodes/IgData/IgDataTrigger.node.json',
  ].map((f) => readFileSync(join(root, 'n8n-node', f), 'utf8'));
  const links = shipped.join('\n').match(/https:\/\/[^'"\s)]+/g) ?? [];
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) expect(link).toContain(`https://${repo}/`);
});
