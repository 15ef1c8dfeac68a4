/**
 * The built package as n8n loads it: layout (n8n-nodes-starter style), no runtime dependencies,
 * bundles free of what community nodes must not use, and every registry endpoint an operation
 * whose fields are the API's query parameter names.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { DEFAULT_BASE_URL, endpoints } from '@igdata/core';
import { N8N_BUILT, requireBuilt } from '../support/built';

const pkgDir = join(__dirname, '..', '..', 'n8n-node');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

// The package as `npm run build` made it (npm test builds first).
beforeAll(() => requireBuilt(...N8N_BUILT));

test('package.json is a community-node package with no runtime dependencies', () => {
  expect(pkg.name).toBe('n8n-nodes-igdata');
  expect(pkg.license).toBe('MIT');
  expect(pkg.keywords).toContain('n8n-community-node-package');
  expect(pkg.dependencies).toBeUndefined();
  expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
  expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
  for (const f of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) expect(existsSync(join(pkgDir, f))).toBe(true);
  for (const f of [
    'dist/nodes/IgData/igdata.svg',
    'dist/nodes/IgData/igdata.dark.svg',
    'dist/nodes/IgData/IgData.node.json',
    'dist/nodes/IgData/IgDataTrigger.node.json',
    'dist/credentials/igdata.svg',
  ]) {
    expect(existsSync(join(pkgDir, f))).toBe(true);
  }
});

test('the bundles use no process, timers, console, file system or environment, and need only n8n-workflow', () => {
  for (const f of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) {
    const code = readFileSync(join(pkgDir, f), 'utf8');
    expect(code).not.toMatch(
      /\bprocess\.|\bsetTimeout\(|\bsetInterval\(|\bconsole\.|require\("(node:)?(fs|child_process|os)"\)/,
    );
    const requires = [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect([...new Set(requires)].filter((r) => r !== 'n8n-workflow')).toEqual([]);
  }
});

test('every registry endpoint is an operation named by its path, with fields named as the API parameters', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { IgData } = require(join(pkgDir, 'dist/nodes/IgData/IgData.node.js'));
  const description = new IgData().description;
  expect(description.usableAsTool).toBe(true);
  const props: INodeProperties[] = description.properties;
  const operations = props.filter((p) => p.name === 'operation').flatMap((p) => p.options as INodePropertyOptions[]);
  expect(operations.map((o) => o.value).sort()).toEqual(endpoints.map((e) => e.id).sort());
  for (const op of operations) {
    expect(op.action).toBeTruthy();
    expect(String(op.description)).toMatch(/Cost: /);
  }
  for (const e of endpoints) {
    for (const p of e.params.filter((x) => x.kind !== 'cursor')) {
      const field = props.find(
        (f) => f.name === p.name && (f.displayOptions?.show?.operation as string[] | undefined)?.includes(e.id),
      );
      expect(field).toBeDefined();
      expect(field!.required ?? false).toBe(p.required);
      if (p.default !== undefined) expect(field!.default).toBe(p.default);
    }
    const returnAll = props.find(
      (f) => f.name === 'returnAll' && (f.displayOptions?.show?.operation as string[]).includes(e.id),
    );
    expect(Boolean(returnAll)).toBe(e.shape === 'list' && e.paginated);
    if (returnAll) expect(returnAll.default).toBe(false);
  }
  for (const name of ['handle', 'post', 'tag', 'id', 'q', 'posts', 'timezone', 'sample', 'criteria'])
    expect(props.some((p) => p.name === name)).toBe(true);
});

test('the credential: password key, base URL defaulting to production, test request on credits', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { IgDataApi } = require(join(pkgDir, 'dist/credentials/IgDataApi.credentials.js'));
  const cred = new IgDataApi();
  const byName = Object.fromEntries(cred.properties.map((p: INodeProperties) => [p.name, p]));
  expect(byName.apiKey.typeOptions.password).toBe(true);
  expect(byName.baseUrl.default).toBe(DEFAULT_BASE_URL);
  expect(cred.test.request.url).toBe('/v1/credits');
});
