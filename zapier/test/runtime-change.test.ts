/**
 * The "New Account Change" trigger (src/change.ts) run as Zapier's servers run it (zapier-server:
 * the lambda handler, z.cache by scope over RPC, Zapier's poller with its populating poll and
 * per-Zap deduplication), with meta.zap: a Zap's own watch over a simulated week (change-week.ts),
 * and the first check of a rule already true. runtime-change-shared.test.ts: without meta.zap.
 */
import type { Connection } from './zapier-server/lambda';
import { Zap, simulate } from './zapier-server/poller';
import type { World } from './zapier-server/world';
import { smallRss, startWorld } from './zapier-server/world';
import { TRIGGER, describedPrice, week } from './change-week';

let w: World;
beforeAll(smallRss);
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

test('with meta.zap, a simulated week of steps: one item per crossing; billed = checks allowed x accounts x the described price', async () => {
  await week(w, [{ id: 'zap-a', sendsZapId: true, offset: 2 }]);
}, 600_000);

test('a rule already true at the first check fires once, at the first poll after the populating one, with and without meta.zap', async () => {
  const key = w.sandbox.createKey(1000);
  const c: Connection = { id: 'conn-c', user: 'user-c', authData: { apiKey: key, baseUrl: w.sandbox.url } };
  const inputData = {
    accounts: 'nasa, nike',
    measure: 'followers',
    comparison: 'over',
    threshold: '0',
    every_minutes: '60',
  };
  const zaps = [true, false].map(
    (sendsZapId) =>
      new Zap({ trigger: TRIGGER, inputData, interval: 15, id: `zap-${sendsZapId}`, connection: c, sendsZapId }, w.run),
  );
  for (const zap of zaps) await zap.turnOn();
  expect(zaps.map((z) => z.seen.size)).toEqual([0, 0]);
  await simulate(zaps, [w.sandbox], w.start, 3 * 60);
  for (const zap of zaps) {
    expect((zap.items as { account: string }[]).map((i) => i.account)).toEqual(['nasa', 'nike']);
    expect(zap.items.every((i) => i.before === null && i.change === null)).toBe(true);
  }
  // Two watches (the Zap's own, the connection's), each checked at turn-on and in each of the 3 hours after.
  expect(1000 - w.sandbox.balance(key)).toBe(2 * 4 * 2 * describedPrice('profile'));
});

test('Test trigger (isLoadingSample): each account as a first check shows it, cut to the limit; nothing kept', async () => {
  const key = w.sandbox.createKey(1000);
  const c: Connection = { id: 'conn-s', user: 'user-s', authData: { apiKey: key, baseUrl: w.sandbox.url } };
  const inputData = { accounts: 'nasa, natgeo, nike', measure: 'followers', comparison: 'down', threshold: '5' };
  const items = await w.run(`triggers.${TRIGGER}.operation.perform`, c, {
    inputData,
    meta: { isLoadingSample: true, limit: 2 },
  });
  expect(items.map((i: { account: string }) => i.account)).toEqual(['nasa', 'natgeo']);
  for (const i of items)
    expect([typeof i.after, i.before, i.rule]).toEqual(['number', null, 'followers down 5% since the previous check']);
  const price = describedPrice('profile');
  expect(1000 - w.sandbox.balance(key)).toBe(3 * price);
  // Nothing kept: turning a Zap on then makes the first check.
  await new Zap(
    { trigger: TRIGGER, inputData, interval: 15, id: 'z', connection: c, sendsZapId: true },
    w.run,
  ).turnOn();
  expect(1000 - w.sandbox.balance(key)).toBe(2 * 3 * price);
});
