/**
 * The trigger's "Account Changed" event (nodes/IgData/change-poll.ts) over a simulated week of the
 * moving sandbox, n8n polling every 15 minutes (its Poll Times) and the node set to check at most
 * every 6 hours: it fires once per crossing the sandbox's steps make, never on the drift of the
 * others, and the credits billed are what its description says for the checks that setting allows.
 * In-process with n8n's clock simulated (change-kit.ts); n8n-account-changed.test.ts runs the same
 * event in real n8n.
 */
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { IgDataTrigger } from '../../n8n-node/nodes/IgData/IgDataTrigger.node';
import { moveTo, poll, type Watch } from './change-kit';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.parse(TEST_START);

let sb: Sandbox;
beforeEach(async () => {
  sb = await startSandbox({ startAt: TEST_START, seed: 42 });
  jest.useFakeTimers({ doNotFake: ['setTimeout', 'setImmediate', 'setInterval', 'nextTick', 'queueMicrotask'] });
  jest.setSystemTime(T0);
});
afterEach(async () => {
  jest.useRealTimers();
  await sb.close();
});

/** The price the event's description gives per account and check, for the lookup named. */
function describedPrice(endpoint: string): number {
  const event = new IgDataTrigger().description.properties.find((p) => p.name === 'event')!;
  const change = event.options!.find((o) => 'value' in o && o.value === 'change') as { description: string };
  const m = new RegExp(`\\(${endpoint.replace(/\//g, '\\/')}\\): (\\d+) credits?`).exec(change.description);
  if (!m) throw new Error(`no price for ${endpoint} in "${change.description}"`);
  return Number(m[1]);
}

/** Polls every 15 minutes for a week; returns what fired and how many checks were made. */
async function week(w: Watch) {
  const fired: Record<string, unknown>[] = [];
  const checks = new Set<number>();
  sb.resetStats();
  for (let t = T0; t <= T0 + 7 * DAY; t += 15 * MIN) {
    moveTo(sb, t);
    const before = sb.stats().total;
    fired.push(...(await poll(w)));
    if (sb.stats().total > before) checks.add(t);
  }
  return { fired, checks: [...checks], stats: sb.stats() };
}

test('followers down 5% since the previous check: one item per step, none for drift or a step under the threshold; billed = checks x accounts x the described price', async () => {
  const key = sb.createKey(100_000);
  const steps = [
    { handle: 'nasa', change: -0.1, at: T0 + DAY + 3 * HOUR },
    { handle: 'nasa', change: 0.15, at: T0 + 2 * DAY },
    { handle: 'nike', change: -0.03, at: T0 + 3 * DAY },
    { handle: 'nasa', change: -0.08, at: T0 + 4 * DAY + 7 * HOUR },
    { handle: 'natgeo', change: -0.2, at: T0 + 5 * DAY + 13 * HOUR },
  ];
  for (const s of steps) sb.step({ ...s, measure: 'followers' });
  const w: Watch = {
    sb,
    key,
    staticData: {},
    parameters: {
      event: 'change',
      accounts: 'nasa, natgeo\n@nike, bbcnews',
      measure: 'followers',
      comparison: 'down',
      threshold: 5,
      baseline: 'previous',
      checkEvery: 6,
      checkEveryUnit: 'hours',
    },
  };
  const { fired, checks, stats } = await week(w);

  // one check in each 6-hour period of the clock: the first poll, then the first poll of each period
  const periods = new Set<number>();
  for (let t = T0; t <= T0 + 7 * DAY; t += 15 * MIN) periods.add(Math.floor(t / (6 * HOUR)));
  expect(checks.length).toBe(periods.size);
  expect(checks.length).toBeLessThanOrEqual(4 * 7 + 1);
  expect(stats.creditsBilled).toBe(checks.length * 4 * describedPrice('profile'));
  expect(stats.byEndpoint.profile).toBe(checks.length * 4);

  // each crossing fires at the first check after its step, with before, after and the change
  const firstCheckAfter = (at: number) => checks.find((t) => t >= at)!;
  expect(fired.map((f) => [f.account, f.checked_at])).toEqual(
    [steps[0], steps[3], steps[4]].map((s) => [s.handle, new Date(firstCheckAfter(s.at)).toISOString()]),
  );
  for (const [f, s] of fired.map((f, i) => [f, [steps[0], steps[3], steps[4]][i]] as const)) {
    expect(f.rule).toBe('followers down 5% since the previous check');
    expect(f.change).toBe((f.after as number) - (f.before as number));
    // the step, give or take the drift of six hours
    expect(f.change_pct as number).toBeCloseTo(s.change * 100, 0);
    expect(Date.parse(f.checked_at as string) - Date.parse(f.before_at as string)).toBe(6 * HOUR);
  }
  // the state is the rule's words, the last check, and a small state per account
  const state = w.staticData.change as {
    rule: string;
    checkedAt: number;
    state: { accounts: Record<string, unknown> };
  };
  expect(state.rule).toBe('followers down 5% since the previous check');
  expect(Object.keys(state.state.accounts)).toEqual(['nasa', 'natgeo', 'nike', 'bbcnews']);
  expect(JSON.stringify(state).length).toBeLessThan(600);
});

test('engagement rate under 1%: fires at each fall under it, again only after it rose back; the drifting account never', async () => {
  const key = sb.createKey(100_000);
  const steps = [
    { handle: 'veganfoodie', change: -0.95, at: T0 + 1.5 * DAY },
    { handle: 'veganfoodie', change: 19, at: T0 + 3 * DAY },
    { handle: 'veganfoodie', change: -0.95, at: T0 + 5 * DAY },
    { handle: 'plantbasedpaula', change: -0.95, at: T0 + 2 * DAY + 1 },
  ];
  for (const s of steps) sb.step({ ...s, measure: 'engagement' });
  const w: Watch = {
    sb,
    key,
    staticData: {},
    parameters: {
      event: 'change',
      accounts: 'veganfoodie, plantbasedpaula, small.cafe',
      measure: 'engagement_rate',
      comparison: 'under',
      threshold: 1,
      checkEvery: 6,
      checkEveryUnit: 'hours',
    },
  };
  const { fired, checks, stats } = await week(w);
  const firstCheckAfter = (at: number) => new Date(checks.find((t) => t >= at)!).toISOString();
  expect(fired.map((f) => [f.account, f.checked_at])).toEqual([
    ['veganfoodie', firstCheckAfter(steps[0].at)],
    ['plantbasedpaula', firstCheckAfter(steps[3].at)],
    ['veganfoodie', firstCheckAfter(steps[2].at)],
  ]);
  for (const f of fired) {
    expect(f.rule).toBe('engagement rate under 1%');
    expect(f.after as number).toBeLessThan(1);
    expect(f.before as number).toBeGreaterThan(1);
  }
  const price = describedPrice('insights/profile/engagement');
  expect(price).toBeGreaterThan(1);
  expect(stats.creditsBilled).toBe(checks.length * 3 * price);
});

test('a manual run ("Fetch Test Event") shows the current values and leaves the state alone; bad fields are refused with a sentence', async () => {
  const key = sb.createKey(1000);
  const w: Watch = {
    sb,
    key,
    staticData: {},
    mode: 'manual',
    parameters: { event: 'change', accounts: 'nasa, natgeo', measure: 'followers', comparison: 'down', threshold: 5 },
  };
  const sample = await poll(w);
  expect(sample.map((s) => [s.account, s.after])).toEqual([
    ['nasa', sb.world.byUsername.get('nasa')!.followers],
    ['natgeo', sb.world.byUsername.get('natgeo')!.followers],
  ]);
  expect(sample[0]).toMatchObject({ rule: 'followers down 5% since the previous check', before: null });
  expect(w.staticData).toEqual({});

  await expect(poll({ ...w, mode: 'trigger', parameters: { ...w.parameters, accounts: ' , ' } })).rejects.toThrow(
    /Accounts is empty: give the handles to watch/,
  );
  await expect(poll({ ...w, mode: 'trigger', parameters: { ...w.parameters, threshold: 0 } })).rejects.toThrow(
    /The change must be over 0 %/,
  );
  await expect(
    poll({ ...w, mode: 'trigger', parameters: { ...w.parameters, baseline: 'days', days: 0 } }),
  ).rejects.toThrow(/a number of days from 1 to 365/);
  // a poll within the period of the last check sends nothing
  const t: Watch = { ...w, mode: 'trigger', parameters: { ...w.parameters, checkEvery: 1, checkEveryUnit: 'hours' } };
  sb.resetStats();
  await poll(t);
  moveTo(sb, T0 + 59 * MIN);
  await poll(t);
  expect(sb.stats().total).toBe(2);
  moveTo(sb, T0 + 61 * MIN);
  await poll(t);
  expect(sb.stats().total).toBe(4);
});
