/**
 * The action node's engine in-process against the real sandbox (over HTTP on a local port):
 * de-duplication, bounded concurrency, paging, the execution-wide credit cap, errors.
 * The same engine runs inside real n8n in n8n-real.test.ts.
 */
import { fetchIO, isCreditCapError, prepare } from '@igdata/core';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import type { ItemCall, ItemResult } from '../../n8n-node/nodes/IgData/engine';
import { runItemCalls } from '../../n8n-node/nodes/IgData/engine';
import { failureMessage } from '../../n8n-node/nodes/IgData/output';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, seed: 42 });
});
afterAll(async () => sb?.close());
beforeEach(() => {
  sb.setFaults({ latencyMs: 0 });
  sb.resetStats();
});

const config = () => ({ apiKey: sb.demoKey, baseUrl: sb.url });
const job = (endpoint: string, input: Record<string, unknown>, extra: Partial<ItemCall> = {}): ItemCall => ({ call: prepare(endpoint, input), returnAll: false, ...extra });
const ok = (o: ItemResult | undefined) => {
  if (!o || !o.ok) throw new Error(`expected success, got ${JSON.stringify(o)}`);
  return o;
};

test('identical requests are sent once and fanned out; never more in flight than the concurrency', async () => {
  sb.setFaults({ latencyMs: 30 });
  const names = [...sb.world.byUsername.values()].filter((a) => !a.is_private).map((a) => a.username).slice(0, 40);
  // 100 items over 40 accounts, written the ways users write them (@name, URL, case).
  const inputs = Array.from({ length: 100 }, (_, i) => {
    const n = names[i % 40];
    return i % 3 === 0 ? `@${n}` : i % 3 === 1 ? `https://www.instagram.com/${n}/` : n.toUpperCase();
  });
  const jobs = inputs.map((handle) => job('profile', { handle }));
  const t0 = Date.now();
  const out = await runItemCalls(config(), jobs, fetchIO(), { concurrency: 8 });
  const ms = Date.now() - t0;
  const stats = sb.stats();
  expect(stats.byEndpoint.profile).toBe(40);
  expect(stats.creditsBilled).toBe(40);
  expect(stats.maxInFlight).toBeLessThanOrEqual(8);
  expect(stats.maxInFlight).toBeGreaterThanOrEqual(4); // it does run in parallel
  expect(ms).toBeLessThan(40 * 30); // faster than one at a time
  out.forEach((o, i) => {
    const r = ok(o);
    expect(r.items[0].username).toBe(names[i % 40]);
    if (i < 40) expect(r.meta).toMatchObject({ credits_charged: 1 });
    else expect(r.meta).toMatchObject({ credits_charged: 0, deduplicated: true });
  });
  // The sum of credits_charged over items is what was billed.
  expect(out.reduce((n, o) => n + ok(o).meta.credits_charged, 0)).toBe(stats.creditsBilled);
});

test('Return All follows next_cursor to the end; Limit stops mid-list', async () => {
  const [all, limited] = await runItemCalls(
    config(),
    [job('hashtag/recent', { tag: '#VeganRecipes' }, { returnAll: true }), job('hashtag/recent', { tag: 'veganrecipes' }, { limit: 45 })],
    fetchIO(),
    { concurrency: 5 },
  );
  const a = ok(all);
  expect(a.items.length).toBeGreaterThanOrEqual(2500);
  expect(new Set(a.items.map((p) => p.id)).size).toBe(a.items.length);
  expect(a.meta.stopped_by).toBe('end');
  expect(a.meta.pages).toBe(Math.ceil(a.items.length / 30));
  expect(a.notice).toBeUndefined();
  const l = ok(limited);
  expect(l.items.map((p) => p.id)).toEqual(a.items.slice(0, 45).map((p) => p.id));
  expect(l.meta).toMatchObject({ pages: 2, stopped_by: 'items', credits_charged: 2 });
  expect(sb.stats().byEndpoint['hashtag/recent']).toBe(a.meta.pages! + 2);
});

test('the credit cap counts across items and pages, stops before exceeding and says so', async () => {
  const jobs = [
    job('insights/profile/engagement', { handle: 'nasa' }), // ~2
    job('hashtag/recent', { tag: 'veganrecipes' }, { returnAll: true }), // 1 per page
    job('profile', { handle: 'natgeo' }),
  ];
  const [eng, list, prof] = await runItemCalls(config(), jobs, fetchIO(), { concurrency: 1, creditCap: 12 });
  expect(ok(eng).meta.credits_charged).toBe(2);
  const l = ok(list);
  expect(l.meta.stopped_by).toBe('credits');
  expect(l.notice).toMatch(/credit cap of 12/);
  expect(sb.stats().creditsBilled).toBeLessThanOrEqual(12);
  // With concurrency 1 the jobs start in input order: the list takes what the engagement left,
  // minus the 1 the profile lookup reserved.
  expect(prof && prof.ok).toBe(true);
  expect(l.meta.pages).toBe(12 - 2 - 1);
  expect(l.items.length).toBe(9 * 30);
  expect(sb.stats().creditsBilled).toBe(12);

  sb.resetStats();
  const five = ['nasa', 'natgeo', 'nike', 'starbucks', 'bbcnews'].map((handle) => job('profile', { handle }));
  const capped = await runItemCalls(config(), five, fetchIO(), { concurrency: 5, creditCap: 3 });
  expect(capped.filter((o) => o?.ok)).toHaveLength(3);
  const stops = capped.filter((o) => o && !o.ok).map((o) => (o as { error: unknown }).error);
  expect(stops).toHaveLength(2);
  for (const s of stops) {
    expect(isCreditCapError(s)).toBe(true);
    if (isCreditCapError(s)) expect(failureMessage(s)).toMatch(/^Credit cap of 3 reached: .*\(Not charged\.\)$/);
  }
  expect(sb.stats().creditsBilled).toBe(3);
  expect(sb.stats().total).toBe(3);
});

test('a credit-cap error states what the execution really spent, also when the spend was still in flight', async () => {
  // Issue 8: Credit Cap 37 on 100 lookups said "0 credits spent" while 37 were spent: the 63
  // refusals happened while the 37 paid requests were still in flight.
  sb.setFaults({ latencyMs: 20 });
  const names = [...sb.world.byUsername.values()].filter((a) => !a.is_private).map((a) => a.username).slice(0, 100);
  expect(names).toHaveLength(100);
  const out = await runItemCalls(config(), names.map((handle) => job('profile', { handle })), fetchIO(), { concurrency: 50, creditCap: 37 });
  expect(sb.stats().creditsBilled).toBe(37);
  const stops = out.filter((o) => o && !o.ok).map((o) => (o as { error: unknown }).error);
  expect(stops).toHaveLength(63);
  for (const s of stops) {
    expect(isCreditCapError(s) && s.spent).toBe(37);
    expect(failureMessage(s as never)).toBe(
      'Credit cap of 37 reached: 37 credits spent in this execution and this request costs ~1. Raise Options > Credit Cap to continue. (Not charged.)',
    );
  }
});

test('failures stay with their item: 404 is billed and says so, others succeed', async () => {
  const [bad, good] = await runItemCalls(config(), [job('profile', { handle: 'no_such_account_zz' }), job('profile', { handle: 'nasa' })], fetchIO(), { concurrency: 2 });
  expect(good?.ok).toBe(true);
  expect(bad?.ok).toBe(false);
  const err = (bad as { error: { name: string; code?: string; charged?: number } }).error;
  expect(err.name).toBe('IgApiError');
  expect(err.code).toBe('not_found');
  expect(err.charged).toBe(1);
});

test('an invalid key fails every item without retries and never echoes the key', async () => {
  const out = await runItemCalls({ apiKey: 'sk_wrong_key_123456', baseUrl: sb.url }, [job('profile', { handle: 'nasa' })], fetchIO(), { concurrency: 1 });
  const err = (out[0] as { error: Error & { code?: string } }).error;
  expect(err.code).toBe('invalid_api_key');
  expect(JSON.stringify(out)).not.toContain('sk_wrong_key_123456');
  expect(sb.stats().total).toBe(1);
});
