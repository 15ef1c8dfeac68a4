/**
 * The Sheets preview (scripts/sheets-preview/server.mjs) shows issue 10's parts: in headless
 * Chromium, a weekly history lookup is scheduled from the sidebar, the page's clock (the stand-in's)
 * moves on a week at a time (POST /advance fires the add-on's hourly trigger), the sidebar reports
 * the scheduled run and its credits, the history sheet gets a tab, and the growth view's embedded
 * chart is drawn as an SVG with a line per account. Set SCREENSHOTS_DIR to keep a screenshot of each step.
 */
import type { FrameLocator, Page } from 'playwright-core';
import type { SandboxProcess } from './harness';
import { dragSelect, previewSuite, shot as screenshot } from './preview-page';
import { go, poll } from './sidebar-page';

const HISTORY = 'IG Data history IGPROFILE';
let sb: SandboxProcess;
let page: Page;
let sidebar: FrameLocator;
/** Wednesday 10:00 UTC: the schedule is made for "tomorrow" (Thursday) 07:00, so two weeks hold exactly two runs. */
const START = '2026-11-25T10:00:00Z';
const env = previewSuite(START);

const tabs = () => page.locator('#tabs button').allTextContents();
const grid = (): Promise<{ clock: { now: string }; charts: unknown[] }> =>
  page.evaluate(() => fetch('/grid').then((r) => r.json()));
const shot = (name: string) => screenshot(page, `schedules-${name}`);

async function advanceWeek() {
  const before = Date.parse((await grid()).clock.now);
  await page.click('#clockbar button:text("+1 week")');
  // a week is 168 hours: the hourly trigger runs 168 times
  await poll(() => page.textContent('#advanced'), { timeout: 60_000 }).toBe(
    'Moved 1 week: the hourly trigger ran 168 times, all ok.',
  );
  const after = Date.parse((await grid()).clock.now);
  expect(after - before).toBeGreaterThanOrEqual(7 * 24 * 3600_000);
  expect(after - before).toBeLessThan(7 * 24 * 3600_000 + 60_000);
  // the page shows the stand-in's date (a week after the browser's), not the browser's
  const d = new Date(after);
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()];
  expect(await page.textContent('#clock')).toContain(` ${d.getUTCDate()} ${month} ${d.getUTCFullYear()} `);
}

beforeAll(async () => {
  ({ sb, page, sidebar } = env);
});

test('the clock bar shows the stand-in clock; moving it refuses bad amounts', async () => {
  await poll(() => page.textContent('#clock')).toMatch(
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2} UTC$/,
  );
  const refused = await page.evaluate(() =>
    fetch('/advance', { method: 'POST', body: JSON.stringify({ ms: -5 }) }).then((r) => r.json()),
  );
  expect(refused.error.message).toBe('Move the clock forward by 1 ms to 31 days.');
});

test('a weekly history lookup scheduled in the sidebar runs as the clock moves; the growth view draws its chart', async () => {
  await shot('0-start');
  // the sidebar's first load installed the hourly trigger
  await poll(() => sidebar.locator('#history-none').textContent()).toMatch(/No history yet/);
  // targets A2:A5 (nasa, @natgeo, nike's URL, nasa again), selected by dragging
  await dragSelect(page, 'A2', 'A5');
  await go(sidebar, 'bulk');
  await sidebar.locator('#use-selection').click();
  await poll(() => sidebar.locator('#selection').textContent()).toBe('Sheet1!A2:A5 (4 rows)');
  await sidebar.locator('#endpoint').selectOption('profile');
  await sidebar.locator('#fields').fill('followers');
  await sidebar.locator('#output-history').check();
  await sidebar.locator('#schedule-box summary').click();
  await sidebar.locator('#repeat').selectOption('weekly');
  // tomorrow (the stand-in's clock, UTC), so two weeks hold exactly two runs
  const day = (new Date((await grid()).clock.now).getUTCDay() + 1) % 7;
  const dayName = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][day];
  await sidebar.locator('#weekday').selectOption(String(day));
  await sidebar.locator('#hour').selectOption('7');
  await sidebar.locator('#cap').fill('50');
  await sidebar.locator('#schedule-preview').click();
  await poll(() => sidebar.locator('#schedule-text').textContent()).toMatch(
    new RegExp(`^Sheet1!A2:A5, weekly on ${dayName} at 07:00: 3 credits per run at most`),
  );
  await sidebar.locator('#schedule-save').click();
  await poll(() => sidebar.locator('#schedule-list').textContent()).toMatch(
    new RegExp(`weekly on ${dayName} at 07:00, at most 50 credits a run.*No run yet\\.`, 's'),
  );
  await shot('1-scheduled');

  // The first run is tomorrow at 07:00, in the first week (the trigger runs it within the hour).
  await advanceWeek();
  await poll(() => sidebar.locator('#schedule-list').textContent()).toMatch(
    /Last run .*: done, 3 rows, 3 credits, 0 errors\./,
  );
  await advanceWeek();
  await poll(() => sidebar.locator('#schedule-list').textContent()).toMatch(
    /Last run .*: done, 3 rows, 3 credits, 0 errors\./,
  );
  // the sidebar's Date is the stand-in's clock (two weeks after START, not the browser's), so its times agree
  const frame = page.frames().find((f) => f.url().endsWith('/sidebar'))!;
  const sidebarNow = await frame.evaluate(() => [Date.now(), new Date().getTime()]);
  const standinNow = Date.parse((await grid()).clock.now);
  for (const t of sidebarNow) expect(Math.abs(t - standinNow)).toBeLessThan(60_000);
  expect(standinNow - Date.parse(START)).toBeGreaterThanOrEqual(14 * 24 * 3600_000);
  expect(standinNow - Date.parse(START)).toBeLessThan(14 * 24 * 3600_000 + 5 * 60_000);
  // the sandbox's world moved with it (its stories expire by its clock)
  const sandboxNow = Date.parse(((await (await fetch(`${sb.url}/_sandbox/clock`)).json()) as { now: string }).now);
  expect(Math.abs(sandboxNow - standinNow)).toBeLessThan(5 * 60_000);
  // the history sheet the runs wrote has a tab; the add-on's hidden cache sheet still has none
  const names = await tabs();
  expect(names).toContain(HISTORY);
  expect(names).not.toContain('IG Data answers');
  // usage follows: the scheduled runs' credits, by run
  const scheduled = /^Scheduled run \d{4}-\d{2}-\d{2}T\d{2}:\d{2} IGPROFILE$/;
  await poll(() =>
    sidebar
      .locator('#usage-days tr.what td:first-child')
      .allTextContents()
      .then((t) => t.filter((x) => scheduled.test(x)).length),
  ).toBe(2);
  await go(sidebar, 'history');
  await poll(() => sidebar.locator('#history-form').isVisible()).toBe(true);
  await go(sidebar, 'schedules');
  await sidebar.locator('#schedule-list').scrollIntoViewIfNeeded();
  await shot('2-after-two-weeks');

  await page.click(`#tabs button:text("${HISTORY}")`);
  await poll(() => page.textContent('td[data-a1="A1"]')).toBe('date');
  await shot('3-history');

  await go(sidebar, 'history');
  expect(await sidebar.locator('#history-field').inputValue()).toBe('followers');
  await sidebar.locator('#growth').click();
  await poll(() => sidebar.locator('#history-message').textContent()).toMatch(
    /^Written to “IG Data growth”: 3 accounts, 6 snapshots, a chart of 3\.$/,
  );
  await poll(() => page.locator('#tabs button.on').textContent()).toBe('IG Data growth');
  const chart = page.locator('#charts svg');
  await poll(() => chart.count()).toBe(1);
  // one line per account, named in the legend; the title and axis titles from the chart's options
  const series = await chart.locator('path.series').evaluateAll((ps) => ps.map((p) => p.getAttribute('data-series')));
  // named as the service reads each target (the sheet has @natgeo and a profile URL for nike)
  expect(series.sort()).toEqual(['nasa', 'natgeo', 'nike']);
  for (const d of await chart.locator('path.series').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? '')))
    expect(d).toMatch(/^M[\d.]+ [\d.]+/);
  expect(await chart.locator('text.title').textContent()).toBe('followers over time');
  // x labels are dates such as "30 Nov", not ISO strings
  for (const t of await chart.locator('text.xtick').allTextContents())
    expect(t).toMatch(/^\d{1,2} [A-Z][a-z]{2}( \d{4})?$/);
  // the chart sits right of the summary table, at its anchor cell, not over the table's values
  const growth = (await grid()) as unknown as { charts: { position: { row: number; col: number } }[] };
  const anchor = growth.charts[0].position;
  const cellBox = (await page
    .locator(`td[data-a1="${String.fromCharCode(64 + anchor.col)}${anchor.row}"]`)
    .boundingBox())!;
  const chartBox = (await page.locator('.chart-box').boundingBox())!;
  expect(Math.round(chartBox.x)).toBe(Math.round(cellBox.x));
  expect(Math.round(chartBox.y)).toBe(Math.round(cellBox.y));
  await shot('4-growth');
}, 120_000);

test('a bulk run the sidebar is not stepping goes on when the clock passes the hour; the sidebar shows it done', async () => {
  // a run started, then the page reloaded: nothing steps it but the hourly trigger
  const started = await page.evaluate(async () => {
    const post = (path: string, body: unknown) =>
      fetch(path, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.json());
    await post('/sheet', { name: 'Sheet1' });
    await post('/select', { a1: 'A6:A7' });
    return post('/run', {
      fn: 'igBulkStart',
      args: [{ endpoint: 'profile', params: {}, fields: 'followers', output: 'sheet' }],
    });
  });
  expect(started.value).toMatchObject({ status: 'running', next: 0, rows: 2 });
  await page.reload();
  sidebar = page.frameLocator('#sidebar');
  await poll(() => sidebar.locator('#bulk-message').textContent()).toMatch(/^Going on in the background/);
  await page.click('#clockbar button:text("+1 hour")');
  await poll(() => page.textContent('#advanced'), { timeout: 60_000 }).toBe(
    'Moved 1 hour: the hourly trigger ran 1 time, all ok.',
  );
  await poll(() => sidebar.locator('#progress-text').textContent()).toMatch(/^Done: 2 of 2 rows/);
  await poll(() => sidebar.locator('#bulk-message').textContent()).toMatch(
    /^Written to the new sheet “IG Data IGPROFILE”/,
  );
  expect(await tabs()).toEqual(expect.arrayContaining(['Sheet1', HISTORY, 'IG Data growth', 'IG Data IGPROFILE']));
  await shot('5-background-run');
}, 60_000);
