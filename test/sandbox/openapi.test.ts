/** /openapi.json: generated from the registry, valid OpenAPI 3.1 under a standard validator. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApi, endpoints, pathOf } from '@igdata/core';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';

// The validator is ESM-only; run its CLI in a child process.
const CLI = join(__dirname, '../../node_modules/@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
function validate(doc: unknown): { valid: boolean; errors?: unknown } {
  const file = join(mkdtempSync(join(tmpdir(), 'oas-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  try {
    return JSON.parse(execFileSync(process.execPath, [CLI, file], { encoding: 'utf8' }));
  } catch (e) {
    const out = (e as { stdout?: string }).stdout ?? '';
    try {
      return JSON.parse(out);
    } catch {
      return { valid: false, errors: out || String(e) };
    }
  }
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START });
});
afterAll(() => sb.close());

test('served without a key, not billed, OpenAPI 3.1 version 1.0.0, one path per registry endpoint', async () => {
  const res = await fetch(`${sb.url}/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as {
    openapi: string;
    info: { version: string };
    paths: Record<string, { get: { parameters: { name: string }[] } }>;
    servers: { url: string }[];
    components: { securitySchemes: object };
  };
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info.version).toBe('1.0.0');
  expect(doc.servers[0].url).toBe(sb.url);
  expect(Object.keys(doc.paths).sort()).toEqual(endpoints.map(pathOf).sort());
  for (const e of endpoints)
    expect(doc.paths[pathOf(e)].get.parameters.map((p) => p.name)).toEqual(e.params.map((p) => p.name));
  expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKeyHeader', 'bearerAuth']);
  expect(sb.stats().total).toBe(0);
  expect(sb.balance(sb.demoKey)).toBe(1_000_000);
});

test('valid under @seriousme/openapi-schema-validator (and the validator does reject a broken one)', () => {
  const doc = buildOpenApi('http://127.0.0.1:4010');
  const result = validate(doc);
  expect(result.errors).toBeUndefined();
  expect(result.valid).toBe(true);
  const broken = { ...doc, info: { title: 'x' } };
  expect(validate(broken).valid).toBe(false);
});
