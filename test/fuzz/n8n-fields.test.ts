/**
 * Property-based fuzzing of the n8n action node's fields (issue 8): every operation, its fields
 * (as expressions can fill them: any type), Limit, Extra Parameters and options, run through the
 * node's execute with Continue On Fail, against the sandbox in-process over real HTTP. Whatever
 * comes in: execute never throws, an item rejected as invalid input sent no request and its message
 * names the field, and the API key appears in no item.
 */
import fc from 'fast-check';
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { endpoints } from '@igdata/core';
import { executeIgData } from '../../n8n-node/nodes/IgData/execute';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { cellValue } from './arbitraries';

export const N8N_CASES = 3000;
const PER_OPERATION = Math.ceil(N8N_CASES / endpoints.length);
let sb: Sandbox;
const seen = { cases: 0, rejected: 0, requests: 0 };

beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
});
afterAll(async () => {
  console.log(`n8n fuzz: ${seen.cases} cases, ${seen.rejected} rejected before any request, ${seen.requests} requests`);
  await sb?.close();
});

/** The bits of IExecuteFunctions execute uses, for one item with these parameter values. */
function context(params: Record<string, unknown>, counter: { requests: number }): IExecuteFunctions {
  const ctx = {
    getInputData: () => [{ json: {} }],
    getNodeParameter: (name: string, _i: number, fallback?: unknown) =>
      name in params && params[name] !== undefined ? params[name] : fallback,
    getNode: () => ({
      id: 'fuzz',
      name: 'IG Data',
      type: 'n8n-nodes-igdata.igData',
      typeVersion: 1,
      position: [0, 0],
      parameters: {},
    }),
    continueOnFail: () => true,
    // n8n's per-execution context store (the credit cap of the execution lives there): one execution per call here.
    getContext: () => ({}),
    addExecutionHints: () => undefined,
    getCredentials: async () => ({ apiKey: sb.demoKey, baseUrl: sb.url }),
    helpers: {
      // As n8n does with the credential's `authenticate`: the key goes in the Authorization header here.
      httpRequestWithAuthentication: async (
        _credential: string,
        o: { method: string; url: string; headers: Record<string, string> },
      ) => {
        counter.requests++;
        const res = await fetch(o.url, {
          method: o.method,
          headers: { ...o.headers, Authorization: `Bearer ${sb.demoKey}` },
        });
        return {
          statusCode: res.status,
          headers: Object.fromEntries([...(res.headers as unknown as Iterable<[string, string]>)]),
          body: await res.text(),
        };
      },
    },
  };
  return ctx as unknown as IExecuteFunctions;
}

const limit = fc.oneof(fc.integer({ min: 1, max: 60 }), fc.constantFrom(0, -5, 2.7, NaN, 1e12, '10', 'ten', null));
const extra = fc.array(
  fc.record({
    name: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('handle', 'posts', 'cursor', 'api_key', ' ')),
    value: cellValue(),
  }),
  { maxLength: 2 },
);

describe.each(endpoints.map((e) => [e.id, e] as const))('%s', (id, endpoint) => {
  const fields = endpoint.params.filter((p) => p.kind !== 'cursor').map((p) => p.name);
  const extraNames = ['arguments', 'extra parameter'];

  test(`${PER_OPERATION} random field values`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          values: fc.tuple(...fields.map(() => fc.option(cellValue(), { nil: undefined }))),
          limit,
          returnAll: fc.constant(false),
          options: fc.record({
            simplify: fc.boolean(),
            includeMeta: fc.boolean(),
            creditCap: fc.option(fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(NaN)), { nil: undefined }),
            extraParameters: fc.record({ parameter: extra }),
          }),
        }),
        async ({ values, limit: lim, returnAll, options }) => {
          seen.cases++;
          const params: Record<string, unknown> = { operation: id, limit: lim, returnAll, options };
          fields.forEach((f, i) => (params[f] = values[i]));
          const counter = { requests: 0 };
          const out = (await executeIgData.call(context(params, counter))) as INodeExecutionData[][];
          seen.requests += counter.requests;
          const items = out[0];
          expect(JSON.stringify(items)).not.toContain(sb.demoKey);
          const invalid = items.filter((it) => it.json.code === 'invalid_input');
          if (invalid.length) {
            seen.rejected++;
            expect(counter.requests).toBe(0);
            const m = String(invalid[0].json.error);
            const named = [
              ...fields,
              ...extraNames,
              ...options.extraParameters.parameter.map((p) => p.name.trim()),
            ].some((n) => n && (m.startsWith(`${n} `) || m.startsWith(`${n}:`)));
            if (!named) throw new Error(`message names no field: ${m}`);
          }
          for (const it of items) expect(it.json.code).not.toBe('internal_error');
        },
      ),
      { numRuns: PER_OPERATION, seed: 9, endOnFailure: true },
    );
  });
});
