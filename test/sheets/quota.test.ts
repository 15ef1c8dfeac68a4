/**
 * Google's daily URL Fetch quota (issue 30), with the built add-on in the Apps Script stand-in, which enforces it over
 * a rolling 24 hours of its clock, scaled down here, against the sandbox over real HTTP. At the quota the add-on
 * pauses, it does not fail: nothing is written for a lookup not sent, nothing is recorded as charged, the run says
 * which limit and when it goes on, and the hourly trigger resumes it once the day has freed up.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { addonRuntime, startSandbox } from './harness';
import type { SandboxProcess } from './harness';

const HOUR = 3600000;
const LIMIT = /Google's daily limit of URL Fetch calls for this account is reached/;
const FORMULA_AT_QUOTA =
  "Not sent: Google's daily limit of URL Fetch calls for this account is reached. It frees up within 24 hours; " +
  'try again then. (Not charged.)';
/** What no cell may ever say: a message for a lookup that was not sent. */
const NOT_SENT = /Not sent|No answer|Could not reach|May have been charged|too many times/;

let sandbox: SandboxProcess;
const runtimes: GasRuntime[] = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const rt of runtimes) await rt.close();
  await sandbox?.close();
});
beforeEach(async () => {
  await sandbox.reset();
});

/** The add-on with a day's URL Fetch quota of `calls`; Sheet1: a header in A1, the handles from A2, selected. */
function sheetWith(handles: string[], calls: number): GasRuntime {
  const rt = addonRuntime(sandbox.url, { limits: { urlFetchDailyCalls: calls } });
  runtimes.push(rt);
  rt.spreadsheet.sheet('Sheet1').setValues('A1', [['handle'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  rt.call('igSidebarState'); // installs the hourly trigger
  return rt;
}

/**
 * The user's other scripts and formulas spent a whole day's quota just now (Google counts it per user): nothing frees
 * up for 24 hours.
 */
const spendQuota = (rt: GasRuntime) => rt.quotas.urlfetch.add(rt.now(), rt.limits.urlFetchDailyCalls);

const creators = (n: number) => Array.from({ length: n }, (_, i) => `creator_${i}`);
const profile = (output: 'beside' | 'history') => ({ endpoint: 'profile', fields: 'followers', output });
const usageTotal = (rt: GasRuntime): number =>
  Object.values(rt.call('igUsage') as Record<string, Record<string, number>>)
    .flatMap((d) => Object.values(d))
    .reduce((a, b) => a + b, 0);
const columnB = (rt: GasRuntime, rows: number) =>
  rt.spreadsheet
    .sheet('Sheet1')
    .getValues(`B2:B${rows + 1}`)
    .map((r) => r[0]);

test('a background bulk run over more distinct handles than a day allows waits for the quota, says so, and ends with every row right', async () => {
  // 300 distinct handles and 20 repeats; 120 URL Fetch calls a day: three days' work.
  const distinct = creators(300);
  const handles = [...distinct, ...distinct.slice(0, 20)];
  const rt = sheetWith(handles, 120);
  let job = rt.call('igBulkStart', profile('beside'));
  job = rt.call('igBulkStep', job.id);
  // The sidebar closes: the hourly trigger goes on with the run.
  const pauses: { at: number; resumeAt: number; message: string }[] = [];
  for (let h = 0; h < 100 && job.status !== 'done'; h++) {
    const sentBefore = rt.requests.length;
    const refusedBefore = rt.stats.quotaRefusals;
    const waitingUntil = job.status === 'paused' ? job.resumeAt : undefined;
    rt.advance(HOUR);
    job = rt.call('igBulkStatus');
    if (waitingUntil && job.resumeAt === waitingUntil) {
      // While it waits, the hourly run sends nothing and meets no quota: no runtime spent on retries.
      expect(rt.requests.length).toBe(sentBefore);
      expect(rt.stats.quotaRefusals).toBe(refusedBefore);
    }
    if (job.status === 'paused' && !pauses.some((p) => p.resumeAt === job.resumeAt))
      pauses.push({ at: rt.now(), resumeAt: job.resumeAt, message: job.message });
    // No row ever shows a message for a lookup that was not sent.
    expect(columnB(rt, handles.length).filter((v) => NOT_SENT.test(String(v)))).toEqual([]);
  }
  expect(job).toMatchObject({ status: 'done', next: handles.length, credits: 300 });
  expect(pauses.length).toBeGreaterThanOrEqual(2);
  for (const p of pauses) {
    // Which of Google's limits, what waits, that nothing was charged, and when it goes on (24 h after the quota).
    expect(p.message).toMatch(LIMIT);
    expect(p.message).toMatch(/rows? [\d-]+(?: and [\d-]+)? wait, not sent and not charged\./);
    expect(p.message).toMatch(
      /The run goes on by itself at the first hourly run after .+, when the limit has freed up\./,
    );
    // `at`: the end of the hour the run paused in.
    expect(p.resumeAt - p.at).toBeGreaterThan(23 * HOUR - 60000);
    expect(p.resumeAt - p.at).toBeLessThanOrEqual(24 * HOUR);
  }
  // Every row right: the sandbox knows none of these handles (a billed 404 each); the repeats from the
  // store, saying they are free now (an answer served again says what it cost when first looked up).
  const values = columnB(rt, handles.length);
  const noData = (h: string) => `@${h} has no public data: private, deleted or nonexistent.`;
  expect(values.slice(0, 300)).toEqual(distinct.map((h) => `${noData(h)} (Charged 1 credit.)`));
  for (const [i, v] of values.slice(300).entries())
    expect(v).toMatch(
      new RegExp(
        `^${noData(distinct[i]).replace(/[.@]/g, '\\$&')} \\(Charged 1 credit when first looked up on \\d+ \\w+; free now\\.\\)$`,
      ),
    );
  // Credits = distinct handles, and the usage log records what the sandbox billed, nothing more.
  await expect(sandbox.stats()).resolves.toMatchObject({ creditsBilled: 300 });
  expect(usageTotal(rt)).toBe(300);
  // One refused call per pause: the run never knocks at the quota twice.
  expect(rt.stats.quotaRefusals).toBe(pauses.length);
  expect(rt.triggers.installed[0].runs.every((r) => r.ok)).toBe(true);
}, 300000);

/** The job of the only schedule, as saved. */
const scheduleJob = (rt: GasRuntime) => {
  const [view] = rt.call('igSchedules') as { id: string; nextAt: string }[];
  return JSON.parse(rt.properties.document.get(`IGDATA_BULK_JOB:${view.id}`) as string);
};
/** Moves to half an hour before the schedule's next run, spends the day's quota, and passes the run. */
function runAtQuota(rt: GasRuntime) {
  const [view] = rt.call('igSchedules') as { nextAt: string }[];
  rt.advance(Date.parse(view.nextAt) - rt.now() - HOUR / 2);
  spendQuota(rt);
  rt.advance(HOUR);
}
const daily = { every: 'daily', hour: 7 };

test('a schedule at the quota overwrites nothing, waits, and refreshes its rows once the day has freed up', async () => {
  const handles = ['nasa', 'natgeo', 'locked_acc'];
  const rt = sheetWith(handles, 50);
  rt.call('igScheduleSave', profile('beside'), daily, 100);
  const [view] = rt.call('igSchedules') as { nextAt: string }[];
  rt.advance(Date.parse(view.nextAt) - rt.now() + HOUR);
  const good = columnB(rt, 3);
  expect(typeof good[0]).toBe('number');
  const billed = (await sandbox.stats()).creditsBilled;
  runAtQuota(rt);
  // Nothing overwritten, nothing billed, and the run says why it waits and until when.
  expect(columnB(rt, 3)).toEqual(good);
  await expect(sandbox.stats()).resolves.toMatchObject({ creditsBilled: billed });
  const waiting = scheduleJob(rt);
  expect(waiting).toMatchObject({ status: 'paused', next: 0 });
  expect(waiting.message).toMatch(LIMIT);
  expect(usageTotal(rt)).toBe(billed);
  rt.advance(25 * HOUR);
  expect(scheduleJob(rt)).toMatchObject({ status: 'done', next: 3 });
  const after = columnB(rt, 3);
  expect(typeof after[0]).toBe('number');
  expect(after.filter((v) => NOT_SENT.test(String(v)))).toEqual([]);
  expect(usageTotal(rt)).toBe((await sandbox.stats()).creditsBilled);
}, 120000);

test('a history schedule at the quota appends nothing', async () => {
  const rt = sheetWith(['nasa', 'natgeo'], 50);
  rt.call('igScheduleSave', profile('history'), daily, 100);
  const [view] = rt.call('igSchedules') as { nextAt: string }[];
  rt.advance(Date.parse(view.nextAt) - rt.now() + HOUR);
  const history = rt.spreadsheet.sheet('IG Data history IGPROFILE');
  expect(history.lastRow()).toBe(3);
  runAtQuota(rt);
  expect(history.lastRow()).toBe(3);
  expect(scheduleJob(rt).message).toMatch(LIMIT);
  rt.advance(25 * HOUR);
  expect(history.lastRow()).toBe(5);
  const rows = history.getValues(`A2:C5`);
  expect(rows.filter((r) => NOT_SENT.test(String(r[2])))).toEqual([]);
  expect(usageTotal(rt)).toBe((await sandbox.stats()).creditsBilled);
}, 120000);

test('a formula at the quota says Google’s daily limit is reached, frees up within 24 hours, not charged; kept answers still serve', async () => {
  const rt = sheetWith([], 20);
  // What one execution spends of the day's quotas: one Properties read (all settings in one getProperties) and one
  // URL Fetch call per target not kept; a kept answer costs no call.
  const spent = (f: () => unknown) => {
    const before = { reads: rt.stats.propertyReads, writes: rt.stats.propertyWrites, calls: rt.stats.requests };
    f();
    return {
      reads: rt.stats.propertyReads - before.reads,
      writes: rt.stats.propertyWrites - before.writes,
      calls: rt.stats.requests - before.calls,
    };
  };
  expect(spent(() => expect(rt.custom('IGPROFILE', 'nasa', 'followers')).toBe(97400000))).toEqual({
    reads: 1,
    writes: 0,
    calls: 1,
  });
  expect(spent(() => rt.custom('IGPROFILE', [['nasa'], ['natgeo'], ['nike']], 'followers'))).toEqual({
    reads: 1,
    writes: 0,
    calls: 2,
  });
  expect(spent(() => rt.custom('IGPROFILE', 'nasa', 'followers'))).toEqual({ reads: 1, writes: 0, calls: 0 });
  spendQuota(rt);
  const sent = rt.requests.length;
  expect(rt.custom('IGPROFILE', 'instagram', 'followers')).toBe(FORMULA_AT_QUOTA);
  expect(rt.custom('IGPROFILE', [['instagram'], ['locked_acc']], 'followers')).toEqual([
    [FORMULA_AT_QUOTA],
    [FORMULA_AT_QUOTA],
  ]);
  // A range of 60 new targets (two batches): every cell says so, and only the first batch knocked at the quota.
  const refused = rt.stats.quotaRefusals;
  const sixty = creators(60).map((h) => [h]);
  expect(rt.custom('IGPROFILE', sixty, 'followers')).toEqual(sixty.map(() => [FORMULA_AT_QUOTA]));
  expect(rt.stats.quotaRefusals).toBe(refused + 1);
  expect(rt.custom('IGPROFILE', 'nasa', 'followers')).toBe(97400000); // kept: no request
  expect(rt.requests.length).toBe(sent);
  await expect(sandbox.stats()).resolves.toMatchObject({ creditsBilled: 3 });
  rt.advance(24 * HOUR);
  expect(typeof rt.custom('IGPROFILE', 'instagram', 'followers')).toBe('number');
  expect(usageTotal(rt)).toBe(4);
  await expect(sandbox.stats()).resolves.toMatchObject({ creditsBilled: 4 });
}, 60000);

test('a watch at the quota keeps its place and writes nothing, waits out the day without meeting the quota again, then goes on', async () => {
  const rt = sheetWith([], 50);
  const [w] = rt.call('igWatchCreate', { tags: 'veganrecipes', every: 'hourly', cap: 5 }) as { sheet: string }[];
  const sheet = rt.spreadsheet.sheet(w.sheet);
  const rows = sheet.lastRow();
  spendQuota(rt);
  rt.advance(HOUR);
  type View = { last: { message?: string; resumeAt?: number } };
  let [v] = rt.call('igWatches') as View[];
  expect(v.last.message).toMatch(LIMIT);
  expect(v.last.message).toMatch(/\(Not charged\.\) The watch goes on at its first run after .+\.$/);
  expect(sheet.lastRow()).toBe(rows);
  const refused = rt.stats.quotaRefusals;
  expect(refused).toBe(1);
  rt.advance(22 * HOUR);
  expect(rt.stats.quotaRefusals).toBe(refused); // no hourly run knocked at the quota meanwhile
  rt.advance(3 * HOUR);
  [v] = rt.call('igWatches') as View[];
  expect(v.last.message ?? '').not.toMatch(LIMIT);
  expect(rt.stats.quotaRefusals).toBe(refused);
  expect(usageTotal(rt)).toBe((await sandbox.stats()).creditsBilled);
}, 60000);

test("a tracker's run at the quota appends nothing and its view shows no message; it goes on after the day", async () => {
  const rt = sheetWith(['nasa', 'natgeo'], 50);
  const { tracker } = rt.call('igTrackerCreate', {
    fields: 'followers',
    every: 'weekly',
    weekday: 1,
    hour: 7,
    cap: 10,
  });
  let r = rt.call('igTrackerStep', tracker.id);
  while (!r.done) r = rt.call('igTrackerStep', tracker.id);
  const history = rt.spreadsheet.sheet(tracker.parts[0].history);
  expect(history.lastRow()).toBe(3);
  const schedules = JSON.parse(rt.properties.document.get('IGDATA_SCHEDULES') as string) as { nextAt: number }[];
  rt.advance(Math.min(...schedules.map((s) => s.nextAt)) - rt.now() - HOUR / 2);
  spendQuota(rt);
  rt.advance(HOUR);
  expect(history.lastRow()).toBe(3);
  const job = JSON.parse(rt.properties.document.get(`IGDATA_BULK_JOB:${tracker.parts[0].scheduleId}`) as string);
  expect(job).toMatchObject({ status: 'paused', next: 0 });
  expect(job.message).toMatch(LIMIT);
  const view = () =>
    rt.spreadsheet
      .sheet(tracker.view)
      .getValues()
      .flat()
      .filter((v) => NOT_SENT.test(String(v)));
  expect(view()).toEqual([]);
  rt.advance(25 * HOUR);
  expect(history.lastRow()).toBe(5);
  expect(view()).toEqual([]);
  expect(usageTotal(rt)).toBe((await sandbox.stats()).creditsBilled);
}, 60000);
