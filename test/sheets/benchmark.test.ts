/**
 * "Benchmark these accounts" (issue 40) with the *built* add-on in the Apps Script stand-in against the sandbox,
 * whose world moves with its clock: 6 accounts, ours first, the default measures. The report's values are checked
 * against what the sandbox answers for each account (asked with a key of the test's own), each numeric row's leader
 * is read through its conditional format evaluated as the preview does (scorecard.js formulaHolds), its two charts
 * against their rows, and its cost against its preview; a second benchmark within the answers' life costs 0; a
 * weekly run by the hourly trigger adds a snapshot and the growth row.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { getWorld } from '../../scripts/sandbox/world/build';
import { addonRuntime, sandboxedAddon } from './harness';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ruleBackground } = require('../../scripts/sheets-preview/scorecard.js') as {
  ruleBackground: (
    rules: unknown[],
    row: number,
    col: number,
    shown: unknown,
    cell: (r: number, c: number) => unknown,
  ) => string | null;
};

const HOUR = 3600000;
const env = sandboxedAddon();
const runtimes: GasRuntime[] = [];
afterAll(async () => {
  for (const rt of runtimes) await rt.close();
});
const weekly = { every: 'weekly', weekday: 1, hour: 7 };
/** 6 public seeded accounts of the sandbox's world (seed 42) with posts. */
const ACCOUNTS = [...getWorld(42).byUsername.values()]
  .filter((a) => !a.is_private && a.followers > 1000)
  .slice(0, 6)
  .map((a) => a.username);

/** A runtime whose clock is the sandbox's world time, with the accounts in Sheet1!A2:A7 selected. */
async function sheetWith(handles: string[]): Promise<GasRuntime> {
  const { world } = (await (await fetch(`${env.sandbox.url}/_sandbox/clock`)).json()) as { world: string };
  const rt = addonRuntime(env.sandbox.url, { startAt: world });
  runtimes.push(rt);
  rt.spreadsheet.sheet('Sheet1').setValues('A1', [['account'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  rt.call('igSidebarState'); // installs the hourly trigger
  return rt;
}

type Made = { tracker: { id: string; view: string; parts: { history: string; endpoint: string }[] } };
/** Creates the benchmark previewed and steps its first run to the end, as the sidebar does. */
function benchmark(rt: GasRuntime, req: Record<string, unknown>): Made['tracker'] {
  const { tracker } = rt.call('igBenchmarkCreate', req) as Made;
  let r = rt.call('igBenchmarkStep', tracker.id);
  while (!r.done) r = rt.call('igBenchmarkStep', tracker.id);
  return tracker;
}

/** What the sandbox answers now, asked with a key of the test's own. */
async function ask(path: string): Promise<Record<string, any>> {
  const key = await env.sandbox.createKey(1000);
  const res = await fetch(`${env.sandbox.url}/v1/${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

/** The report: its values, a cell by (row, col), and the leader of a row (the accounts its marks colour). */
function reportOf(rt: GasRuntime, view: string) {
  const sheet = rt.spreadsheet.sheet(view);
  const values = sheet.getValues();
  const cell = (r: number, c: number) => values[r - 1]?.[c - 1];
  const rowOf = (label: string) => values.findIndex((l) => l[0] === label) + 1;
  const accounts = values[0]
    .slice(1)
    .filter((a) => a !== '')
    .map((a) => String(a).replace(/ \(ours\)$/, ''));
  const marked = (label: string) => {
    const r = rowOf(label);
    return accounts.filter((_, i) => ruleBackground(sheet.colorRules, r, i + 2, cell(r, i + 2), cell) !== null);
  };
  const value = (label: string, account: string) => cell(rowOf(label), accounts.indexOf(account) + 2);
  return { sheet, values, accounts, rowOf, marked, value };
}

/** The account(s) with the largest (smallest) number of `numbers`. */
const leadersOf = (numbers: Record<string, number>, best: 'max' | 'min') => {
  const top = (best === 'max' ? Math.max : Math.min)(...Object.values(numbers));
  return Object.keys(numbers).filter((a) => numbers[a] === top);
};

test('6 accounts: the report shows every measure as the API answers it, ours first, the leader of each numeric row marked, two charts; it costs what the preview said, and a second benchmark costs 0', async () => {
  const rt = await sheetWith(ACCOUNTS);
  const ours = ACCOUNTS[2];
  const preview = rt.call('igBenchmarkPreview', { ...weekly, cap: 1000, ours });
  // Engagement 2, stats 5, best time 5 credits an account (the registry's prices at the default posts).
  expect(preview).toMatchObject({ accounts: 6, ours, creditsEach: 12, kept: 0, now: 72, enough: true });
  expect(preview.parts.map((p: { fn: string }) => p.fn)).toEqual(['IGENGAGEMENT', 'IGSTATS', 'IGBESTTIME']);
  const tracker = benchmark(rt, { ...weekly, cap: 1000, ours, name: 'Rivals', range: preview.range });
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: preview.now });

  const report = reportOf(rt, tracker.view);
  expect(tracker.view).toBe('IG Data benchmark Rivals');
  expect(report.values[0][1]).toBe(`${ours} (ours)`);
  expect(report.accounts).toEqual([ours, ...ACCOUNTS.filter((a) => a !== ours)]);
  expect(report.values.map((l) => l[0]).filter((l) => l !== '')).toEqual([
    'measure',
    'Followers',
    'Follower growth since the previous run',
    'Engagement rate %',
    'Posts per week',
    'Best format',
    'Formats posted',
    'Best time to post (UTC+0)',
    'fetched',
    'note',
  ]);
  const truth: Record<string, { e: Record<string, any>; s: Record<string, any>; b: Record<string, any> }> = {};
  for (const a of ACCOUNTS)
    truth[a] = {
      e: await ask(`insights/profile/engagement?handle=${a}&posts=12`),
      s: await ask(`insights/profile/stats?handle=${a}&posts=30`),
      b: await ask(`insights/profile/best-time?handle=${a}&posts=30&timezone=0`),
    };
  for (const a of ACCOUNTS) {
    expect(report.value('Followers', a)).toBe(truth[a].e.followers);
    expect(report.value('Engagement rate %', a)).toBe(truth[a].e.engagement_rate_pct);
    expect(report.value('Posts per week', a)).toBe(truth[a].s.posts_per_week);
    expect(report.value('Best format', a)).toBe(truth[a].s.best_format);
    expect(report.value('Formats posted', a)).toBe(
      truth[a].s.format_mix.map((f: { type: string }) => f.type).join(', '),
    );
    // The best day and hour the API ranks first, in the sheet's zone (UTC here): "Tuesday 20:00".
    const { best_days: days, best_hours: hours } = truth[a].b;
    expect(report.value('Best time to post (UTC+0)', a)).toBe(
      `${days[0].day} ${String(hours[0].hour).padStart(2, '0')}:00`,
    );
    expect(truth[a].b.recommendation).toContain(`${days[0].day} around ${String(hours[0].hour).padStart(2, '0')}:00`);
    expect(report.value('Follower growth since the previous run', a)).toBe(''); // one run: no growth yet
    expect(report.value('fetched', a)).toBeInstanceOf(Date);
  }
  // The leaders, from the API's numbers; text rows and the empty growth row mark nobody.
  const by = (f: (a: string) => number) => Object.fromEntries(ACCOUNTS.map((a) => [a, f(a)]));
  expect(report.marked('Followers').sort()).toEqual(
    leadersOf(
      by((a) => truth[a].e.followers),
      'max',
    ).sort(),
  );
  expect(report.marked('Engagement rate %').sort()).toEqual(
    leadersOf(
      by((a) => truth[a].e.engagement_rate_pct),
      'max',
    ).sort(),
  );
  expect(report.marked('Posts per week').sort()).toEqual(
    leadersOf(
      by((a) => truth[a].s.posts_per_week),
      'max',
    ).sort(),
  );
  for (const row of [
    'Best format',
    'Formats posted',
    'Best time to post (UTC+0)',
    'Follower growth since the previous run',
  ])
    expect(report.marked(row)).toEqual([]);
  // The rules' ranges: the numeric rows only (a rule on a text row would mark nobody today by ISNUMBER alone,
  // so the ranges themselves are checked), each across every account's column.
  const ruled = report.sheet.colorRules
    .flatMap((r) => r.ranges)
    .flatMap((g) => Array.from({ length: g.numRows }, (_, i) => [report.values[g.row + i - 1][0], g.col, g.numCols]));
  expect(ruled.sort()).toEqual(
    ['Engagement rate %', 'Follower growth since the previous run', 'Followers', 'Posts per week'].map((l) => [
      l,
      2,
      ACCOUNTS.length,
    ]),
  );
  // A value corrected by hand moves the mark: the rule is Sheets', not a colour painted once.
  const last = report.accounts[report.accounts.length - 1];
  report.sheet.setValues(`G${report.rowOf('Followers')}`, [[10 ** 12]]);
  expect(reportOf(rt, tracker.view).marked('Followers')).toEqual([last]);
  // Two column charts: the accounts across, engagement and growth.
  const charts = report.sheet.charts.map((c) => c.view());
  // The header row and the measure's row one under the other (MERGE_ROWS), then turned: the accounts across.
  expect(charts.map((c) => [c.type, c.options.title, c.mergeStrategy, c.transpose, c.numHeaders])).toEqual([
    ['column', 'Engagement rate %', 'MERGE_ROWS', true, 1],
    ['column', 'Follower growth since the previous run', 'MERGE_ROWS', true, 1],
  ]);
  expect(charts[0].values[1][0].slice(1)).toEqual(report.accounts.map((a) => truth[a].e.engagement_rate_pct));
  expect(String(charts[0].values[0][0][1])).toBe(`${ours} (ours)`);
  expect(report.sheet.numberFormats.get(`${report.rowOf('Followers')},2`)).toBe('#,##0');

  // A second benchmark of the same accounts right after: every answer is still fresh, free.
  const again = rt.call('igBenchmarkPreview', { ...weekly, cap: 1000 });
  expect(again).toMatchObject({ kept: 18, now: 0, ours: ACCOUNTS[0] });
  const billed = (await env.sandbox.stats()).creditsBilled;
  const second = benchmark(rt, { ...weekly, cap: 1000, name: 'Again' });
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: billed });
  expect(reportOf(rt, second.view).value('Followers', ACCOUNTS[1])).toBe(truth[ACCOUNTS[1]].e.followers);
  expect(rt.call('igBenchmarks').map((b: { name: string }) => b.name)).toEqual(['Rivals', 'Again']);
  expect(rt.call('igTrackers')).toEqual([]);
  // Usage under the benchmark's name.
  const usage = rt.call('igUsage') as Record<string, Record<string, number>>;
  expect(Object.values(usage).reduce((n, d) => n + (d['Benchmark Rivals'] ?? 0), 0)).toBe(72);
});

test('right after Track of the same accounts, a benchmark pays only for what the tracker did not fetch', async () => {
  const rt = await sheetWith(ACCOUNTS);
  const { tracker } = rt.call('igTrackerCreate', { fields: 'engagement_rate_pct', ...weekly, cap: 100 });
  let r = rt.call('igTrackerStep', tracker.id);
  while (!r.done) r = rt.call('igTrackerStep', tracker.id);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 12 }); // IGENGAGEMENT: 2 an account
  const preview = rt.call('igBenchmarkPreview', { ...weekly, cap: 1000 });
  expect(preview).toMatchObject({ kept: 6, now: 60 });
  expect(preview.parts).toEqual([
    { fn: 'IGENGAGEMENT', creditsEach: 2, kept: 6, credits: 0 },
    { fn: 'IGSTATS', creditsEach: 5, kept: 0, credits: 30 },
    { fn: 'IGBESTTIME', creditsEach: 5, kept: 0, credits: 30 },
  ]);
  benchmark(rt, { ...weekly, cap: 1000, range: preview.range });
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 12 + 60 });
});

test('a week later the hourly trigger refreshes it: a second snapshot, the growth row from the two, its leader the account that grew most', async () => {
  const rt = await sheetWith(ACCOUNTS);
  const tracker = benchmark(rt, { ...weekly, cap: 1000, measures: ['followers', 'growth', 'engagement'] });
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 12 }); // engagement alone: 2 an account
  const grower = ACCOUNTS[4];
  const next = Math.min(
    ...(JSON.parse(rt.properties.document.get('IGDATA_SCHEDULES') as string) as { nextAt: number }[]).map(
      (s) => s.nextAt,
    ),
  );
  await env.sandbox.step({
    handle: grower,
    measure: 'followers',
    change: 0.2,
    at: new Date(next - HOUR).toISOString(),
  });
  rt.advance(next - rt.now() - 60_000);
  await fetch(`${env.sandbox.url}/_sandbox/clock?to=${new Date(next).toISOString()}`, { method: 'POST' });
  rt.advance(HOUR + 120_000);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 24 });
  const history = rt.spreadsheet.sheet(tracker.parts[0].history).getValues();
  const report = reportOf(rt, tracker.view);
  for (const a of ACCOUNTS) {
    const rows = history.filter((r) => r[1] === a);
    expect(rows).toHaveLength(2);
    const [before, after] = rows.map((r) => r[2] as number);
    expect(report.value('Followers', a)).toBe(after);
    expect(report.value('Follower growth since the previous run', a)).toBeCloseTo((after - before) / before, 12);
  }
  expect(report.marked('Follower growth since the previous run')).toEqual([grower]);
  // "Run now" an hour later: every answer still fresh (free), a third snapshot of the same fetch, which is no
  // change since the run before: the growth row still compares the two fetches.
  rt.advance(HOUR);
  const [schedule] = JSON.parse(rt.properties.document.get('IGDATA_SCHEDULES') as string) as { id: string }[];
  let job = rt.call('igScheduleRunNow', schedule.id);
  while (job.status === 'running') job = rt.call('igScheduleStep', schedule.id, job.id);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 24 });
  expect(
    rt.spreadsheet
      .sheet(tracker.parts[0].history)
      .getValues()
      .filter((r) => r[1] === grower),
  ).toHaveLength(3);
  const again = reportOf(rt, tracker.view);
  for (const a of ACCOUNTS)
    expect(again.value('Follower growth since the previous run', a)).toBe(
      report.value('Follower growth since the previous run', a),
    );
  expect(again.marked('Follower growth since the previous run')).toEqual([grower]);
  expect(report.values.map((l) => l[0]).filter((l) => l !== '')).toEqual([
    'measure',
    'Followers',
    'Follower growth since the previous run',
    'Engagement rate %',
    'fetched',
    'note',
  ]);
  // Deleting it stops its runs; its report and history stay.
  expect(rt.call('igBenchmarkDelete', tracker.id)).toEqual([]);
  expect(JSON.parse(rt.properties.document.get('IGDATA_SCHEDULES') as string)).toEqual([]);
  expect(rt.spreadsheet.findSheet(tracker.view)).toBeDefined();
});

test('made once, not refreshed: its first run only, nothing a month after', async () => {
  const rt = await sheetWith(ACCOUNTS.slice(0, 3));
  const once = { every: 'never', cap: 100, measures: ['followers', 'engagement'] };
  expect(rt.call('igBenchmarkPreview', once)).toMatchObject({
    now: 6,
    perMonth: 0,
    when: 'not refreshed',
    nextLabel: '',
  });
  expect(() => rt.call('igBenchmarkPreview', { ...once, measures: ['followers', 'growth'] })).toThrow(
    'Measures: follower growth since the previous run needs a second run; choose a weekly or daily refresh, or untick it.',
  );
  const tracker = benchmark(rt, once);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 6 });
  expect(rt.call('igBenchmarks')).toMatchObject([{ id: tracker.id, when: 'not refreshed', nextLabel: '' }]);
  rt.advance(31 * 24 * HOUR);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 6 });
  expect(
    rt.spreadsheet
      .sheet(tracker.parts[0].history)
      .getValues()
      .filter((r) => r[1] !== ''),
  ).toHaveLength(4);
});

test('a cap that cuts the first run: the preview says what it spends, in whole accounts per function, and the run spends that', async () => {
  const rt = await sheetWith(ACCOUNTS);
  // 12 credits an account; a cap of 50 shares out as 8 (engagement), 20 (stats) and 20 (best time): 4 accounts each.
  const preview = rt.call('igBenchmarkPreview', { ...weekly, cap: 50 });
  expect(preview).toMatchObject({ now: 48, perRun: 50 });
  expect(preview.parts.map((p: { credits: number }) => p.credits)).toEqual([8, 20, 20]);
  benchmark(rt, { ...weekly, cap: 50, range: preview.range });
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 48 });
  // Made once, a cap that cuts the run would leave accounts blank for good: refused, saying the least it must be.
  expect(() => rt.call('igBenchmarkPreview', { every: 'never', cap: 40, measures: ['followers', 'cadence'] })).toThrow(
    'Credit cap per run: a benchmark made once runs once, so its cap must cover every account: at least 42 (6 accounts × 7 credits); got 40.',
  );
});

test("a benchmark is no tracker: Track's step and the alerts refuse its id, and its runs leave its report alone", async () => {
  const rt = await sheetWith(ACCOUNTS.slice(0, 2));
  const tracker = benchmark(rt, { ...weekly, cap: 100, measures: ['followers', 'engagement'] });
  const before = rt.spreadsheet.sheet(tracker.view).getValues();
  expect(() => rt.call('igTrackerStep', tracker.id)).toThrow('This tracker was deleted; reopen the sidebar.');
  expect(() => rt.call('igAlerts', tracker.id)).toThrow('This tracker was deleted; reopen the sidebar.');
  expect(rt.spreadsheet.sheet(tracker.view).getValues()).toEqual(before);
});

test('bad input says what is wrong and saves nothing', async () => {
  const rt = await sheetWith(ACCOUNTS.slice(0, 3));
  expect(() => rt.call('igBenchmarkPreview', { ...weekly, cap: 100, measures: ['followers', 'reach'] })).toThrow(
    /Measures: "reach" is not a measure\. Choose from: followers, growth/,
  );
  expect(() => rt.call('igBenchmarkPreview', { ...weekly, cap: 100, ours: '@nobody_here' })).toThrow(
    /Our account: "@nobody_here" is not in the selection/,
  );
  expect(() => rt.call('igBenchmarkCreate', { ...weekly, cap: 5 })).toThrow(/Credit cap per run: at least 12/);
  rt.spreadsheet.select('Sheet1!A2:A2');
  expect(() => rt.call('igBenchmarkPreview', { ...weekly, cap: 100 })).toThrow(
    /holds 1 account: select a column of at least two/,
  );
  expect(rt.properties.document.get('IGDATA_SCHEDULES')).toBeNull();
  expect(rt.call('igBenchmarks')).toEqual([]);
});
