/**
 * What the "New Account Change" runtime suites share (runtime-change*.test.ts): a simulated week of
 * the moving sandbox with steps placed by its control, polled by Zapier's poller through the lambda
 * handler, and what must hold of it: each Zap emits one item per crossing the steps make (the first
 * check after each step), none for the account left to drift; the connection is billed the checks
 * its "Check at most every N minutes" allowed × its accounts × the price the trigger's description
 * states; the API key is in no cache key, value or log line. Two suites, so jest runs them side by
 * side: a week is 672 polls a Zap.
 */
import { app } from './support';
import type { Connection } from './zapier-server/lambda';
import type { ZapSpec } from './zapier-server/poller';
import { Zap, simulate } from './zapier-server/poller';
import type { World } from './zapier-server/world';
import { leaked } from './zapier-server/world';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** "Check at most every 360 minutes": four checks a day. */
const EVERY = 360;
const ACCOUNTS = ['nasa', 'natgeo', 'nike'];
export const TRIGGER = 'new_account_change';
const BALANCE = 100_000;

/** The price per account and check that the trigger's description gives for the lookup named. */
export function describedPrice(endpoint: string): number {
  const description: string = (app.triggers as Record<string, any>)[TRIGGER].display.description;
  const m = new RegExp(`\\(${endpoint.replace(/\//g, '\\/')}\\): (\\d+) credits?`).exec(description);
  if (!m) throw new Error(`no price for ${endpoint} in "${description}"`);
  return Number(m[1]);
}

/** The checks the setting allows: one in each period of `every` minutes holding a poll (the turn-on's included). */
function periodsPolled(zaps: Zap[], start: number, minutes: number, every: number): number {
  const periods = new Set<number>([Math.floor(start / (every * MIN))]);
  for (let m = 1; m <= minutes; m++)
    if (zaps.some((z) => z.dueAt(m))) periods.add(Math.floor((start + m * MIN) / (every * MIN)));
  return periods.size;
}

type ZapOf = Omit<ZapSpec, 'trigger' | 'inputData' | 'interval' | 'connection'>;

/**
 * A week of one connection's Zaps (Zapier's longest interval, 15 minutes) on "followers down 5%
 * since the previous check" of three accounts: nasa falls, recovers (no crossing of "down") and
 * falls again; natgeo falls once; nike drifts. Returns the Zaps after the checks above.
 */
export async function week(w: World, zaps: ZapOf[]): Promise<Zap[]> {
  const key = w.sandbox.createKey(BALANCE);
  const connection: Connection = { id: 'conn', user: 'user', authData: { apiKey: key, baseUrl: w.sandbox.url } };
  const inputData = {
    accounts: ACCOUNTS.join(', '),
    measure: 'followers',
    comparison: 'down',
    threshold: '5',
    baseline: 'previous',
    every_minutes: String(EVERY),
  };
  const all = zaps.map((z) => new Zap({ ...z, trigger: TRIGGER, inputData, interval: 15, connection }, w.run));
  const t0 = w.start;
  const steps = [
    { handle: 'nasa', change: -0.1, at: t0 + DAY + 3 * HOUR },
    { handle: 'nasa', change: 0.15, at: t0 + 2 * DAY + HOUR },
    { handle: 'nasa', change: -0.08, at: t0 + 4 * DAY + 7 * HOUR },
    { handle: 'natgeo', change: -0.2, at: t0 + 5 * DAY + 13 * HOUR },
  ];
  for (const s of steps) w.sandbox.step({ ...s, measure: 'followers' });
  const crossing = steps.filter((s) => s.change <= -0.05);

  for (const zap of all) await zap.turnOn();
  expect(all.map((z) => z.seen.size)).toEqual(all.map(() => 0)); // the populating poll returns nothing
  const minutes = 7 * 24 * 60;
  await simulate(all, [w.sandbox], t0, minutes);

  for (const zap of all) {
    const items = zap.items as { account: string; checked_at: string; before: number; after: number }[];
    expect([zap.spec.id, items.map((i) => i.account)]).toEqual([zap.spec.id, crossing.map((s) => s.handle)]);
    expect(new Set(zap.emitted).size).toBe(zap.emitted.length);
    items.forEach((item, i) => {
      // the first check after its step (within one period), and the fall it made, drift aside
      const at = Date.parse(item.checked_at);
      expect(at).toBeGreaterThan(crossing[i].at);
      expect(at).toBeLessThanOrEqual(crossing[i].at + EVERY * MIN);
      expect(item.after / item.before).toBeCloseTo(1 + crossing[i].change, 1);
    });
  }
  const checks = periodsPolled(all, t0, minutes, EVERY);
  expect(checks).toBe(7 * 4 + 1);
  const watches = all.some((z) => z.spec.sendsZapId) ? all.length : 1;
  expect(BALANCE - w.sandbox.balance(key)).toBe(watches * checks * ACCOUNTS.length * describedPrice('profile'));
  expect(leaked(w.server, key)).toEqual([]);
  return all;
}
