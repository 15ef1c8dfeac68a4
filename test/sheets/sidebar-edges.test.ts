/**
 * The built sidebar in headless Chromium (stand-in + sandbox): when the chosen targets no longer
 * fit their sheet (rows deleted since), Apps Script's raw "coordinates of the range are outside
 * the dimensions of the sheet" becomes a sentence that says what to do.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import type { SandboxProcess } from './harness';
import { openLoaded, poll, sidebarSuite, text } from './sidebar-page';

const env = sidebarSuite();
let sb: SandboxProcess;
let rt: GasRuntime;
const pages = env.pages;
beforeAll(() => {
  ({ sb, rt } = env);
});

test('targets past the last row of the sheet: a clear message, not the raw Apps Script error', async () => {
  const sheet = rt.spreadsheet.sheet('Sheet1');
  for (let r = 2; r <= 1000; r++) sheet.set(r, 1, r % 2 ? 'nasa' : 'natgeo');
  rt.spreadsheet.select('Sheet1!A2:A1001'); // chosen before row 1,001 was deleted
  const page = await openLoaded(rt, pages);
  await page.click('#use-selection');
  await poll(() => text(page, '#selection')).toBe('Sheet1!A2:A1001 (1000 rows)');
  await page.selectOption('#endpoint', 'profile');
  await page.click('#preview');
  await poll(() => text(page, '#preview-text')).toBe(
    'The targets go past the last row of their sheet (were rows deleted?). Select the column again, press \u201cuse selection\u201d and preview again.',
  );
  expect(await page.isEnabled('#run')).toBe(false);
});

test('after a list run and a history run the sidebar names the sheet each wrote, and History lists the new history sheet', async () => {
  // (the sidebar tells a job's output by its kind: rows, list or history)
  const sheet = rt.spreadsheet.addSheet('Kinds');
  ['nasa', 'natgeo', 'nasa'].forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Kinds!A1:A3');
  const page = await openLoaded(rt, pages);
  await page.click('#use-selection');
  await poll(() => text(page, '#selection')).toBe('Kinds!A1:A3 (3 rows)');

  await page.selectOption('#endpoint', 'profile/posts');
  await page.click('#preview');
  await poll(() => page.isEnabled('#run')).toBe(true);
  await page.click('#run');
  await poll(() => text(page, '#progress-text')).toMatch(/^Done: 3 of 3 rows \(100%\), [1-9]\d* rows written, .*, 1 repeated target skipped\.$/);
  expect(await text(page, '#bulk-message')).toMatch(/^Written to the new sheet \u201cIG Data IGPOSTS[^\u201d]*\u201d \(its tab is at the bottom of the window\)\.$/);

  expect(await page.isVisible('#history-none')).toBe(true);
  await page.selectOption('#endpoint', 'profile');
  await page.fill('#fields', 'followers');
  await page.check('#output-history');
  await page.click('#preview');
  await poll(() => page.isEnabled('#run')).toBe(true);
  await page.click('#run');
  await poll(() => text(page, '#bulk-message')).toMatch(/^Written to the history sheet \u201cIG Data history IGPROFILE[^\u201d]*\u201d \(a dated row per target\)\.$/);
  await poll(() => page.isHidden('#history-none')).toBe(true);
  expect(await page.locator('#history-sheet option').allTextContents()).toContain(
    rt.spreadsheet.sheets.map((s) => s.name).find((n) => n.startsWith('IG Data history IGPROFILE')),
  );
});
