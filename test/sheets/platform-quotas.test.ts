/**
 * Google's other daily quotas a background run can meet (issue 38), with the built add-on in the Apps Script stand-in
 * (which enforces them over a rolling 24 hours of its clock) against the sandbox over real HTTP: Properties reads and
 * writes (where the add-on keeps its runs, so the pause is kept in the document cache) and installable triggers'
 * runtime (Google then runs no hourly trigger). Each time the run pauses, the sidebar says which limit and when it
 * goes on, it resumes by itself, and every row ends right, billed once. A history run that waits out a quota dates
 * each row when its values were fetched. A manual Resume during a wait says what it would meet.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { sandboxedAddon } from './harness';

const HOUR = 3600000;
const PROPERTIES =
  /^Google's daily limit of Properties reads and writes for this account is reached \(.+\): IG Data cannot read or save its settings and runs until it frees up\. .* go on by themselves at the first hourly run after (.+); try again after that\.$/;

const env = sandboxedAddon();

const creators = (n: number) => Array.from({ length: n }, (_, i) => `creator_${i}`);
const noData = (h: string) => `@${h} has no public data: private, deleted or nonexistent. (Charged 1 credit.)`;

/** Sheet1: a header in A1, the handles from A2, selected; the hourly trigger installed. */
function sheetWith(handles: string[], limits: GasRuntime['limits'] extends infer L ? Partial<L> : never): GasRuntime {
  const rt = env.runtime({ limits });
  rt.spreadsheet.sheet('Sheet1').setValues('A1', [['handle'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  rt.call('igSidebarState'); // installs the hourly trigger
  return rt;
}
const columnB = (rt: GasRuntime, rows: number) =>
  rt.spreadsheet
    .sheet('Sheet1')
    .getValues(`B2:B${rows + 1}`)
    .map((r) => r[0]);
/** The sidebar's job as saved (read without spending the quota, as a test may). */
const savedJob = (rt: GasRuntime) => JSON.parse(rt.properties.document.get('IGDATA_BULK_JOB') as string);
const beside = { endpoint: 'profile', fields: 'followers', output: 'beside' };

// Calls left when the hour's run starts: measured on this add-on, the quota is then met before the step (2), before
// its fetch (6), after its rows are written but before its state is saved (9), after the run's end (11).
test.each([2, 6, 9, 11])(
  'a background run meets the Properties quota (%i calls left): it waits touching no property, the sidebar and formulas say which limit and when, it goes on by itself, every row right and billed once',
  async (left) => {
    const handles = creators(40);
    const rt = sheetWith(handles, { propertiesDailyOps: 400 });
    const job = rt.call('igBulkStart', beside);
    // The sidebar closes before the first step; the user's other scripts have spent all but `left` of the day's calls.
    rt.quotas.properties.add(rt.now(), rt.limits.propertiesDailyOps - rt.quotas.properties.used(rt.now()) - left);
    rt.advance(HOUR);
    expect(rt.triggers.installed[0].runs.every((r) => r.ok)).toBe(true); // the hourly run met it and did not fail
    // Which limit and when it goes on: the sidebar (any call), without touching a property.
    const reads = rt.stats.propertyReads + rt.stats.propertyWrites;
    let said = '';
    try {
      rt.call('igBulkStatus');
    } catch (e) {
      said = (e as Error).message;
    }
    expect(said).toMatch(PROPERTIES);
    const formula = rt.custom('IGPROFILE', 'nasa', 'followers');
    expect(formula).toBe(
      "Not sent: Google's daily limit of Properties reads and writes for this account is reached. It frees up within 24 hours; try again then. (Not charged.)",
    );
    // Rows not reached hold nothing (no message for a lookup not sent).
    const partial = columnB(rt, handles.length);
    const reached = partial.filter((v) => v !== '').length;
    expect(partial.slice(0, reached)).toEqual(handles.slice(0, reached).map(noData));
    expect(partial.slice(reached).every((v) => v === '')).toBe(true);
    // While it waits, the hourly runs touch no property (and send nothing): the run's state stays as last saved.
    const sent = rt.requests.length;
    const state = rt.properties.document.get('IGDATA_BULK_JOB');
    rt.advance(20 * HOUR);
    expect(rt.stats.propertyReads + rt.stats.propertyWrites).toBe(reads);
    expect(rt.requests.length).toBe(sent);
    expect(rt.properties.document.get('IGDATA_BULK_JOB')).toBe(state);
    expect(savedJob(rt).id).toBe(job.id);
    // Once the day has freed up, the hourly run goes on from where the run's state was last saved.
    rt.advance(6 * HOUR);
    expect(savedJob(rt)).toMatchObject({ status: 'done', next: handles.length });
    expect(columnB(rt, handles.length)).toEqual(handles.map(noData));
    await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: handles.length });
    expect(rt.triggers.installed[0].runs.every((r) => r.ok)).toBe(true);
  },
  120000,
);

test('a background run whose hourly runs Google stops (trigger runtime a day): the sidebar says which limit and when; it goes on by itself, every row right', async () => {
  const handles = creators(30);
  const rt = sheetWith(handles, { triggerDailyRuntimeMs: 30 * 60000 });
  rt.call('igBulkStart', beside);
  // The user's other scripts' triggers used the day's runtime (Google counts it per user).
  rt.quotas.triggerRuntimeMs.add(rt.now(), rt.limits.triggerDailyRuntimeMs);
  rt.advance(3 * HOUR);
  const runs = rt.triggers.installed[0].runs;
  expect(runs.length).toBeGreaterThanOrEqual(3);
  expect(runs.every((r) => r.error === 'Service using too much computer time for one day')).toBe(true);
  const job = rt.call('igBulkStatus');
  expect(job.status).toBe('running');
  expect(job.message).toMatch(
    /^The hourly run has not come since .+: Google's daily limit of trigger runtime for this account \(90 minutes, 6 hours with Google Workspace, shared with your other scripts\) is probably used up\. rows 2-31 wait, not sent and not charged\. The run goes on by itself at the first hourly run Google allows again: the limit frees up 24 hours after the time was spent, by .+ unless other scripts spend it again\./,
  );
  expect(columnB(rt, handles.length).every((v) => v === '')).toBe(true);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 0 });
  rt.advance(23 * HOUR);
  const done = rt.call('igBulkStatus');
  expect(done).toMatchObject({ status: 'done', next: handles.length, credits: handles.length });
  expect(done.message).toBeUndefined();
  expect(columnB(rt, handles.length)).toEqual(handles.map(noData));
  expect(runs.slice(-1)[0].ok).toBe(true);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: handles.length });
}, 120000);

test("a schedule's run Google stops running hourly says so in the schedules list, then finishes by itself", async () => {
  const handles = creators(10);
  const rt = sheetWith(handles, { triggerDailyRuntimeMs: 30 * 60000 });
  const [s] = rt.call('igScheduleSave', beside, { every: 'daily', hour: 7 }, 100);
  rt.call('igScheduleRunNow', s.id); // started, not stepped: the sidebar closes
  rt.quotas.triggerRuntimeMs.add(rt.now(), rt.limits.triggerDailyRuntimeMs);
  rt.advance(3 * HOUR);
  const [view] = rt.call('igSchedules');
  expect(view.run).toMatchObject({ status: 'running', next: 0 });
  expect(view.run.message).toMatch(
    /^The hourly run has not come since .+: Google's daily limit of trigger runtime for this account .+ rows 2-11 wait, not sent and not charged\./,
  );
  rt.advance(23 * HOUR);
  const [after] = rt.call('igSchedules');
  expect(after.run).toMatchObject({ status: 'done', next: handles.length, credits: handles.length });
  expect(columnB(rt, handles.length)).toEqual(handles.map(noData));
}, 120000);

test('a history run that waits out the URL Fetch quota dates each row when its values were fetched, says so, and a Resume during the wait says what it would meet', async () => {
  // 60 calls a day, batches of 50 refused whole when they do not fit: 50 rows a day.
  const handles = creators(120);
  const rt = sheetWith(handles, { urlFetchDailyCalls: 60 });
  let job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'history' });
  const start = rt.now();
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  expect(job).toMatchObject({ status: 'paused', next: 50 });
  // Resume now would meet the quota again and wait another day: it says so, and the run keeps waiting.
  expect(() => rt.call('igBulkResume', job.id)).toThrow(
    /^Not resumed: Google's daily limit of URL Fetch calls for this account is reached, until .+\. Resuming now would meet it again, send nothing and wait another day\. The run goes on by itself at the first hourly run after then\. \(Not charged\.\)$/,
  );
  expect(rt.call('igBulkStatus')).toMatchObject({ status: 'paused', resumeAt: job.resumeAt });
  // The hourly runs finish it over the next days.
  for (let h = 0; h < 100 && job.status !== 'done'; h++) {
    rt.advance(HOUR);
    job = rt.call('igBulkStatus');
  }
  expect(job).toMatchObject({ status: 'done', next: handles.length, credits: handles.length });
  const rows = rt.spreadsheet.sheet(job.outSheet).getValues(`A2:B${handles.length + 1}`);
  expect(rows.map((r) => r[1])).toEqual(handles);
  const dates = rows.map((r) => (r[0] as Date).getTime());
  // Each day's rows carry the date they were fetched on: the start's for the first 50 only.
  const day = (from: number, to: number) => new Set(dates.slice(from, to));
  expect([day(0, 50).size, day(50, 100).size, day(100, 120).size]).toEqual([1, 1, 1]);
  expect(dates[0]).toBeGreaterThanOrEqual(start - 60000);
  expect(dates[0]).toBeLessThan(start + HOUR);
  expect(dates[50]).toBeGreaterThanOrEqual(start + 24 * HOUR);
  expect(dates[100]).toBeGreaterThanOrEqual(dates[50] + 24 * HOUR);
  expect(job.message).toMatch(
    /^Its rows are dated when their values were fetched: the run waited on the way, so this snapshot has 3 dates \(.+, .+, .+\)\.$/,
  );
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: handles.length });
}, 120000);

test('a formula that meets the Properties quota first says which limit, keeps the pause for the hourly run, and sends nothing', async () => {
  const rt = sheetWith(creators(1), {});
  rt.quotas.properties.add(rt.now(), rt.limits.propertiesDailyOps);
  const before = rt.now();
  expect(rt.custom('IGPROFILE', 'nasa', 'followers')).toBe(
    "Not sent: Google's daily limit of Properties reads and writes for this account is reached. It frees up within 24 hours; try again then. (Not charged.)",
  );
  const pause = JSON.parse(rt.caches.document.peek('IGDATA_PROPERTIES_PAUSE') as string);
  expect(pause.at).toBeGreaterThanOrEqual(before);
  expect(pause.at).toBeLessThanOrEqual(rt.now());
  expect(pause.resumeAt - pause.at).toBe(24 * HOUR);
  expect(rt.requests).toHaveLength(0);
  const reads = rt.stats.propertyReads;
  rt.advance(3 * HOUR);
  expect(rt.stats.propertyReads).toBe(reads);
  expect(rt.triggers.installed[0].runs.every((r) => r.ok)).toBe(true);
});
