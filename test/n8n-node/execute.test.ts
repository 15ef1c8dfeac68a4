/**
 * What an execution that is refused or stops part-way hands to n8n (the node's execute(), in-process
 * against the sandbox, with the context n8n gives a node): with Continue On Fail off, a refusal
 * fails the execution before any request, and a run stopped part-way outputs every paid answer,
 * leaves out the items not looked up and says so in a warning hint and in `_notice` on the last
 * item; with it on, every such item is an error item. The same in real n8n: n8n-real.test.ts.
 * One bad item: execute-items.test.ts; the node as an AI agent's tool: execute-tool.test.ts.
 */
import type { IDataObject } from 'n8n-workflow';
import {
  REFUSED_1500,
  STOPPED_300,
  execute,
  lookups,
  posts,
  postLookups,
  publicAccounts,
  sb,
  someone,
  useSandbox,
} from './execute-kit';

useSandbox();

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
      // Under the message, n8n shows the service's page for the error, on the Base URL's origin.
      description: `More about this error: ${sb.url}/docs/errors#insufficient_credits`,
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
        message: expect.stringMatching(/locked_acc is private: no public data/),
      });
    expect(sb.stats().creditsBilled).toBe(2);
    // A run of other calls in the same execution is looked up (and paid) as ever.
    const other = await execute({ ...setup, inputs: ['natgeo'] });
    expect(other.out.map((o) => o.json.username)).toEqual(['natgeo']);
    expect(sb.stats().creditsBilled).toBe(3);
  });
});
