/**
 * The built sidebar in headless Chromium (stand-in + sandbox): when the chosen targets no longer
 * fit their sheet (rows deleted since), Apps Script's raw "coordinates of the range are outside
 * the dimensions of the sheet" becomes a sentence that says what to do; a new run (or a vet) while
 * one is paused asks first and keeps the first unless told otherwise; the sidebar decides by the
 * data it is given (a run's status, whether the output is free), never by a sentence's words.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { DEMO_KEY, PROP } from './harness';
import type { SandboxProcess } from './harness';
import { go, openLoaded, poll, sidebarSuite, text } from './sidebar-page';

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
  await go(page, 'bulk');
  await page.click('#use-selection');
  await poll(() => text(page, '#selection')).toBe('Sheet1!A2:A1001 (1,000 rows)');
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
  await go(page, 'bulk');
  await page.click('#use-selection');
  await poll(() => text(page, '#selection')).toBe('Kinds!A1:A3 (3 rows)');

  await page.selectOption('#endpoint', 'profile/posts');
  await page.click('#preview');
  await poll(() => page.isEnabled('#run')).toBe(true);
  await page.click('#run');
  await poll(() => text(page, '#progress-text')).toMatch(
    /^Done: 3 of 3 rows \(100%\), [1-9]\d* rows written, .*, 1 repeated target skipped\.$/,
  );
  expect(await text(page, '#bulk-message')).toMatch(
    /^Written to the new sheet \u201cIG Data IGPOSTS[^\u201d]*\u201d \(its tab is at the bottom of the window\)\.$/,
  );

  await go(page, 'history');
  expect(await page.isVisible('#history-none')).toBe(true);
  await go(page, 'bulk');
  await page.selectOption('#endpoint', 'profile');
  await page.fill('#fields', 'followers');
  await page.check('#output-history');
  await page.click('#preview');
  await poll(() => page.isEnabled('#run')).toBe(true);
  await page.click('#run');
  await poll(() => text(page, '#bulk-message')).toMatch(
    /^Written to the history sheet \u201cIG Data history IGPROFILE[^\u201d]*\u201d \(a dated row per target\)\.$/,
  );
  await go(page, 'history');
  await poll(() => page.isHidden('#history-none')).toBe(true);
  expect(await page.locator('#history-sheet option').allTextContents()).toContain(
    rt.spreadsheet.sheets.map((s) => s.name).find((n) => n.startsWith('IG Data history IGPROFILE')),
  );
});

/** A bulk run over `handles` in a new sheet (`first`), paused out of credits after `credits` lookups (the demo key is set again after). */
async function pausedRun(sheet: string, handles: string[], credits: number) {
  const grid = rt.spreadsheet.addSheet(sheet);
  handles.forEach((h, i) => grid.set(i + 1, 1, h));
  rt.spreadsheet.select(`'${sheet}'!A1:A${handles.length}`);
  rt.properties.document.set(PROP.apiKey, await sb.createKey(credits));
  let job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'beside' });
  while (job.status === 'running') job = rt.call('igBulkStep', job.id);
  rt.properties.document.set(PROP.apiKey, DEMO_KEY);
  return { job, first: grid };
}

test('Run while another run is paused asks first: "Keep that run" starts nothing; "Run this one instead" replaces it, its written rows stay', async () => {
  // (nasa and natgeo answers are cached by the test before: they come last here)
  const { job, first } = await pausedRun('Paused', ['nike', 'starbucks', 'bbcnews', 'instagram', 'nasa'], 2);
  expect(job).toMatchObject({ status: 'paused', next: 2 });

  const second = rt.spreadsheet.addSheet('Second');
  ['nasa', 'nike'].forEach((h, i) => second.set(i + 1, 1, h));
  rt.spreadsheet.select('Second!A1:A2');
  const page = await openLoaded(rt, pages);
  await go(page, 'bulk');
  await page.click('#use-selection');
  await poll(() => text(page, '#selection')).toBe('Second!A1:A2 (2 rows)');
  await page.selectOption('#endpoint', 'profile');
  await page.fill('#fields', 'followers');
  await page.click('#preview');
  await poll(() => page.isEnabled('#run')).toBe(true);
  await page.click('#run');
  await poll(() => page.isVisible('#replace-confirm')).toBe(true);
  expect(await text(page, '#replace-question')).toBe(
    'Another bulk run is paused at 2 of 5 rows (columns B:B of Paused). Run this one instead? What it wrote stays; its other 3 rows would not be looked up.',
  );
  await page.click('#replace-no');
  await poll(() => text(page, '#bulk-message')).toBe(
    'Nothing was started: that run was kept. Resume it, or cancel it and run this one.',
  );
  expect(JSON.parse(rt.properties.document.get(PROP.job)!)).toMatchObject({ id: job.id, status: 'paused', next: 2 });
  expect(second.getValues('B1:B2').flat()).toEqual(['', '']);

  await page.click('#run');
  await poll(() => page.isVisible('#replace-confirm')).toBe(true);
  await page.click('#replace-yes');
  await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(/^Done: 2 of 2 rows/);
  expect(second.getValues('B1:B2').every((r) => typeof r[0] === 'number')).toBe(true);
  expect(first.getValues('B1:B5').map((r) => typeof r[0])).toEqual(['number', 'number', 'string', 'string', 'string']);
  expect(first.getValues('B3:B5').flat()).toEqual(['', '', '']);
}, 60000);

test('a sheet whose name reads "not empty": the preview of empty columns beside lets Run start (the preview says whether they are free, not its words)', async () => {
  const sheet = rt.spreadsheet.addSheet('Leads not empty');
  ['nasa', 'natgeo'].forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select("'Leads not empty'!A1:A2");
  const page = await openLoaded(rt, pages);
  await go(page, 'bulk');
  await page.click('#use-selection');
  await poll(() => text(page, '#selection')).toMatch(/^'?Leads not empty'?!A1:A2 \(2 rows\)$/);
  await page.selectOption('#endpoint', 'profile');
  await page.fill('#fields', 'followers');
  await page.click('#preview');
  await poll(() => text(page, '#preview-text')).toMatch(/Output: columns B:B of Leads not empty\.$/);
  expect(await page.isEnabled('#run')).toBe(true);
});

test('Vet while the bulk run is paused asks first (by the run\u2019s status): nothing starts until "Vet instead", which writes the scorecard in its place', async () => {
  const { job, first } = await pausedRun('Paused for vet', ['veganfoodie', 'plantbasedpaula', 'trailrunner.leo'], 1);
  expect(job).toMatchObject({ status: 'paused', next: 1 });

  const accounts = rt.spreadsheet.addSheet('Accounts');
  accounts.set(1, 1, 'nasa');
  rt.spreadsheet.select('Accounts!A1:A1');
  const page = await openLoaded(rt, pages);
  await go(page, 'vet');
  await page.click('#vet-use-selection');
  await poll(() => text(page, '#vet-selection')).toBe('Accounts!A1 (1 row)');
  await page.click('#vet-preview');
  await poll(() => page.isEnabled('#vet-run')).toBe(true);
  await page.click('#vet-run');
  await poll(() => page.isVisible('#vet-replace')).toBe(true);
  expect(await text(page, '#vet-text')).toBe(
    'Another bulk run is paused at 1 of 3 rows (IGPROFILE, Paused for vet). Vet instead? What it wrote stays; its other 2 rows would not be looked up.',
  );
  expect(JSON.parse(rt.properties.document.get(PROP.job)!)).toMatchObject({ id: job.id, status: 'paused' });
  expect(() => rt.spreadsheet.sheet('IG Data vet')).toThrow();

  await page.click('#vet-replace');
  await poll(() => text(page, '#vet-text'), { timeout: 30000 }).toMatch(/^Vetted 1 account with /);
  expect(first.getValues('B1:B3').map((r) => typeof r[0])).toEqual(['number', 'string', 'string']);
}, 60000);
