/**
 * What n8n users read on the IG Data node, by the standards of n8n's built-in nodes: the canvas
 * subtitle names the operation (evaluated by n8n-workflow's own expression engine), descriptions
 * state the cost in a phrase, one spelling (US, as n8n), the credential says where keys are made,
 * and the credit cap applies by default (the built node, executed in-process against the sandbox).
 */
import { join } from 'node:path';
import type {
  IExecuteFunctions,
  INodeExecutionData,
  INodeProperties,
  INodePropertyOptions,
  INodeType,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { documentedEndpoints as endpoints } from '@igdata/core';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';

const dist = join(__dirname, '..', '..', 'n8n-node', 'dist');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { IgData } = require(join(dist, 'nodes/IgData/IgData.node.js'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { IgDataApi } = require(join(dist, 'credentials/IgDataApi.credentials.js'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { IgDataTrigger } = require(join(dist, 'nodes/IgData/IgDataTrigger.node.js'));
const node: INodeType = new IgData();
const props = node.description.properties as INodeProperties[];
const operations = props.filter((p) => p.name === 'operation').flatMap((p) => p.options as INodePropertyOptions[]);

test('the canvas subtitle is the operation name and resource, not the API path', () => {
  const types = { getByNameAndVersion: () => node, getByName: () => node, getKnownTypes: () => ({}) };
  for (const e of endpoints) {
    const n = {
      id: '1',
      name: 'IG Data',
      type: 'n8n-nodes-igdata.igData',
      typeVersion: 1,
      position: [0, 0] as [number, number],
      parameters: { operation: e.id },
    };
    const wf = new Workflow({ nodes: [n], connections: {}, active: false, nodeTypes: types as never });
    expect(wf.expression.getSimpleParameterValue(n, node.description.subtitle as string, 'internal', {})).toBe(
      `${e.operation}: ${e.resource}`,
    );
  }
});

test('every operation description ends with its cost as a phrase', () => {
  for (const op of operations) {
    const d = String(op.description);
    expect([
      op.value,
      /Cost: (free \(no credits\)|about \d+ credits?( per page)? \(the API does not document this price\)|\d+ credits?( per page)?|\d+-\d+ credits, depending on [a-z ]+)\.$/.test(
        d,
      ),
    ]).toEqual([op.value, true]);
    expect(d).not.toMatch(/by (posts|sample|window) credits|page credits|credits? per page\.\s.*credits? per page/);
  }
  const engagement = operations.find((o) => o.value === 'insights/profile/engagement')!;
  expect(engagement.description).toMatch(/Cost: 2-6 credits, depending on how many posts are analyzed\.$/);
});

test('one spelling, US, in everything the node and the credential show', () => {
  const text = JSON.stringify([node.description, new IgDataTrigger().description, new IgDataApi().properties]);
  expect(
    text.match(/\b(analys(e|ed|ing)|summaris\w*|colour\w*|personalis\w*|normalis\w*|organis\w*|behaviour\w*)\b/gi),
  ).toBeNull();
  expect(text).toMatch(/Analyze/);
});

test('the credential says where keys are made', () => {
  const key = (new IgDataApi().properties as INodeProperties[]).find((p) => p.name === 'apiKey')!;
  expect(key.description).toMatch(/dashboard at <a href="https:\/\/igdata\.dev"/);
});

describe('the credit cap applies by default', () => {
  const capOption = (props.find((p) => p.name === 'options')!.options as INodeProperties[]).find(
    (o) => o.name === 'creditCap',
  )!;
  test('the option shows its default of 1,000 and says 0 removes it', () => {
    expect(capOption.default).toBe(1000);
    expect(capOption.description).toMatch(/Without this option the cap is 1,000; 0 removes it/);
  });

  // 200 unknown accounts at engagement over 50 posts: 6 credits each (a 404 costs the full price), 1,200 in all.
  async function run(options: Record<string, unknown>) {
    const sandbox = await startSandbox({ startAt: TEST_START, port: 0, quiet: true });
    const handles = Array.from({ length: 200 }, (_, i) => `nobody_here_${i}`);
    const params = (i: number): Record<string, unknown> => ({
      operation: 'insights/profile/engagement',
      resource: 'profileInsight',
      handle: handles[i],
      posts: 50,
      options,
    });
    const ctx = {
      getInputData: () => handles.map(() => ({ json: {} })),
      getNodeParameter: (name: string, i: number, dflt?: unknown) => params(i)[name] ?? dflt,
      getCredentials: async () => ({ apiKey: sandbox.demoKey, baseUrl: sandbox.url }),
      getNode: () => ({ name: 'IG Data', type: 'n8n-nodes-igdata.igData' }),
      continueOnFail: () => true,
      // n8n's per-execution context store (the credit cap of the execution lives there): one execution per call here.
      getContext: () => ({}),
      addExecutionHints: () => undefined,
      helpers: {
        // As n8n does for the credential's `authenticate`: the key goes on as one header.
        httpRequestWithAuthentication: async (
          _credential: string,
          o: { url: string; method: string; headers: Record<string, string> },
        ) => {
          const res = await fetch(o.url, {
            method: o.method,
            headers: { ...o.headers, authorization: `Bearer ${sandbox.demoKey}` },
          });
          const headers: Record<string, string> = {};
          res.headers.forEach((v, k) => (headers[k] = v));
          return { statusCode: res.status, headers, body: await res.text() };
        },
      },
    } as unknown as IExecuteFunctions;
    try {
      const [out] = (await node.execute!.call(ctx)) as INodeExecutionData[][];
      const spent = 1_000_000 - sandbox.balance(sandbox.demoKey);
      return { out: out.map((o) => o.json), spent };
    } finally {
      await sandbox.close();
    }
  }

  test('without the option, an execution over 1,000 credits is refused before any request and says how to raise the cap', async () => {
    const { out, spent } = await run({});
    expect(spent).toBe(0);
    expect(out.every((j) => j.code === 'credit_cap')).toBe(true);
    expect(out[0].error).toBe(
      'Not started: 200 distinct lookups would cost ~1,200 credits, over the credit cap of 1,000. Raise Options > Credit Cap to at least 1,200 (0 for no cap). ' +
        'Nothing was sent. (Not charged.)',
    );
  });

  test('Credit Cap 0 removes it', async () => {
    const { out, spent } = await run({ creditCap: 0 });
    expect(spent).toBe(1200);
    expect(out.filter((j) => /Credit cap/.test(String(j.error)))).toEqual([]);
  });
});
