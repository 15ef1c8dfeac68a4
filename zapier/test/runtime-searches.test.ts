/**
 * The searches run as Zapier's servers run them (zapier/test/zapier-server: the lambda handler,
 * z.cache kept by scope over RPC): an answer kept for a replay serves only the connection that
 * paid for it, with its key and base URL as they were; a search run outside a Zap (no meta.zap: MCP,
 * AI Actions, the SDK) included, and a Zap whose connection moved from a sandbox to production.
 */
import type { Sandbox } from '../../scripts/sandbox/server';
import type { Connection } from './zapier-server/lambda';
import type { World } from './zapier-server/world';
import { leaked, startWorld } from './zapier-server/world';

const FIND_PROFILE = 'searches.profile.operation.perform';
const SEC = 1000;

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

const requests = async (sb: Sandbox) => (await sb.stats()).total;
const later = (ms: number) => jest.setSystemTime(Date.now() + ms);
const connection = (id: string, user: string, sb: Sandbox, apiKey: string): Connection => ({
  id,
  user,
  authData: { apiKey, baseUrl: sb.url },
});
const failure = (p: Promise<unknown>): Promise<Error> =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e: Error) => e,
  );

test("a search of one connection never answers another's: each asks its own API, each pays its own", async () => {
  const keyA = await w.sandbox.createKey(100);
  const keyB = await w.production.createKey(100);
  const a = connection('conn-a', 'user-a', w.sandbox, keyA);
  const b = connection('conn-b', 'user-b', w.production, keyB);
  const before = [await requests(w.sandbox), await requests(w.production)];
  const [fromA] = await w.run(FIND_PROFILE, a, { inputData: { handle: 'nasa' }, meta: {} });
  later(20 * SEC);
  const [fromB] = await w.run(FIND_PROFILE, b, { inputData: { handle: 'nasa' }, meta: {} });
  expect([fromA.username, fromB.username]).toEqual(['nasa', 'nasa']);
  expect([await requests(w.sandbox), await requests(w.production)]).toEqual([before[0] + 1, before[1] + 1]);
  expect([await w.sandbox.balance(keyA), await w.production.balance(keyB)]).toEqual([99, 99]);
  // A's replay within the hour is A's kept answer: not asked, not paid again.
  later(20 * SEC);
  await w.run(FIND_PROFILE, a, { inputData: { handle: '@nasa' }, meta: {} });
  expect(await requests(w.sandbox)).toBe(before[0] + 1);
  expect(await w.sandbox.balance(keyA)).toBe(99);
  // A revoked key on the same API is an expired connection, not A's answer.
  const revoked = await w.sandbox.createKey(100);
  w.sandbox.revokeKey(revoked);
  const c = connection('conn-c', 'user-c', w.sandbox, revoked);
  expect((await failure(w.run(FIND_PROFILE, c, { inputData: { handle: 'nasa' }, meta: {} }))).name).toBe(
    'ExpiredAuthError',
  );
  for (const key of [keyA, keyB, revoked]) expect(leaked(w.server, key)).toEqual([]);
});

test('a Zap whose connection is edited from a sandbox to production is answered by production; another key starts fresh too', async () => {
  const sandboxKey = await w.sandbox.createKey(100);
  const productionKey = await w.production.createKey(100);
  const conn = connection('conn-s', 'user-s', w.sandbox, sandboxKey);
  const step = { inputData: { handle: 'nasa' }, meta: { zap: { id: 'zapS' } } };
  const before = [await requests(w.sandbox), await requests(w.production)];
  await w.run(FIND_PROFILE, conn, step);
  expect(await w.sandbox.balance(sandboxKey)).toBe(99);
  // The user edits the connection (same connection, same Zap): production's key and base URL.
  later(60 * SEC);
  conn.authData = { apiKey: productionKey, baseUrl: w.production.url };
  await w.run(FIND_PROFILE, conn, step);
  expect([await requests(w.sandbox), await requests(w.production)]).toEqual([before[0] + 1, before[1] + 1]);
  expect(await w.production.balance(productionKey)).toBe(99);
  // Another key on the same base URL: asked again, paid by that key.
  const otherKey = await w.production.createKey(100);
  conn.authData = { ...conn.authData, apiKey: otherKey };
  await w.run(FIND_PROFILE, conn, step);
  expect(await w.production.balance(otherKey)).toBe(99);
  for (const key of [sandboxKey, productionKey, otherKey]) expect(leaked(w.server, key)).toEqual([]);
});

test('a replayed step (same Zap, same input, within the hour) is not paid again; the balance is never kept', async () => {
  const key = await w.sandbox.createKey(100);
  const conn = connection('conn-r', 'user-r', w.sandbox, key);
  const step = (method: string, inputData: object) =>
    w.run(`searches.${method}.operation.perform`, conn, { inputData, meta: { zap: { id: 'replayed' } } });
  const first = await step('insights_profile_engagement', { handle: 'nasa' });
  later(10 * 60 * SEC);
  const again = await step('insights_profile_engagement', { handle: '@nasa' });
  expect(again).toEqual(first);
  expect(await w.sandbox.balance(key)).toBe(98); // 2 credits once
  await step('credits', {});
  await step('credits', {});
  expect((await step('credits', {}))[0].credits_remaining).toBe(98);
  expect((await w.sandbox.stats()).byRequest['credits?']).toBeGreaterThanOrEqual(3);
  // Past the hour Zapier's TTL has dropped it: asked and paid again.
  later(61 * 60 * SEC);
  await step('insights_profile_engagement', { handle: 'nasa' });
  expect(await w.sandbox.balance(key)).toBe(96);
});
