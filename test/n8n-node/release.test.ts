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
const job = workflow.jobs.release;
const steps: Step[] = job.steps;
const index = (pred: (s: Step) => boolean) => steps.findIndex(pred);

test('runs on a pushed n8n-node-v* tag, with the OIDC token provenance needs and nothing more', () => {
  expect(workflow.on.push.tags).toEqual(['n8n-node-v*']);
  expect(workflow.permissions).toEqual({ contents: 'read' });
  expect(job.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
});

test('checks out, installs from the lockfile, builds, tests, then publishes with provenance from n8n-node/', () => {
  const checkout = index((s) => !!s.uses?.startsWith('actions/checkout@'));
  const setup = index((s) => !!s.uses?.startsWith('actions/setup-node@'));
  const install = index((s) => s.run === 'npm ci');
  const build = index((s) => s.run === 'npm run build');
  const test = index((s) => s.run === 'npm test');
  const publish = index((s) => /^npm publish --provenance\b/.test(s.run ?? ''));
  expect([checkout, setup, install, build, test, publish].every((i) => i >= 0)).toBe(true);
  expect(checkout < setup && setup < install && install < build && build < test && test < publish).toBe(true);
  expect(steps[setup].with?.['registry-url']).toBe('https://registry.npmjs.org');
  expect(steps[publish]['working-directory']).toBe('n8n-node');
  expect(steps[publish].run).toContain('--access public');
  expect(steps[publish].env?.NODE_AUTH_TOKEN).toBe('${{ secrets.NPM_TOKEN }}');
  // A manual run is a dry run: only a pushed tag publishes.
  expect(steps[publish].run).toContain("github.event_name == 'push'");
  expect(steps[publish].run).toContain('--dry-run');
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
