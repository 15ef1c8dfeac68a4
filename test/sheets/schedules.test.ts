/**
 * Scheduled lookups, history and background runs (issue 10, points 2, 3 and 5), with the *built*
 * add-on in the Apps Script stand-in against the sandbox. Time moves with `rt.advance`: the hourly
 * trigger the sidebar installed fires on the way, as Apps Script would, and does the runs. Credits
 * and requests are counted at the sandbox.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { sandboxedAddon } from './harness';

const HOUR = 3600000;
const DAY = 24 * HOUR;
const HISTORY = 'IG Data history IGPROFILE';
const env = sandboxedAddon();

const profile = (output: 'beside' | 'history', fields = 'followers') => ({ endpoint: 'profile', fields, output });
const weekly = { every: 'weekly', weekday: 1, hour: 7 };
const daily = { every: 'daily', hour: 7 };

/** Sheet1: a header in A1, the handles from A2, selected; the sidebar opened (the hourly trigger installed). */
function sheetWith(handles: string[]): GasRuntime {
  const rt = env.runtime();
  const sheet = rt.spreadsheet.sheet('Sheet1');
  sheet.setValues('A1', [['handle'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  rt.call('igSidebarState');
  return rt;
}

/** Moves the clock to one hour after the schedule's next run: the hourly trigger has fired by then. */
function passNextRun(rt: GasRuntime, id?: string) {
  const views = rt.call('igSchedules') as { id: string; nextAt: string }[];
  const s = id ? views.find((v) => v.id === id)! : views[0];
  rt.advance(Date.parse(s.nextAt) - rt.now() + HOUR);
}

const rowsOf = (rt: GasRuntime, name: string) => {
  const sheet = rt.spreadsheet.sheet(name);
  return sheet.getValues(`A1:C${sheet.lastRow()}`);
};

const creators = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `creator_${from + i}`);

describe('scheduled lookups', () => {
  test('the preview gives credits per run and per month; saving changes nothing billed', async () => {
    const rt = sheetWith(['nasa', 'natgeo', 'nasa', 'locked_acc', '']);
    expect(rt.call('igSchedulePreview', profile('history'), weekly, 100)).toMatchObject({
      range: 'Sheet1!A2:A6',
      targets: 3,
      creditsEach: 1,
      perRun: 3,
      uncapped: 3,
      runsPerMonth: 4.35,
      perMonth: 14,
      when: 'weekly on Monday at 07:00',
    });
    expect(rt.call('igSchedulePreview', profile('history'), daily, 2)).toMatchObject({
      perRun: 2,
      uncapped: 3,
      perMonth: 60,
      when: 'daily at 07:00',
    });
    const [s] = rt.call('igScheduleSave', profile('history'), weekly, 100);
    expect(s).toMatchObject({ when: 'weekly on Monday at 07:00', cap: 100, run: null });
    // The next run is a Monday at 07:00 (the stand-in's spreadsheet is in UTC), within a week.
    const next = new Date(s.nextAt);
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 7, 0]);
    expect(next.getTime() - rt.now()).toBeLessThanOrEqual(7 * DAY);
    expect(rowsOf(rt, HISTORY)).toEqual([['date', 'handle', 'followers']]);
    // The preview's balance is the only request (free).
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 0 });
  });

  test('bad schedule input gets a specific message and saves nothing', () => {
    const rt = sheetWith(['nasa']);
    expect(() => rt.call('igScheduleSave', profile('history'), { every: 'monthly', hour: 7 }, 10)).toThrow(
      'Repeat: choose "daily" or "weekly" (got "monthly").',
    );
    expect(() => rt.call('igScheduleSave', profile('history'), { every: 'daily', hour: 24 }, 10)).toThrow(
      'Hour: a whole number from 0 to 23 (got 24).',
    );
    expect(() => rt.call('igScheduleSave', profile('history'), daily, 0)).toThrow(
      'Credit cap per run: a whole number from 1 to 1,000,000 (got 0).',
    );
    expect(() =>
      rt.call(
        'igScheduleSave',
        { endpoint: 'insights/profile/audit', fields: 'suspected_fake_pct', output: 'history' },
        daily,
        3,
      ),
    ).toThrow(
      'Credit cap per run: at least 6, what one IGAUDIT lookup costs (got 3); a lower cap would never look anything up.',
    );
    expect(() => rt.call('igScheduleSave', profile('sheet' as never), daily, 10)).toThrow(
      /beside the column .* or to a history sheet/,
    );
    expect(() => rt.call('igScheduleSave', { endpoint: 'profile/posts', output: 'history' }, daily, 10)).toThrow(
      /returns many rows per target/,
    );
    expect(rt.call('igSchedules')).toEqual([]);
  });

  test('two weekly runs append exactly two snapshots per target, each billed once per run, and report themselves', async () => {
    const rt = sheetWith(['nasa', 'https://www.instagram.com/natgeo/', '@NASA', 'locked_acc']);
    rt.call('igScheduleSave', profile('history'), weekly, 100);
    passNextRun(rt);
    let [view] = rt.call('igSchedules');
    expect(view.run).toMatchObject({ status: 'done', written: 3, credits: 3, errors: 1, duplicates: 1 });
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 3 });
    passNextRun(rt);
    [view] = rt.call('igSchedules');
    expect(view.run).toMatchObject({ status: 'done', written: 3, credits: 3, errors: 1 });
    // The second run fetched again (a week-old answer is older than half the period).
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 6 });
    const rows = rowsOf(rt, HISTORY).slice(1);
    const byTarget = (h: string) => rows.filter((r) => r[1] === h);
    for (const h of ['nasa', 'natgeo', 'locked_acc']) expect(byTarget(h)).toHaveLength(2);
    expect(rows).toHaveLength(6);
    const dates = [...new Set(rows.map((r) => (r[0] as Date).getTime()))];
    expect(dates).toHaveLength(2);
    expect(dates[1] - dates[0]).toBeGreaterThanOrEqual(7 * DAY - HOUR);
    expect(byTarget('locked_acc')[0][2]).toMatch(/no public data/);
    expect(typeof byTarget('nasa')[0][2]).toBe('number');
    // Targets as the service reads them: the URL is natgeo, @NASA is nasa (a repeat).
    expect(new Set(rows.map((r) => r[1]))).toEqual(new Set(['nasa', 'natgeo', 'locked_acc']));
    // The usage log names the scheduled runs.
    const usage = rt.call('igUsage') as Record<string, Record<string, number>>;
    expect(
      Object.values(usage)
        .flatMap((d) => Object.entries(d))
        .filter(([k]) => k.startsWith('Scheduled run'))
        .reduce((n, [, v]) => n + v, 0),
    ).toBe(6);
  });

  test('a daily run refreshes its own columns beside the targets; a changed header stops it without writing', async () => {
    const rt = sheetWith(['nasa', 'natgeo']);
    rt.call('igScheduleSave', profile('beside', 'followers,_fetched_at'), daily, 10);
    const sheet = rt.spreadsheet.sheet('Sheet1');
    expect(sheet.getValues('B1:C1')).toEqual([['followers', '_fetched_at']]);
    passNextRun(rt);
    const first = sheet.getValues('B2:C3');
    expect(typeof first[0][0]).toBe('number');
    passNextRun(rt);
    const second = sheet.getValues('B2:C3');
    expect((second[0][1] as Date).getTime()).toBeGreaterThan((first[0][1] as Date).getTime() + 20 * HOUR);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 4 });
    sheet.set(1, 2, 'my notes');
    passNextRun(rt);
    const [view] = rt.call('igSchedules');
    expect(view.run).toMatchObject({
      status: 'paused',
      credits: 0,
      message: expect.stringContaining('no longer "followers, _fetched_at"'),
    });
    expect(sheet.getValues('B2:C3')).toEqual(second);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 4 });
  });

  test('a scheduled run reuses what a formula fetched shortly before (the freshness setting holds)', async () => {
    const rt = sheetWith(['nasa', 'natgeo']);
    const [s] = rt.call('igScheduleSave', profile('history'), daily, 10);
    rt.advance(Date.parse(s.nextAt) - rt.now() - 2 * HOUR);
    rt.run('IGPROFILE', [[['nasa']], 'followers'], { kind: 'custom', cell: 'Sheet1!D1' });
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 1 });
    passNextRun(rt);
    const [view] = rt.call('igSchedules');
    expect(view.run).toMatchObject({ status: 'done', written: 2, credits: 1, cached: 1 });
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 2 });
  });

  test('the cap stops a run before it passes it', async () => {
    const rt = sheetWith(creators(30));
    rt.call('igScheduleSave', profile('history'), daily, 20);
    passNextRun(rt);
    const [view] = rt.call('igSchedules');
    expect(view.run).toMatchObject({
      status: 'paused',
      credits: 20,
      written: 20,
      message:
        "Stopped at this run's cap of 20 credits (20 spent): 10 rows were not looked up (rows 22-31); the next run starts with them, so every row is refreshed in turn.",
    });
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 20 });
    expect(rowsOf(rt, HISTORY)).toHaveLength(21);
  });

  test('a capped schedule rotates: 60 rows at a cap of 25 are all refreshed in 3 runs, each starting where the last stopped', async () => {
    const rt = sheetWith(creators(60));
    expect(rt.call('igSchedulePreview', profile('beside'), daily, 25)).toMatchObject({
      targets: 60,
      perRun: 25,
      uncapped: 60,
      runsForAll: 3,
    });
    rt.call('igScheduleSave', profile('beside'), daily, 25);
    /** The sheet rows (2-61) whose target the sandbox was asked for since the last call. */
    let seen: Record<string, number> = {};
    const lookedUp = async () => {
      const now = (await env.sandbox.stats()).byRequest;
      const rows = creators(60).flatMap((h, i) =>
        (now[`profile?handle=${h}`] ?? 0) > (seen[`profile?handle=${h}`] ?? 0) ? [i + 2] : [],
      );
      seen = now;
      return rows;
    };
    const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
    const message = () => rt.call('igSchedules')[0].run.message as string;
    passNextRun(rt);
    await expect(lookedUp()).resolves.toEqual(range(2, 26));
    expect(message()).toBe(
      "Stopped at this run's cap of 25 credits (25 spent): 35 rows were not looked up (rows 27-61); the next run starts with them, so every row is refreshed in turn.",
    );
    passNextRun(rt);
    await expect(lookedUp()).resolves.toEqual(range(27, 51));
    expect(message()).toContain('(rows 52-61 and 2-26)');
    passNextRun(rt);
    await expect(lookedUp()).resolves.toEqual([...range(2, 16), ...range(52, 61)]); // every row within ceil(60 / 25) = 3 runs
    expect(message()).toContain('(rows 17-51)');
    passNextRun(rt);
    await expect(lookedUp()).resolves.toEqual(range(17, 41));
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 100 });
  });

  test('a capped history schedule appends each target once a run and reaches every target in turn', async () => {
    const rt = sheetWith([...creators(10), 'creator_0', ...creators(5, 10)]); // 15 targets, one repeated
    rt.call('igScheduleSave', profile('history'), daily, 6);
    for (let i = 0; i < 3; i++) passNextRun(rt);
    const rows = rowsOf(rt, HISTORY).slice(1);
    expect(rows).toHaveLength(18); // 15 targets in 3 runs of 6: the third run wraps to the top of the column
    const byRun = new Map<number, string[]>();
    for (const [date, target] of rows)
      byRun.set((date as Date).getTime(), [...(byRun.get((date as Date).getTime()) ?? []), target as string]);
    // A repeated target is written at its first row only: creator_0 once a pass, in the run that reaches row 2.
    expect([...byRun.values()]).toEqual([creators(6), creators(6, 6), [...creators(3, 12), ...creators(3)]]);
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 18 });
  });

  test('a schedule whose previous run is still going skips its turn (no second run over the same rows)', async () => {
    const rt = sheetWith(['nasa']);
    const [s] = rt.call('igScheduleSave', profile('history'), daily, 10);
    const running = { id: 'x', slot: s.id, status: 'running', next: 0, rows: 1 };
    rt.properties.document.set(`IGDATA_BULK_JOB:${s.id}`, JSON.stringify(running));
    rt.killWhen = (cap) => cap === 'urlfetch'; // the old run cannot go on: every step dies fetching
    passNextRun(rt);
    rt.killWhen = null;
    const [view] = rt.call('igSchedules');
    expect(view.skippedAt).toEqual(expect.any(String));
    expect(view.run.id).toBe('x');
  });
});

describe('a run killed mid-way', () => {
  /** Kills the execution at `cap`'s first call after the history sheet's first write once 100 requests were sent. */
  function killAfterSecondUnit(rt: GasRuntime, cap: 'sheet.write' | 'properties.write') {
    let armed = false;
    rt.killWhen = (c, what) => {
      if (rt.requests.length < 100) return false;
      if (cap === 'sheet.write') return c === 'sheet.write' && what === 'setValues';
      if (c === 'sheet.write' && what === 'setValues') armed = true;
      return armed && c === cap;
    };
  }

  for (const cap of ['sheet.write', 'properties.write'] as const) {
    test(`resumes at the next hour without a duplicate row or a second charge (killed at a ${cap})`, async () => {
      const rt = sheetWith(creators(120));
      rt.call('igScheduleSave', profile('history'), daily, 1000);
      killAfterSecondUnit(rt, cap);
      const views = rt.call('igSchedules');
      rt.advance(Date.parse(views[0].nextAt) - rt.now() + HOUR);
      const trigger = rt.triggers.installed[0];
      expect(trigger.runs.at(-1)).toMatchObject({
        ok: false,
        error: expect.stringContaining('Exceeded maximum execution time'),
      });
      rt.killWhen = null;
      let [view] = rt.call('igSchedules');
      expect(view.run.status).toBe('running');
      rt.advance(HOUR);
      [view] = rt.call('igSchedules');
      expect(view.run).toMatchObject({ status: 'done', written: 120, credits: 120 });
      await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 120 });
      const targets = rowsOf(rt, HISTORY)
        .slice(1)
        .map((r) => r[1]);
      expect(targets).toEqual(creators(120));
    });
  }
});

describe('background runs', () => {
  test('a sidebar run of 20,000 targets goes on through the hourly trigger when the sidebar closes', async () => {
    const handles = creators(20000);
    const rt = sheetWith(handles);
    let job = rt.call('igBulkStart', profile('beside'));
    job = rt.call('igBulkStep', job.id);
    expect(job.next).toBeGreaterThan(0);
    expect(job.next).toBeLessThan(20000);
    // The sidebar closes: nobody steps the run any more. The trigger continues it.
    for (let h = 0; h < 6 && job.status === 'running'; h++) {
      rt.advance(HOUR);
      job = rt.call('igBulkStatus');
    }
    expect(job).toMatchObject({ status: 'done', next: 20000, written: 20000, credits: 20000 });
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 20000 });
    // Each hourly run stayed within its 6 minutes (the stand-in would have failed it otherwise).
    expect(rt.triggers.installed[0].runs.every((r) => r.ok)).toBe(true);
    const values = rt.spreadsheet
      .sheet('Sheet1')
      .getValues('B2:B20001')
      .map((r) => r[0]);
    // Each row written once, in place: the sandbox knows none of these handles (a billed 404 each).
    expect(
      values.every(
        (v, i) => v === `@${handles[i]} has no public data: private, deleted or nonexistent. (Charged 1 credit.)`,
      ),
    ).toBe(true);
  }, 180000);
});

describe('history and the growth view', () => {
  test('a growth sheet: the change since the previous snapshot per account, and a line chart of the field over time', () => {
    const rt = sheetWith(['nasa', 'natgeo', 'locked_acc']);
    rt.call('igScheduleSave', profile('history'), daily, 10);
    passNextRun(rt);
    passNextRun(rt);
    expect(rt.call('igHistoryChoices')).toEqual([{ name: HISTORY, fields: ['followers'] }]);
    const out = rt.call('igGrowthView', { sheet: HISTORY, field: 'followers' });
    expect(out).toEqual({ sheet: 'IG Data growth', accounts: 2, snapshots: 4, charted: 2 });
    const g = rt.spreadsheet.sheet('IG Data growth');
    expect(g.getValues('A1:G1')).toEqual([
      ['account', 'latest date', 'latest', 'previous date', 'previous', 'change', 'change %'],
    ]);
    const summary = g.getValues('A2:G3');
    for (const r of summary) {
      expect(r[5]).toBe((r[2] as number) - (r[4] as number));
      expect((r[1] as Date).getTime() - (r[3] as Date).getTime()).toBeGreaterThanOrEqual(DAY - HOUR);
    }
    expect(g.charts).toHaveLength(1);
    expect(g.charts[0]).toMatchObject({
      type: 'line',
      options: expect.objectContaining({ title: 'followers over time' }),
    });
    // Asking for a column the history lacks says which ones it has.
    expect(() => rt.call('igGrowthView', { sheet: HISTORY, field: 'likes' })).toThrow(
      'The history has no column "likes": choose one of followers.',
    );
    // Built again: still one chart.
    rt.call('igGrowthView', { sheet: HISTORY, field: 'followers' });
    expect(rt.spreadsheet.sheet('IG Data growth').charts).toHaveLength(1);
  });
});
