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
