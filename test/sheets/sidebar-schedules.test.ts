/**
 * Schedules and history from the built sidebar in headless Chromium (google.script.run wired to the
 * built add-on in the Apps Script stand-in, the sandbox over real HTTP): a weekly lookup into a
 * history sheet is previewed and saved from the sidebar, runs twice in the background while the
 * sidebar is closed (time moved by the test), and the reopened sidebar reports the last run and
 * builds the growth view.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import type { SandboxProcess } from './harness';
import { go, openLoaded, poll, sidebarSuite, text } from './sidebar-page';

const HOUR = 3600000;
const env = sidebarSuite();
let sb: SandboxProcess;
let rt: GasRuntime;
const pages = env.pages;
beforeAll(() => {
  ({ sb, rt } = env);
});

test('schedule a weekly lookup into a history sheet, see its runs reported, build the growth view', async () => {
  const sheet = rt.spreadsheet.sheet('Sheet1');
  ['handle', 'nasa', 'natgeo', 'nike', 'nasa'].forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Sheet1!A2:A5');
  let page = await openLoaded(rt, pages);
  await poll(() => text(page, '#history-none')).toMatch(/No history yet/);
  await go(page, 'bulk');
  await page.click('#use-selection');
  await poll(() => text(page, '#selection')).toBe('Sheet1!A2:A5 (4 rows)');
  await page.selectOption('#endpoint', 'profile');
  await page.fill('#fields', 'followers');
  await page.check('#output-history');
  expect(await page.isVisible('#output-note')).toBe(true);
  await page.click('#schedule-box summary');
  await page.selectOption('#repeat', 'weekly');
  await page.selectOption('#weekday', '1');
  await page.selectOption('#hour', '7');
  await page.fill('#cap', '50');
  // Saving needs a preview first.
  expect(await page.isEnabled('#schedule-save')).toBe(false);
  await page.click('#schedule-preview');
  await poll(() => text(page, '#schedule-text')).toMatch(
    /^Sheet1!A2:A5, weekly on Monday at 07:00: 3 credits per run at most \(3 targets × 1\), about 14 a month \(4\.35 runs\)\. First run: /,
  );
  await page.click('#schedule-save');
  await poll(() => text(page, '#schedule-text')).toMatch(/^Saved: it runs in the background from /);
  await poll(() => text(page, '#schedule-list')).toMatch(
    /IGPROFILE: followers.*Sheet1!A2:A5 → IG Data history IGPROFILE.*weekly on Monday at 07:00, at most 50 credits a run.*No run yet\./s,
  );
  await page.context().close();

  // The sidebar is closed; two Mondays pass.
  const [s] = rt.call('igSchedules');
  rt.advance(Date.parse(s.nextAt) - rt.now() + HOUR);
  rt.advance(7 * 24 * HOUR);
  expect((await sb.stats()).creditsBilled).toBe(6);

  page = await openLoaded(rt, pages);
  await poll(() => text(page, '#schedule-list')).toMatch(/Last run .*: done, 3 rows, 3 credits, 0 errors\./);
  await go(page, 'history');
  await poll(() => page.isVisible('#history-form')).toBe(true);
  expect(await page.inputValue('#history-sheet')).toBe('IG Data history IGPROFILE');
  expect(await page.inputValue('#history-field')).toBe('followers');
  await page.click('#growth');
  await poll(() => text(page, '#history-message')).toBe(
    'Written to “IG Data growth”: 3 accounts, 6 snapshots, a chart of 3.',
  );
  const growth = rt.spreadsheet.sheet('IG Data growth');
  expect(growth.charts).toHaveLength(1);
  expect(growth.charts[0].view().values[0][0]).toEqual(['date', 'nike', 'natgeo', 'nasa']);

  // Run now: a third run, stepped from the sidebar: 3 more snapshots, free (the last run's answers
  // are an hour old, younger than half the period).
  await go(page, 'schedules');
  await page.click('#schedule-list button.run-now');
  await poll(() => text(page, '#schedules-message'), { timeout: 30000 }).toMatch(
    /^Run now: done, 3 rows, 0 credits, 0 errors\.$/,
  );
  expect((await sb.stats()).creditsBilled).toBe(6);
  expect(rt.spreadsheet.sheet('IG Data history IGPROFILE').lastRow()).toBe(10);
  // Deleting asks once more, then the list is empty; what it wrote stays.
  await poll(() => text(page, '#schedule-list button.delete')).toBe('Delete');
  await page.click('#schedule-list button.delete');
  expect(await text(page, '#schedule-list button.delete')).toBe('Delete this schedule?');
  await page.click('#schedule-list button.delete');
  await poll(() => text(page, '#schedules-message')).toBe('Deleted. What it wrote stays.');
  expect(rt.call('igSchedules')).toEqual([]);
  expect(rt.spreadsheet.findSheet('IG Data history IGPROFILE')).toBeTruthy();
}, 60000);
