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
  /** Per item, what overrides `parameters` (as an expression evaluated per item would). */
  perItem?: (i: number) => Record<string, unknown>;
  /**
   * The execution's context store (n8n's `getContext`): pass the same object to several calls for
   * several runs of the node in one execution (Loop Over Items, an agent's tool calls).
   */
  execution?: Record<string, Record<string, unknown>>;
  /** Rewrites an answer's body on its way back, as a proxy between n8n and the service would. */
  tamper?: (url: string, body: string) => string;
  /** The node's type: `n8n-nodes-igdata.igDataTool` is the node as an AI agent's tool. */
  type?: string;
}

/** Runs the node as n8n does; the key goes on as one header, as n8n does for the credential. */
async function execute(setup: Setup) {
  const hints: NodeExecutionHint[] = [];
  let answers = 0;
  const ctx = {
    getInputData: () => setup.inputs.map(() => ({ json: {} })),
    getNodeParameter: (name: string, i: number, dflt?: unknown) =>
      ({ ...setup.parameters, ...fieldOf(setup, i), ...setup.perItem?.(i) })[name] ?? dflt,
    getContext: (type: string) => ((setup.execution ??= {})[type === 'node' ? 'node:IG Data' : type] ??= {}),
    getCredentials: async () => ({ apiKey: setup.key, baseUrl: sb.url }),
    getNode: () => ({ name: 'IG Data', type: setup.type ?? 'n8n-nodes-igdata.igData', parameters: setup.parameters }),
    continueOnFail: () => setup.continueOnFail,
    addExecutionHints: (...h: NodeExecutionHint[]) => hints.push(...h),
    helpers: {
      httpRequestWithAuthentication: async (
        _credential: string,
        o: { url: string; method: string; headers: Record<string, string> },
      ) => {
        const res = await fetch(o.url, {
          method: o.method,
          headers: { ...o.headers, authorization: `Bearer ${setup.key}` },
        });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        const text = await res.text();
        const body = setup.tamper ? setup.tamper(o.url, text) : text;
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
  'Not started: 1,500 distinct lookups would cost ~1,500 credits, over the credit cap of 1,000. Raise Options > Credit Cap to at least 1,500 (0 for no cap). ' +
  'Nothing was sent. (Not charged.)';
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
    const { out, hints } = await execute({
      inputs: shortcodes,
      parameters: postLookups,
      key,
      continueOnFail: false,
      after: (n) => n === 301 && sb.setBalance(key, 0),
    });
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
    await expect(run).rejects.toMatchObject({
      message: 'Out of credits: 0 left. Top up to continue. (Not charged.)',
      httpCode: '402',
    });
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
    expect(out[0].json.error).toMatch(
      /^Not started: 500 distinct lookups would cost ~500 credits and your balance is 300 credits\. /,
    );
  });

  test('a balance that runs out mid-run: the items not looked up are error items saying how far the run got', async () => {
    const key = sb.createKey(1000);
    const shortcodes = posts(500);
    const { out, hints } = await execute({
      inputs: shortcodes,
      parameters: postLookups,
      key,
      continueOnFail: true,
      after: (n) => n === 301 && sb.setBalance(key, 0),
    });
    expect(out).toHaveLength(500);
    expect(out.slice(0, 300).map((o) => o.json.shortcode)).toEqual(shortcodes.slice(0, 300));
    for (const o of out.slice(300)) {
      expect(o.json as IDataObject).toEqual({
        error: `Not looked up. ${STOPPED_300} (Not charged.)`,
        code: 'insufficient_credits',
        credits_charged: 0,
      });
    }
    expect(out.some((o) => '_notice' in o.json)).toBe(false); // the error items say it
    expect(hints).toEqual([{ message: STOPPED_300, type: 'warning', location: 'outputPane' }]);
  });
});

const privateAccount = () => [...sb.world.byUsername.values()].find((a) => a.is_private)!.username;
const publicAccounts = (n: number) =>
  [...sb.world.byUsername.values()]
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, n);

describe('one bad item spoils nothing (issue 23)', () => {
  test('an invalid item stops the execution before the first request, naming the item and the field: 0 credits', async () => {
    const handles = publicAccounts(100);
    handles[37] = '   ';
    const run = execute({ inputs: handles, parameters: lookups, key: sb.demoKey, continueOnFail: false });
    await expect(run).rejects.toMatchObject({
      name: 'NodeOperationError',
      message:
        'Item 37 of 100: handle must be a username, @username, numeric id or profile URL; got an empty value. (Not charged.)',
      context: { itemIndex: 37 },
    });
    expect(sb.stats()).toMatchObject({ total: 0, creditsBilled: 0 });
  });

  test('with Continue On Fail the invalid item is an error item and the other 99 are looked up', async () => {
    const handles = publicAccounts(100);
    handles[37] = '';
    const { out } = await execute({ inputs: handles, parameters: lookups, key: sb.demoKey, continueOnFail: true });
    expect(out).toHaveLength(100);
    expect(out[37].json).toMatchObject({ code: 'invalid_input', credits_charged: 0 });
    expect(sb.stats().creditsBilled).toBe(99);
  });

  test('a private account among 40, no Continue On Fail: the 39 paid answers and a found: false item for it, 40 credits', async () => {
    const handles = publicAccounts(39);
    handles.splice(17, 0, privateAccount());
    const { out, hints } = await execute({
      inputs: handles,
      parameters: lookups,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(sb.stats().creditsBilled).toBe(40);
    expect(out).toHaveLength(40);
    expect(out.map((o) => o.pairedItem)).toEqual(handles.map((_, item) => ({ item })));
    expect(out.filter((_, i) => i !== 17).map((o) => o.json.username)).toEqual(handles.filter((_, i) => i !== 17));
    expect(out[17].json).toEqual({
      found: false,
      handle: handles[17],
      message: `@${handles[17]} has no public data: private, deleted or nonexistent. (Charged 1 credit.)`,
      code: 'not_found',
      http_status: 404,
      credits_charged: 1,
      request_id: expect.any(String),
    });
    expect(hints).toEqual([]);
  });

  test('On Not Found: Skip leaves it out and says so; Error fails the execution', async () => {
    const handles = [...publicAccounts(3), privateAccount()];
    const skip = { ...lookups, options: { onNotFound: 'skip' } };
    const { out, hints } = await execute({ inputs: handles, parameters: skip, key: sb.demoKey, continueOnFail: false });
    expect(out.map((o) => o.json.username)).toEqual(handles.slice(0, 3));
    const said = `Item 3 skipped (Options > On Not Found): @${handles[3]} has no public data: private, deleted or nonexistent. (Charged 1 credit.)`;
    expect(out[2].json._notice).toBe(said);
    expect(hints.map((h) => h.message)).toEqual([said]);
    const error = { ...lookups, options: { onNotFound: 'error' } };
    await expect(
      execute({ inputs: handles, parameters: error, key: sb.demoKey, continueOnFail: false }),
    ).rejects.toMatchObject({ httpCode: '404', context: { itemIndex: 3 } });
  });

  test('duplicates of a private account are charged once: the sum of credits_charged is the bill', async () => {
    const who = privateAccount();
    const { out } = await execute({
      inputs: [who, `@${who}`, publicAccounts(1)[0]],
      parameters: lookups,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out.map((o) => o.json.credits_charged ?? 1)).toEqual([1, 0, 1]);
    expect(out[1].json).toMatchObject({ found: false, deduplicated: true });
    expect(sb.stats().creditsBilled).toBe(2);
    // The item served the first one's answer says it was free, and keeps the first charge under its own name.
    const what = `@${who} has no public data: private, deleted or nonexistent.`;
    expect(out[0].json).toMatchObject({ message: `${what} (Charged 1 credit.)`, credits_charged: 1 });
    expect(out[0].json).not.toHaveProperty('credits_charged_first');
    expect(out[1].json).toMatchObject({
      message: `${what} (Charged 1 credit when first looked up; free now.)`,
      credits_charged: 0,
      credits_charged_first: 1,
    });
  });

  test('duplicates with Include Meta: the answer served again has credits_charged 0 and credits_charged_first; with Continue On Fail a repeated billed error item too', async () => {
    const [pub] = publicAccounts(1);
    const meta = { ...lookups, options: { includeMeta: true } };
    const { out } = await execute({
      inputs: [pub, `@${pub}`],
      parameters: meta,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out[0].json.meta).toMatchObject({ credits_charged: 1 });
    expect(out[0].json.meta).not.toHaveProperty('credits_charged_first');
    expect(out[1].json.meta).toMatchObject({ credits_charged: 0, credits_charged_first: 1, deduplicated: true });
    const who = privateAccount();
    const asError = { ...lookups, options: { onNotFound: 'error' } };
    const failed = await execute({ inputs: [who, who], parameters: asError, key: sb.demoKey, continueOnFail: true });
    expect(failed.out.map((o) => [o.json.credits_charged, o.json.credits_charged_first])).toEqual([
      [1, undefined],
      [0, 1],
    ]);
    expect(failed.out[1].json.error).toMatch(/\(Charged 1 credit when first looked up; free now\.\)$/);
    expect(sb.stats().creditsBilled).toBe(2);
  });

  test('an item that fails after its retries (502, not charged) comes out as its own item that says so, paired; the paid answers come out', async () => {
    const handles = publicAccounts(4);
    const perItem = (i: number) =>
      i === 2 ? { options: { extraParameters: { parameter: [{ name: 'sandbox_fault', value: '502' }] } } } : {};
    const { out, hints } = await execute({
      inputs: handles,
      parameters: lookups,
      perItem,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
    expect(out.map((o) => o.json.username)).toEqual([handles[0], handles[1], undefined, handles[3]]);
    const said = 'The data provider failed after 3 tries. Try again later. (Not charged.)';
    expect(out[2].json).toEqual({
      delivered: false,
      handle: handles[2],
      error: said,
      code: 'upstream_error',
      http_status: 502,
      credits_charged: 0,
      request_id: expect.any(String),
    });
    expect(out.some((o) => o.json._notice)).toBe(false);
    expect(hints.map((h) => h.message)).toEqual([`Item 2 not delivered: ${said}`]);
    expect(sb.stats().creditsBilled).toBe(3);
  });

  test('an answer not in the documented shape comes out with _notice, not as a thrown error', async () => {
    const [a, b] = publicAccounts(2);
    const tamper = (url: string, body: string) =>
      url.includes(b) ? body.replace(/"followers":\d+/, '"followers":"many"') : body;
    const { out } = await execute({
      inputs: [a, b],
      parameters: lookups,
      tamper,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out).toHaveLength(2);
    expect(out[1].json).toMatchObject({ username: b, followers: 'many' });
    expect(out[1].json._notice).toMatch(
      /^The service answered in an unexpected shape \(data\.followers: .*\)\. Please report it with request id .*\. \(Charged 1 credit\.\)$/,
    );
  });
});

describe('one credit cap per execution (issue 23)', () => {
  const capped = { ...lookups, options: { creditCap: 150 } };
  const batches = [0, 1, 2].map((b) => someone(300).slice(b * 100, b * 100 + 100));

  test('Loop Over Items: runs of 100 distinct lookups under a Credit Cap of 150 spend at most 150; the run over it is refused and says where it stopped', async () => {
    const execution = {};
    const first = await execute({
      inputs: batches[0],
      parameters: capped,
      key: sb.demoKey,
      continueOnFail: false,
      execution,
    });
    expect(first.out).toHaveLength(100);
    const second = execute({
      inputs: batches[1],
      parameters: capped,
      key: sb.demoKey,
      continueOnFail: false,
      execution,
    });
    await expect(second).rejects.toMatchObject({
      name: 'NodeOperationError',
      message:
        "Not started at this node's run 2: 100 distinct lookups would cost ~100 credits, and 1 earlier run of this node in this execution spent 100 credits of its credit cap of 150. " +
        'Raise Options > Credit Cap to at least 200 (0 for no cap). Nothing was sent. (Not charged.)',
    });
    expect(sb.stats().creditsBilled).toBe(100);
    // Another execution has its own cap.
    const other = await execute({
      inputs: batches[1],
      parameters: capped,
      key: sb.demoKey,
      continueOnFail: false,
      execution: {},
    });
    expect(other.out).toHaveLength(100);
    expect(sb.stats().creditsBilled).toBe(200);
  });

  test('a Return All in a later run only gets what earlier runs left of the cap', async () => {
    const execution = {};
    await execute({
      inputs: batches[0].slice(0, 40),
      parameters: { ...lookups, options: { creditCap: 50 } },
      key: sb.demoKey,
      continueOnFail: false,
      execution,
    });
    const all = { resource: 'hashtag', operation: 'hashtag/recent', returnAll: true, options: { creditCap: 50 } };
    const { out } = await execute({
      inputs: ['veganrecipes'],
      parameters: { ...all, tag: 'veganrecipes' },
      key: sb.demoKey,
      continueOnFail: false,
      execution,
    });
    expect(sb.stats().byEndpoint['hashtag/recent']).toBe(10);
    expect(sb.stats().creditsBilled).toBe(50);
    expect(out.at(-1)!.json._notice).toMatch(/^Stopped at the credit cap of 50 \(50 spent/);
  });

  test('items that disagree on Credit Cap or Concurrency are refused before anything is sent, naming the item', async () => {
    const perItem = (i: number) => ({ options: { creditCap: i === 4 ? 500 : 150 } });
    await expect(
      execute({ inputs: batches[0].slice(0, 10), parameters: lookups, perItem, key: sb.demoKey, continueOnFail: true }),
    ).rejects.toMatchObject({
      message:
        'Options > Credit Cap must be the same for every input item: it holds for the whole execution. Item 0 has 150, item 4 has 500. Set one value (not an expression that differs by item). Nothing was sent. (Not charged.)',
      context: { itemIndex: 4 },
    });
    const fast = (i: number) => ({ options: { concurrency: i === 2 ? 5 : 50 } });
    await expect(
      execute({
        inputs: batches[0].slice(0, 10),
        parameters: lookups,
        perItem: fast,
        key: sb.demoKey,
        continueOnFail: false,
      }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(
        /^Options > Concurrency must be the same for every input item: .* Item 0 has 50, item 2 has 5\./,
      ),
    });
    expect(sb.stats().total).toBe(0);
  });
});

test('a 429 storm: the inputs whose lookups ran out of tries come out as their own items, paired, saying so (issue 33)', async () => {
  // One request a second, the refusals' Retry-After 0: the three retried at once meet it three times.
  sb.setFaults({ rateLimitPerSecond: 1, retryAfterSeconds: 0 });
  try {
    const handles = publicAccounts(4);
    const { out, hints } = await execute({
      inputs: handles,
      parameters: lookups,
      key: sb.demoKey,
      continueOnFail: false,
    });
    expect(out.map((o) => o.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
    const refused = out.filter((o) => o.json.delivered === false);
    expect(refused).toHaveLength(3);
    for (const o of refused)
      expect(o.json).toMatchObject({
        code: 'rate_limited',
        http_status: 429,
        credits_charged: 0,
        error: expect.stringMatching(
          /^Too many requests: the service asked to slow down \(3 tries\)\. .*\(Not charged\.\)$/,
        ),
      });
    expect(refused.map((o) => o.json.handle).sort()).toEqual(
      handles.filter((h) => !out.some((o) => o.json.username === h)).sort(),
    );
    expect(hints).toHaveLength(3);
    expect(sb.stats()).toMatchObject({ creditsBilled: 1, byStatus: { 200: 1, 429: 9 } });
  } finally {
    sb.setFaults({ rateLimitPerSecond: 0, retryAfterSeconds: 1 });
  }
});

describe("as an AI agent's tool (the igDataTool type; end to end in real n8n: n8n-agent.test.ts)", () => {
  const tool = 'n8n-nodes-igdata.igDataTool';
  test("a cap refusal, an input error and an empty balance are the tool's answer, with Continue On Fail's sentences and codes; earlier calls' answers stand", async () => {
    const execution = {};
    const call = (handle: string, key = sb.demoKey) =>
      execute({
        inputs: [handle],
        parameters: { ...lookups, options: { creditCap: 1 } },
        key,
        continueOnFail: false,
        execution,
        type: tool,
      });
    expect((await call('nasa')).out.map((o) => o.json.username)).toEqual(['nasa']);
    const refused = await call('natgeo');
    expect(refused.out.map((o) => o.json)).toEqual([
      {
        error:
          "Not started at this node's run 2: 1 distinct lookup would cost ~1 credit, and 1 earlier run of this node in this execution spent 1 credit of its credit cap of 1. " +
          'Raise Options > Credit Cap to at least 2 (0 for no cap). Nothing was sent. (Not charged.)',
        code: 'credit_cap',
        credits_charged: 0,
      },
    ]);
    expect((await call('')).out.map((o) => o.json)).toEqual([
      {
        error: 'handle must be a username, @username, numeric id or profile URL; got an empty value. (Not charged.)',
        code: 'invalid_input',
        credits_charged: 0,
      },
    ]);
    const empty = await execute({
      inputs: ['nasa'],
      parameters: lookups,
      key: sb.createKey(0),
      continueOnFail: false,
      type: tool,
    });
    expect(empty.out.map((o) => o.json)).toEqual([
      expect.objectContaining({
        error: 'Out of credits: 0 left. Top up to continue. (Not charged.)',
        credits_charged: 0,
      }),
    ]);
    expect(sb.stats().creditsBilled).toBe(1);
  });

  test('the same calls on the plain node (igData) still fail the execution', async () => {
    await expect(
      execute({ inputs: [''], parameters: lookups, key: sb.demoKey, continueOnFail: false }),
    ).rejects.toMatchObject({ name: 'NodeOperationError' });
  });
});

describe("n8n's Retry On Fail: the node run again with all its items (end to end: n8n-rules.test.ts)", () => {
  test('a run that throws after it was paid (On Not Found: Error) is not paid again by its retries; other calls are', async () => {
    const execution = {};
    const setup = {
      inputs: ['nasa', 'locked_acc'],
      parameters: { ...lookups, options: { onNotFound: 'error' } },
      key: sb.demoKey,
      continueOnFail: false,
      execution,
    };
    for (let attempt = 0; attempt < 3; attempt++)
      await expect(execute(setup)).rejects.toMatchObject({
        message: expect.stringMatching(/locked_acc has no public data/),
      });
    expect(sb.stats().creditsBilled).toBe(2);
    // A run of other calls in the same execution is looked up (and paid) as ever.
    const other = await execute({ ...setup, inputs: ['natgeo'] });
    expect(other.out.map((o) => o.json.username)).toEqual(['natgeo']);
    expect(sb.stats().creditsBilled).toBe(3);
  });
});
