/**
 * n8n's gates (`npm run lint:n8n`, scripts/n8n-gates) can fail: planted in a copy of the package,
 * a `globalThis` in the shipped JavaScript fails n8n's scanner, and an eslint config that is not
 * n8n's default fails `n8n-node lint` in strict mode. (That the real package passes both is
 * `npm run lint:n8n` itself, which `npm test` runs before jest.)
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { N8N_BUILT, requireBuilt } from '../support/built';

const root = join(__dirname, '..', '..');
const gates = (file: string) => JSON.stringify(pathToFileURL(join(root, 'scripts/n8n-gates', file)).href);

/** Runs an ESM snippet (the gates are ESM) and returns what it printed as JSON on its last line. */
function esm(code: string): { passed: boolean; errors?: number; text: string } {
  // Not jest's NODE_ENV=test: eslint-plugin-n8n-nodes-base's rules read file names differently then.
  const env = { ...process.env, NODE_ENV: 'production' };
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    env,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').at(-1) as string);
}

let work: string;
beforeAll(() => {
  requireBuilt(...N8N_BUILT); // npm test builds first; the planted copy below is this suite's own
  work = mkdtempSync(join(tmpdir(), 'planted-'));
  cpSync(join(root, 'n8n-node'), join(work, 'n8n-node'), {
    recursive: true,
    filter: (src) => !src.includes('node_modules'),
  });
}, 120_000);
afterAll(() => work && rmSync(work, { recursive: true, force: true }));

test('the scanner fails a bundle that uses globalThis, naming the rule and the file', () => {
  const pkg = join(work, 'n8n-node');
  appendFileSync(join(pkg, 'dist/nodes/IgData/IgData.node.js'), '\nglobalThis.__planted = 1;\n');
  const r = esm(
    `import { scanDir } from ${gates('scan.mjs')}; console.log(JSON.stringify(await scanDir(${JSON.stringify(pkg)})));`,
  );
  expect(r.passed).toBe(false);
  expect(r.errors).toBe(1);
  expect(r.text).toContain('no-restricted-globals');
  expect(r.text).toContain('IgData.node.js');
}, 180_000);

test('n8n-node lint in strict mode fails when eslint.config.mjs is not the default', () => {
  const pkg = join(work, 'n8n-node');
  writeFileSync(
    join(pkg, 'eslint.config.mjs'),
    "import { config } from '@n8n/node-cli/eslint';\n\nexport default [...config, { rules: {} }];\n",
  );
  const r = esm(
    `import { lintGate } from ${gates('lint.mjs')}; const r = lintGate({ packageDir: ${JSON.stringify(pkg)}, log: () => {} }); console.log(JSON.stringify(r));`,
  );
  expect(r.passed).toBe(false);
  expect(r.text).toContain('Strict mode violation');
}, 180_000);
