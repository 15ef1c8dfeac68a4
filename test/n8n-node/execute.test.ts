/**
 * What an execution that is refused or stops part-way hands to n8n (the node's execute(), in-process
 * against the sandbox, with the context n8n gives a node): with Continue On Fail off, a refusal
 * fails the execution before any request, and a run stopped part-way outputs every paid answer,
 * leaves out the items not looked up and says so in a warning hint and in `_notice` on the last
 * item; with it on, every such item is an error item. The same in real n8n: n8n-real.test.ts.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, NodeExecutionHint } from 'n8n-workflow';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { IgData } from '../../n8n-node/nodes/IgData/IgData.node';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
});
afterAll(async () => sb?.close());
beforeEach(() => sb.resetStats());

interface Setup {
  /** One input item per value, each the node's main field (`handle` or `post`). */
  inputs: string[];
  parameters: Record<string, unknown>;
  key: string;
  continueOnFail: boolean;
  /** Called as the n-th answer comes back: another consumer of the same key. */
  after?: (answers: number) => void;
}

/** Runs the node as n8n does; the key goes on as one header, as n8n does for the credential. */
async function execute(setup: Setup) {
  const hints: NodeExecutionHint[] = [];
  let answers = 0;
  const ctx = {
    getInputData: () => setup.inputs.map(() => ({ json: {} })),
    getNodeParameter: (name: string, i: number, dflt?: unknown) => ({ ...setup.parameters, ...fieldOf(setup, i) })[name] ?? dflt,
    getCredentials: async () => ({ apiKey: setup.key, baseUrl: sb.url, authHeader: 'bearer' }),
    getNode: () => ({ name: 'IG Data', type: 'n8n-nodes-igdata.igData', parameters: setup.parameters }),
    continueOnFail: () => setup.continueOnFail,
    addExecutionHints: (...h: NodeExecutionHint[]) => hints.push(...h),
    helpers: {
      httpRequestWithAuthentication: async (_credential: string, o: { url: string; method: string; headers: Record<string, string> }) => {
        const res = await fetch(o.url, { method: o.method, headers: { ...o.headers, authorization: `Bearer ${setup.key}` } });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        const body = await res.text();
        setup.after?.(++answers);
        return { statusCode: res.status, headers, body };
      },
    },
  } as unknown as IExecuteFunctions;
  const [out] = (await new IgData().execute.call(ctx)) as INodeExecutionData[][];
  return { out, hints };
}

function fieldOf(setup: Setup, i: number): Record<string, unknown> {
  return setup.parameters.operation === 'post' ? { post: setup.inputs[i] } : { handle: setup.inputs[i] };
}

const lookups = { resource: 'profile', operation: 'profile', options: {} };
const someone = (n: number) => Array.from({ length: n }, (_, i) => `someone_${i}`);
const posts = (n: number) => [...sb.world.postsByShortcode.keys()].slice(0, n);
const postLookups = { resource: 'post', operation: 'post', options: { concurrency: 1 } };

const REFUSED_1500 =
  'Not started: 1,500 distinct lookups would cost ~1,500 credits, over the credit cap of 1,000. Raise Options > Credit Cap to at least 1,500 (0 for no cap), ' +
  'or split the input into batches of 1,000 items or fewer (e.g. with Loop Over Items). Nothing was sent. (Not charged.)';
const STOPPED_300 =
  'Stopped after 300 of 500 lookups: your credit balance is empty. 300 credits spent; 300 items delivered, 200 not looked up. Top up, then run again for the items not looked up.';

describe('Continue On Fail off', () => {
  test('1,500 lookups at the default cap: the execution fails with the refusal, nothing sent', async () => {
    const run = execute({ inputs: someone(1500), parameters: lookups, key: sb.demoKey, continueOnFail: false });
    await expect(run).rejects.toMatchObject({ name: 'NodeOperationError', message: REFUSED_1500 });
    // Not even the free balance read (also none still on its way).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(sb.stats()).toMatchObject({ total: 0, creditsBilled: 0 });
  });

  test('a balance that runs out mid-run: the 300 paid answers are output, the 200 not looked up are left out, a warning and _notice say so', async () => {
    const key = sb.createKey(1000);
    const shortcodes = posts(500);
    const { out, hints } = await execute({ inputs: shortcodes, parameters: postLookups, key, continueOnFail: false, after: (n) => n === 301 && sb.setBalance(key, 0) });
    expect(sb.stats().creditsBilled).toBe(300);
    expect(out.map((o) => o.json.shortcode)).toEqual(shortcodes.slice(0, 300));
    expect(out.map((o) => o.pairedItem)).toEqual(shortcodes.slice(0, 300).map((_, item) => ({ item })));
    expect(out.at(-1)!.json._notice).toBe(STOPPED_300);
    expect(out.slice(0, -1).some((o) => '_notice' in o.json)).toBe(false);
    expect(hints).toEqual([{ message: STOPPED_300, type: 'warning', location: 'outputPane' }]);
    expect(JSON.stringify([out, hints])).not.toContain(key);
  });

  test('a stop before any answer fails the execution with the stop itself: nothing paid is lost', async () => {
    const broke = sb.createKey(0);
    const run = execute({ inputs: posts(3), parameters: postLookups, key: broke, continueOnFail: false });
    await expect(run).rejects.toMatchObject({ message: 'Out of credits: 0 left. Top up to continue. (Not charged.)', httpCode: '402' });
    expect(sb.stats()).toMatchObject({ total: 1, creditsBilled: 0 });
  });
});

describe('Continue On Fail on', () => {
  test('a refused execution: every item is an error item with the refusal, nothing sent', async () => {
    const key = sb.createKey(300);
    const { out } = await execute({ inputs: someone(500), parameters: lookups, key, continueOnFail: true });
    expect(sb.stats()).toMatchObject({ total: 1, byEndpoint: { credits: 1 }, creditsBilled: 0 });
    expect(out).toHaveLength(500);
    for (const [item, o] of out.entries()) {
      expect(o.pairedItem).toEqual({ item });
      expect(o.json).toMatchObject({ code: 'insufficient_credits', credits_charged: 0 });
    }
    expect(out[0].json.error).toMatch(/^Not started: 500 distinct lookups would cost ~500 credits and your balance is 300 credits\. /);
  });

  test('a balance that runs out mid-run: the items not looked up are error items saying how far the run got', async () => {
    const key = sb.createKey(1000);
    const shortcodes = posts(500);
    const { out, hints } = await execute({ inputs: shortcodes, parameters: postLookups, key, continueOnFail: true, after: (n) => n === 301 && sb.setBalance(key, 0) });
    expect(out).toHaveLength(500);
    expect(out.slice(0, 300).map((o) => o.json.shortcode)).toEqual(shortcodes.slice(0, 300));
    for (const o of out.slice(300)) {
      expect(o.json as IDataObject).toEqual({ error: `Not looked up. ${STOPPED_300} (Not charged.)`, code: 'insufficient_credits', credits_charged: 0 });
    }
    expect(out.some((o) => '_notice' in o.json)).toBe(false); // the error items say it
    expect(hints).toEqual([{ message: STOPPED_300, type: 'warning', location: 'outputPane' }]);
  });
});
