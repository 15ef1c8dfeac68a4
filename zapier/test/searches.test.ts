/**
 * Every search and the connection, through Zapier's own tester (zapier-platform-core's
 * createAppTester) on the built integration, with real HTTP to the sandbox.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { documentedEndpoints } from '@igdata/core';
import type { Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../../test/support/clock';
import { app, sandbox, slowFront, tester, type Tester } from './support';

let sb: Sandbox;
let authData: { apiKey: string; baseUrl: string };
let t: Tester;
beforeAll(async () => {
  ({ sb, authData } = await sandbox());
  t = tester();
});
afterAll(() => sb.close());

const keyOf = (id: string) => id.replace(/[^a-zA-Z0-9]+/g, '_');
/** A search, or a create (an endpoint whose answer the service's AI makes: src/creates.ts). */
const step = (key: string) => app.searches[key] ?? app.creates[key];
/** A step of a Zap of its own (a fresh tester: no answer kept from another test); a create's one object as a list of one. */
const run = async (key: string, inputData: Record<string, unknown>, auth = authData): Promise<any[]> => {
  const got = await tester()(step(key).operation.perform, { authData: auth, inputData, meta: {} } as any);
  return Array.isArray(got) ? got : [got];
};

test('every registry endpoint is a search (a create when the AI makes its answer) with its parameters as fields and its price in the help', () => {
  expect(Object.keys(app.searches).sort()).toEqual(
    documentedEndpoints
      .filter((e) => !e.makes)
      .map((e) => keyOf(e.id))
      .sort(),
  );
  expect(Object.keys(app.creates).sort()).toEqual(
    documentedEndpoints
      .filter((e) => e.makes)
      .map((e) => keyOf(e.id))
      .sort(),
  );
  for (const e of documentedEndpoints) {
    const s = step(keyOf(e.id));
    const fields = s.operation.inputFields.map((f: any) => f.key);
    expect(fields).toEqual([
      ...e.params.filter((p) => p.kind !== 'cursor').map((p) => p.name),
      ...(e.shape === 'list' ? ['limit'] : []),
    ]);
    expect(s.display.description).toMatch(/Cost: /);
    if (e.id !== 'credits')
      expect(s.display.description).toMatch(
        e.makes
          ? /stops the step with an error, and the API still charges it/
          : /nothing found, and the API still charges it/,
      );
    for (const f of s.operation.inputFields) expect(f.helpText.length).toBeGreaterThan(10);
    if (e.shape === 'list' && e.paginated)
      expect(s.operation.inputFields.at(-1).helpText).toMatch(/each costs \d+ credits?/);
    expect(Object.keys(s.operation.sample).length).toBeGreaterThan(0);
  }
});

test("every search answers its registry example in the sandbox, and the answer has the sample's fields", async () => {
  for (const e of documentedEndpoints) {
    const input: Record<string, unknown> = {};
    for (const p of e.params.filter((p) => p.required)) input[p.name] = p.example;
    const got = await run(keyOf(e.id), { ...input, ...(e.shape === 'list' ? { limit: 3 } : {}) });
    expect(got.length).toBeGreaterThan(0);
    if (e.shape === 'list') expect(got.length).toBeLessThanOrEqual(3);
    expect(Object.keys(got[0]).sort()).toEqual(Object.keys(step(keyOf(e.id)).operation.sample).sort());
  }
});

test('input is forgiving: @handle, a profile URL and the numeric id find the same account', async () => {
  const [a] = await run('profile', { handle: '@NASA ' });
  const [b] = await run('profile', { handle: 'https://www.instagram.com/nasa/?hl=en' });
  const [c] = await run('profile', { handle: a.id });
  expect([a.username, b.username, c.username]).toEqual(['nasa', 'nasa', 'nasa']);
  const [p] = await run('post', { post: 'https://www.instagram.com/p/CmiJGWA9jpk/' });
  expect(p.shortcode).toBe('CmiJGWA9jpk');
});

test('a list reads pages until Limit: 30 followers are two pages, each charged', async () => {
  const key = await sb.createKey(100);
  const got = await run('profile_followers', { handle: 'nasa', limit: 30 }, { ...authData, apiKey: key });
  expect(got).toHaveLength(30);
  expect(new Set(got.map((u) => u.id)).size).toBe(30);
  expect(await sb.balance(key)).toBe(100 - 2 * 2);
});

test('a private or missing account is nothing found ([]), charged at its price as the help text says', async () => {
  const key = await sb.createKey(100);
  const auth = { ...authData, apiKey: key };
  const privateOne = sb.world.accounts.find((a) => a.is_private)!;
  expect(await run('profile', { handle: privateOne.username }, auth)).toEqual([]);
  expect(await run('profile_posts', { handle: 'no_such_account_zz' }, auth)).toEqual([]);
  expect(await sb.balance(key)).toBe(100 - 1 - 2);
});

test("errors are Zapier's classes with the products' sentences, saying whether it was charged", async () => {
  const fail = (p: Promise<unknown>): Promise<Error> =>
    p.then(
      () => {
        throw new Error('expected an error');
      },
      (e: Error) => e,
    );
  const wrong = await fail(run('profile', { handle: 'nasa' }, { ...authData, apiKey: 'sk_test_wrong_key_0000' }));
  expect(wrong.name).toBe('ExpiredAuthError');
  expect(wrong.message).toMatch(/^Invalid API key\. Set it in the IG Data connection .*\(Not charged\.\)/);
  const empty = await sb.createKey(0);
  const broke = await fail(run('profile', { handle: 'nasa' }, { ...authData, apiKey: empty }));
  expect(broke.name).toBe('HaltedError');
  expect(broke.message).toMatch(/^Out of credits: 0 left\. Top up to continue\. \(Not charged\.\)/);
  // The service's page for the error, on the connection's base URL: the sandbox serves it.
  const docs = /More about this error: (\S+)$/.exec(broke.message)?.[1];
  expect(docs).toBe(`${authData.baseUrl}/docs/errors#insufficient_credits`);
  expect((await fetch(docs!)).status).toBe(200);
  const refused = await fail(run('insights_profile_engagement', { handle: 'nasa', posts: 99 }));
  expect(refused.name).toBe('HaltedError');
  expect(refused.message).toMatch(/^posts must be a whole number from 1 to 50; got 99\. \(Not charged\.\)/);
  const blank = await fail(run('profile', { handle: '   ' }));
  expect(blank.name).toBe('HaltedError');
  expect(blank.message).toMatch(/\(Not charged\.\)/);
});

test('429 is a ThrottledError with the Retry-After, sent once (Zapier retries the step itself)', async () => {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '42' });
    res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Slow down' }, meta: { request_id: 'r1' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const e: any = await run('profile', { handle: 'nasa' }, { ...authData, baseUrl: url }).catch((x) => x);
    expect(e.name).toBe('ThrottledError');
    const body = JSON.parse(e.message.split('\n')[0]);
    expect(body.delay).toBe(42);
    expect(body.message).toMatch(/^Too many requests: the service asked to slow down .*\(Not charged\.\)/);
    expect(hits).toBe(1);
  } finally {
    server.close();
  }
});

test('a Retry-After given as an HTTP date is a ThrottledError delay in whole seconds from now', async () => {
  jest.useFakeTimers({ doNotFake: ['setTimeout', 'setImmediate', 'setInterval', 'nextTick', 'queueMicrotask'] });
  jest.setSystemTime(Date.parse(TEST_START));
  const at = new Date(Date.parse(TEST_START) + 90_000).toUTCString();
  const server = http.createServer((_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': at });
    res.end(JSON.stringify({ error: { code: 'rate_limited', message: 'Slow down' }, meta: { request_id: 'r2' } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const e: any = await run('profile', { handle: 'nasa' }, { ...authData, baseUrl: url }).catch((x) => x);
    expect(e.name).toBe('ThrottledError');
    expect(JSON.parse(e.message.split('\n')[0]).delay).toBe(90); // an integer, as Zapier's delay is
  } finally {
    server.close();
    jest.useRealTimers();
  }
});

test('the connection: tested with the free credits call, labelled by the key and its balance', async () => {
  const key = await sb.createKey(4210);
  const auth = { ...authData, apiKey: key };
  const tested = await t(app.authentication.test, { authData: auth } as any);
  expect(await sb.balance(key)).toBe(4210);
  const label = await t(app.authentication.connectionLabel, { authData: auth, inputData: tested } as any);
  expect(label).toBe(`Key …${key.slice(-4)}, 4,210 credits`);
  const e: any = await t(app.authentication.test, { authData: { ...auth, apiKey: 'sk_nope_1234' } } as any).catch(
    (x) => x,
  );
  expect(e.name).toBe('ExpiredAuthError');
});

test("the key is in one header of every request and in no log line (Zapier's detailed logs on)", async () => {
  const key = await sb.createKey(100);
  const lines: string[] = [];
  const spy = jest.spyOn(console, 'log').mockImplementation((...a) => void lines.push(a.join(' ')));
  process.env.LOG_TO_STDOUT = '1';
  process.env.DETAILED_LOG_TO_STDOUT = '1';
  try {
    const logged = tester();
    await logged(app.searches.profile.operation.perform, {
      authData: { ...authData, apiKey: key },
      inputData: { handle: 'nasa' },
    } as any);
    await logged(app.searches.profile.operation.perform, {
      authData: { ...authData, apiKey: key },
      inputData: { handle: 'locked_acc' },
    } as any);
  } finally {
    delete process.env.LOG_TO_STDOUT;
    delete process.env.DETAILED_LOG_TO_STDOUT;
    spy.mockRestore();
  }
  expect(lines.join('\n')).toMatch(/\/v1\/profile/); // the requests were logged
  for (const line of lines) expect(line).not.toContain(key);
  expect(await sb.balance(key)).toBe(98); // nasa and locked_acc, each 1 credit: the key reached the service
});

test("a list against a slow API answers within Zapier's 30 s: no page started after 20 s, what was read returned", async () => {
  // Each request takes 8 s of the integration's clock (jest's, from the named instant).
  jest.useFakeTimers({ doNotFake: ['setTimeout', 'setImmediate', 'setInterval', 'nextTick', 'queueMicrotask'] });
  const start = Date.parse(TEST_START);
  jest.setSystemTime(start);
  const slow = await slowFront(sb, 8_000);
  try {
    const key = await sb.createKey(100);
    const url = slow.url;
    // An account whose whole follower list is served: 200 followers are 8 pages of 25, 64 s at 8 s
    // a page, twice Zapier's limit
    const account = sb.world.accounts.find((a) => !a.is_private && !a.capped && a.followers >= 200)!;
    const got = await run('profile_followers', { handle: account.username, limit: 200 }, { apiKey: key, baseUrl: url });
    const elapsed = Date.now() - start;
    expect(elapsed).toBeLessThan(30_000); // Zapier's limit for a search step
    expect(elapsed).toBe(3 * 8_000); // pages started at 0, 8 and 16 s; none at 24 s
    expect(got).toHaveLength(75);
    expect(new Set(got.map((u) => u.id)).size).toBe(75);
    expect(await sb.balance(key)).toBe(100 - 3 * 2); // the 3 pages returned, no page paid and lost
  } finally {
    slow.close();
    jest.useRealTimers();
  }
});
