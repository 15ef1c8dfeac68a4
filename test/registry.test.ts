// One registry drives everything: this fails when an endpoint lacks any of the things derived
// from it (Sheets function + JSDoc, n8n operation, sandbox route, OpenAPI path, README row).
// Reads the *built* products (npm test builds first).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApi, documented, endpoints } from '@igdata/core';
import { startSandbox } from '../scripts/sandbox/server';
import { TEST_START } from './support/clock';
import { validInput } from './support/testkit';

const root = join(__dirname, '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');

describe.each(endpoints.map((e) => [e.id, e] as const))('%s', (_id, e) => {
  it('has a Sheets function with @customfunction JSDoc in the built entry file', () => {
    const code = read('sheets-addon/dist/Code.js');
    const at = code.indexOf(`function ${e.fn}(`);
    expect(at).toBeGreaterThan(0);
    const doc = code.slice(code.lastIndexOf('/**', at), at);
    expect(doc).toContain('@customfunction');
    for (const p of e.params.filter((x) => x.kind !== 'cursor'))
      expect(doc).toMatch(new RegExp(`@param .*${p.name}`, 'i'));
  });

  it('pages exactly when it takes a cursor and has a page size, and only as a list (define() fills these in from pageSize)', () => {
    const cursor = e.params.some((p) => p.kind === 'cursor');
    expect(e.paginated).toBe(cursor);
    expect(e.pageSize !== undefined).toBe(cursor);
    if (e.paginated) expect(e.shape).toBe('list');
  });

  it('says how long its answer may be reused, within what the data is (stories live 24 hours)', () => {
    expect(e.maxReuseHours === null || (Number.isInteger(e.maxReuseHours) && e.maxReuseHours >= 0)).toBe(true);
    if (e.id === 'profile/stories') expect(e.maxReuseHours).toBeLessThan(24);
    if (e.id === 'credits') expect(e.maxReuseHours).toBe(0);
    // The Sheets README's function table lists it.
    const row = read('sheets-addon/README.md')
      .split('\n')
      .find((l) => l.startsWith(`| \`${e.fn}(`));
    expect(row).toContain(
      e.maxReuseHours === null ? '| your setting |' : e.maxReuseHours === 0 ? '| never |' : `| ${e.maxReuseHours} h |`,
    );
  });

  it('is an operation of the built n8n node, valued by its path', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { IgData } = require(join(root, 'n8n-node/dist/nodes/IgData/IgData.node.js'));
    const props = new IgData().description.properties as { name: string; options?: { value: string }[] }[];
    const values = props.filter((p) => p.name === 'operation').flatMap((p) => (p.options ?? []).map((o) => o.value));
    expect(values).toContain(e.id);
  });

  it('is a path of the OpenAPI document and a row of the README reference', () => {
    expect(buildOpenApi('http://x').paths).toHaveProperty([`/v1/${e.id}`]);
    const { resource, operation } = documented(e); // names from the registry's docs (core/src/registry/docs.ts)
    expect(read('README.md')).toContain(`| \`${e.fn}\` | ${resource} › ${operation} | \`/v1/${e.id}\``);
  });
});

it('every endpoint is a sandbox route answering 200', async () => {
  const sandbox = await startSandbox({ startAt: TEST_START, port: 0, quiet: true });
  try {
    for (const e of endpoints) {
      const qs = new URLSearchParams(
        Object.entries(validInput(e, sandbox.world)).map(([k, v]) => [k, String(v)]),
      ).toString();
      const res = await fetch(`${sandbox.url}/v1/${e.id}?${qs}`, {
        headers: { authorization: `Bearer ${sandbox.demoKey}` },
      });
      expect([e.id, res.status]).toEqual([e.id, 200]);
    }
  } finally {
    await sandbox.close();
  }
});

it('the README reference is up to date with the registry', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { execFileSync } = require('node:child_process');
  expect(() =>
    execFileSync(process.execPath, [join(root, 'scripts/docs.mjs'), '--check'], { stdio: 'pipe' }),
  ).not.toThrow();
});
