/**
 * Alerts on a tracker (issue 40) with the *built* add-on in the Apps Script stand-in against the
 * sandbox, whose world moves with its clock: a daily tracker of 20 accounts over four weeks, run by
 * the hourly trigger (rt.advance), two rules, and steps in followers placed in advance by the
 * sandbox's control. Each crossing alerts exactly once, in the one email of its run (the stand-in's
 * MailApp), and is marked in the tracker's sheet; accounts left to drift never alert (their drift
 * never falls 5% in a week: scripts/sandbox/FORMULAS.md); runs without a step send nothing; the
 * day's email quota is never passed, and when it is met the marks stay and the sidebar says why.
 */
import { checkCost, parseRule } from '@igdata/core';
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { getWorld } from '../../scripts/sandbox/world/build';
import { addonRuntime, sandboxedAddon } from './harness';

const HOUR = 3600000;
const DAY = 24 * HOUR;
const env = sandboxedAddon();
const runtimes: GasRuntime[] = [];
afterAll(async () => {
  for (const rt of runtimes) await rt.close();
});

/**
 * A runtime whose clock starts at the sandbox's world time (the world does not go back between the
 * file's tests, and steps are placed at it or later), and that instant.
 */
async function runtimeAtWorld(): Promise<{ rt: GasRuntime; t0: number }> {
  const { world } = (await (await fetch(`${env.sandbox.url}/_sandbox/clock`)).json()) as { world: string };
  const rt = addonRuntime(env.sandbox.url, { startAt: world });
  runtimes.push(rt);
  return { rt, t0: Date.parse(world) };
}
const daily = { every: 'daily', hour: 7 };
/** 20 public seeded accounts of the sandbox's world (seed 42) of more than 100 followers. */
const ACCOUNTS = [...getWorld(42).byUsername.values()]
  .filter((a) => !a.is_private && a.followers > 100)
  .slice(0, 20)
  .map((a) => a.username);
const [A, B, C, D, E] = ACCOUNTS;
const R1 = 'followers down 5% since the previous run';
const R2 = 'followers down 8% over 7 days';

function trackerOf(rt: GasRuntime, handles: string[]) {
  const sheet = rt.spreadsheet.sheet('Sheet1');
  sheet.setValues('A1', [['account'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  rt.call('igSidebarState'); // installs the hourly trigger
  const { tracker } = rt.call('igTrackerCreate', { fields: 'followers', ...daily, cap: 100, name: 'Creators' });
  let r = rt.call('igTrackerStep', tracker.id);
  while (!r.done) r = rt.call('igTrackerStep', tracker.id);
  return tracker as { id: string; view: string; parts: { history: string }[] };
}

/** The world moved to the tracker's next run, then the hourly trigger past it: that run is done. */
async function nextRun(rt: GasRuntime, t0: number): Promise<number> {
  const next = Math.min(
    ...(JSON.parse(rt.properties.document.get('IGDATA_SCHEDULES') as string) as { nextAt: number }[]).map(
      (s) => s.nextAt,
    ),
  );
  rt.advance(next - rt.now() - 60_000);
  await fetch(`${env.sandbox.url}/_sandbox/clock?to=${new Date(next).toISOString()}`, { method: 'POST' });
  rt.advance(HOUR + 120_000);
  return Math.round((next - t0) / DAY);
}

/** The tracker sheet's "alerts" column, by account (blank ones left out). */
function marks(rt: GasRuntime, view: string): Record<string, string> {
  const [header, ...rows] = rt.spreadsheet.sheet(view).getValues();
  const col = header.indexOf('alerts');
  if (col < 0) return {};
  return Object.fromEntries(rows.filter((r) => r[col] !== '').map((r) => [String(r[0]), String(r[col])]));
}

/** The latest two followers of `account` in the history sheet: what the API answered at the last two runs. */
function lastTwo(rt: GasRuntime, history: string, account: string): [number, number] {
  const rows = rt.spreadsheet
    .sheet(history)
    .getValues()
    .filter((r) => r[1] === account);
  return [rows[rows.length - 2][2] as number, rows[rows.length - 1][2] as number];
}

test('four weeks, 20 accounts, two rules, 10 steps on 5 accounts (some back and forth): one alert per crossing in one email per run, none for the accounts left to drift, none on runs without a step', async () => {
  const { rt, t0 } = await runtimeAtWorld();
  const tracker = trackerOf(rt, ACCOUNTS);
  const ops = 'ops@example.com';
  const lead = 'lead@example.com';
  expect(rt.call('igAlertAdd', tracker.id, parseRule(R1), ops).rules.map((r: { words: string }) => r.words)).toEqual([
    R1,
  ]);
  const view = rt.call('igAlertAdd', tracker.id, parseRule(R2), `${ops}; ${lead}`);
  expect(view.rules).toEqual([
    { id: expect.any(String), words: R1, emails: [ops] },
    { id: expect.any(String), words: R2, emails: [ops, lead] },
  ]);
  // Steps at 19:00 of a day (between two daily runs at 07:00): [account, day, change].
  const steps: [string, number, number][] = [
    [A, 2, -0.2],
    [A, 14, -0.2],
    [B, 4, -0.2], // back and forth: down, up, down, up
    [B, 6, 0.25],
    [B, 8, -0.2],
    [B, 10, 0.25],
    [C, 9, -0.2],
    [D, 5, 0.25], // a rise alerts nobody; the fall back is a fall
    [D, 13, -0.2],
    [E, 21, -0.2],
  ];
  for (const [handle, day, change] of steps)
    await env.sandbox.step({
      handle,
      measure: 'followers',
      change,
      at: new Date(t0 + day * DAY + 9 * HOUR).toISOString(),
    });
  // The runs (by day) whose email names each account: a fall fires both rules at the run after it
  // (R2 goes off once its 7-day baseline passes the step, or a rise undoes it, and fires again after).
  // Runs start a few ms apart from day to day, so R2's baseline is the run 7 or 8 days before: no step
  // falls between those two runs of a fall that should fire (D falls 8 days after its rise, not 7).
  const expected: Record<number, string[]> = { 3: [A], 5: [B], 9: [B], 10: [C], 14: [D], 15: [A], 22: [E] };
  const history = tracker.parts[0].history;
  let emails = 0;
  for (let run = 1; run <= 28; run++) {
    const day = await nextRun(rt, t0);
    expect(day).toBe(run);
    const sent = rt.mail.sent.slice(emails);
    emails = rt.mail.sent.length;
    const firing = expected[day] ?? [];
    // One email per run with a firing, none otherwise.
    expect(sent).toHaveLength(firing.length ? 1 : 0);
    expect(Object.keys(marks(rt, tracker.view))).toEqual(firing);
    expect(rt.quotas.mailRecipients.used(rt.now())).toBeLessThanOrEqual(rt.limits.mailDailyRecipients);
    if (!firing.length) continue;
    const [account] = firing;
    const [before, after] = lastTwo(rt, history, account);
    expect(after / before).toBeLessThan(0.81); // the step, over a day's drift
    const fmt = (n: number) => n.toLocaleString('en-US');
    const change = `${fmt(before)} → ${fmt(after)} (${Math.round(((after - before) / before) * 1000) / 10}%)`;
    // R2's baseline: the latest run at least 7 days before this one (run times differ by a few ms), or
    // its first check (day 1) before the watch is that old.
    const runs = rt.spreadsheet
      .sheet(history)
      .getValues()
      .filter((r) => r[1] === account)
      .slice(1)
      .map((r) => [(r[0] as Date).getTime(), r[2] as number]);
    const [now] = runs[runs.length - 1];
    const base = [...runs].reverse().find(([t]) => t <= now - 7 * DAY)?.[1] ?? runs[0][1];
    const change2 = `${fmt(base)} → ${fmt(after)} (${Math.round(((after - base) / base) * 1000) / 10}%)`;
    expect(marks(rt, tracker.view)[account]).toBe(`${R1}: ${change}; ${R2}: ${change2}`);
    const [mail] = sent;
    expect(mail.to).toEqual([ops, lead]);
    expect(mail.subject).toBe('IG Data: 2 alerts on "Creators"');
    expect(mail.htmlBody).toBeUndefined(); // plain text: account names stay text
    const lines = mail.body.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([`- ${account}: ${R1}: ${change}`, `- ${account}: ${R2}: ${change2}`]);
    expect(mail.body).toContain(`Marked in the sheet "${tracker.view}"`);
  }
  // 14 crossings (7 falls x 2 rules) in 7 emails of 2 recipients; the 15 accounts left to drift: none.
  expect(rt.mail.sent).toHaveLength(7);
  expect(rt.mail.recipients()).toBe(14);
  const named = rt.mail.sent.flatMap((m) => m.body.split('\n').filter((l) => l.startsWith('- ')));
  expect(named).toHaveLength(14);
  for (const drifting of ACCOUNTS.slice(5)) expect(named.some((l) => l.startsWith(`- ${drifting}:`))).toBe(false);
  expect(rt.call('igAlerts', tracker.id).last).toMatchObject({ fired: 0, sent: true, mail: 'Nothing fired.' });
  // The alerts cost nothing: 20 credits a run, 29 runs.
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 20 * 29 });
  expect(rt.findSecret(env.sandbox.demoKey)).toEqual([]);
}, 300_000);

test("at Google's daily email quota the email is not sent: the marks stay, the sidebar says why; it goes again once the day frees up", async () => {
  const { rt, t0 } = await runtimeAtWorld();
  const tracker = trackerOf(rt, ACCOUNTS.slice(0, 3));
  rt.call('igAlertAdd', tracker.id, parseRule(R1), 'ops@example.com lead@example.com');
  await env.sandbox.step({
    handle: A,
    measure: 'followers',
    change: -0.2,
    at: new Date(t0 + DAY + 9 * HOUR).toISOString(),
  });
  await env.sandbox.step({
    handle: B,
    measure: 'followers',
    change: -0.2,
    at: new Date(t0 + 2 * DAY + 9 * HOUR).toISOString(),
  });
  expect(await nextRun(rt, t0)).toBe(1);
  rt.quotas.mailRecipients.add(rt.now(), 99); // the user's other scripts emailed 99 people: 1 left, 2 needed
  expect(await nextRun(rt, t0)).toBe(2);
  expect(rt.mail.sent).toHaveLength(0);
  expect(Object.keys(marks(rt, tracker.view))).toEqual([A]);
  expect(rt.call('igAlerts', tracker.id).last).toEqual({
    run: expect.any(String),
    fired: 1,
    sent: false,
    mail: "Not sent: Google's daily email quota (100 recipients for a Google account, 1,500 for Workspace) has 1 left; it needed 2.",
  });
  expect(await nextRun(rt, t0)).toBe(3); // 24 hours after the other scripts' emails: the day has room again
  expect(rt.mail.sent).toHaveLength(1);
  expect(rt.mail.sent[0].body).toContain(`- ${B}: ${R1}: `);
  expect(Object.keys(marks(rt, tracker.view))).toEqual([B]);
  expect(rt.call('igAlerts', tracker.id).last).toMatchObject({
    fired: 1,
    sent: true,
    mail: 'Sent to ops@example.com, lead@example.com.',
  });
}, 120_000);

test('a rule on a number the tracker does not fetch is refused with what fetching it would cost a run; bad addresses are named', () => {
  const rt = env.runtime();
  const tracker = trackerOf(rt, ACCOUNTS.slice(0, 3));
  const credits = checkCost(['engagement_rate'], 3);
  expect(credits).toBeGreaterThan(0);
  expect(() => rt.call('igAlertAdd', tracker.id, parseRule('engagement rate under 1%'), 'ops@example.com')).toThrow(
    `"engagement rate under 1%": this tracker does not fetch engagement rate (engagement_rate_pct); fetching it would cost ${credits} credits a run for its 3 accounts.`,
  );
  expect(() => rt.call('igAlertAdd', tracker.id, parseRule(R1), 'ops@example.com, nobody')).toThrow(
    'Email to: 1 to 10 addresses like you@example.com; "nobody" is not one.',
  );
  expect(() =>
    rt.call('igAlertAdd', tracker.id, { measure: 'followers', comparison: 'down', threshold: 5 }, 'ops@example.com'),
  ).toThrow('A rule of a change (down) needs its baseline');
  expect(rt.call('igAlerts', tracker.id).rules).toEqual([]);
  const added = rt.call('igAlertAdd', tracker.id, parseRule(R1), 'ops@example.com');
  expect(rt.call('igAlertDelete', tracker.id, added.rules[0].id).rules).toEqual([]);
  // Deleting the tracker deletes its rules.
  rt.call('igAlertAdd', tracker.id, parseRule(R1), 'ops@example.com');
  rt.call('igTrackerDelete', tracker.id);
  expect(rt.properties.document.get(`IGDATA_ALERTS:${tracker.id}`)).toBeNull();
});
