/**
 * The Sheets preview (scripts/sheets-preview/server.mjs, started by `npm start`): the built add-on in
 * the Apps Script stand-in behind a local page with a grid and the real sidebar, against the sandbox
 * (child process). In headless Chromium: a range formula spills into the grid; the sidebar reads the
 * balance and runs a bulk job whose values land in the grid.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { DEMO_KEY, SandboxProcess } from './harness';
import { cellText, dragSelect, previewSuite, settled } from './preview-page';
import { TEST_START } from '../support/clock';
import { go, poll } from './sidebar-page';

let sb: SandboxProcess;
let page: Page;
let sidebar: FrameLocator;
const env = previewSuite(TEST_START);

const cell = (a1: string) => cellText(page, a1);
const fmt = (n: number) => n.toLocaleString('en-US');

async function type(a1: string, input: string) {
  await page.click(`td[data-a1="${a1}"]`);
  await page.fill('#fx', input);
  await page.press('#fx', 'Enter');
}

beforeAll(async () => {
  ({ sb, page, sidebar } = env);
});

test('the page says what it is and shows the prefilled handles', async () => {
  expect(await page.textContent('header')).toBe(
    'Sheets preview: the built add-on in a local Apps Script stand-in against the sandbox — not Google Sheets',
  );
  await poll(() => cell('A2')).toBe('nasa');
  expect(await cell('A3')).toBe('@natgeo');
  expect(await cell('A4')).toBe('https://www.instagram.com/nike/');
});

test('a range formula typed into B2 spills numbers into B2:B4; errors show as text in the cell', async () => {
  await type('B2', '=IGPROFILE(A2:A4,"followers")');
  await poll(() => cell('B4')).toMatch(/^\d+$/);
  for (const a1 of ['B2', 'B3', 'B4']) expect(Number(await cell(a1))).toBeGreaterThan(0);
  await page.click('td[data-a1="B2"]');
  expect(await page.inputValue('#fx')).toBe('=IGPROFILE(A2:A4,"followers")');
  expect(await cell('B5')).toBe('');

  await type('D2', '=IGENGAGEMENT(A2,12,"engagement_rate_pct")');
  await poll(() => cell('D2')).toMatch(/^\d+(\.\d+)?$/);

  await type('D4', '=IGNOPE(A2)');
  await poll(() => cell('D4')).toBe("Unknown function: 'IGNOPE'.");
  // spilling over data is refused, as Sheets does
  await type('B1', '=IGPROFILE(A2:A3,"followers")');
  await poll(() => cell('B1')).toMatch(/^Array result was not expanded because it would overwrite data in B2\.$/);
});

test('the sidebar reads the balance and a bulk run writes into the grid', async () => {
  await poll(() => sidebar.locator('#key-status').textContent()).toMatch(/^Key •+6789 is set/);
  await poll(() => sidebar.locator('#balance').textContent()).toMatch(/credits$/);
  await go(sidebar, 'settings');
  await sidebar.locator('#refresh-balance').click();
  const balance = await sb.balance(DEMO_KEY);
  await poll(() => sidebar.locator('#balance').textContent()).toBe(`${fmt(balance)} credits`);

  // handles in F2:F3, selected by dragging; the run writes username, followers into G:H
  await type('F2', 'nasa');
  await type('F3', '@natgeo');
  await dragSelect(page, 'F2', 'F3');
  await go(sidebar, 'bulk');
  await sidebar.locator('#use-selection').click();
  await poll(() => sidebar.locator('#selection').textContent()).toBe('Sheet1!F2:F3 (2 rows)');
  await sidebar.locator('#endpoint').selectOption('profile');
  await sidebar.locator('#fields').fill('username,followers');
  await sidebar.locator('#preview').click();
  await poll(() => sidebar.locator('#preview-text').textContent()).toMatch(/Output: columns G:H of Sheet1\.$/);
  await sidebar.locator('#run').click();
  await poll(() => sidebar.locator('#progress-text').textContent(), { timeout: 30_000 }).toMatch(/^Done: 2 of 2 rows/);
  // The last grid may still be on its way: CI once read G3 blank from a grid drawn after G2 was written.
  await settled(page);
  await poll(() => cell('G2')).toBe('nasa');
  expect(await cell('G3')).toBe('natgeo');
  expect(Number(await cell('H3'))).toBeGreaterThan(0);
});

test('the sidebar shows the freshness setting (7 days by default) and saves a new one', async () => {
  await go(sidebar, 'settings');
  await poll(() => sidebar.locator('#fresh').inputValue()).toBe('168');
  await sidebar.locator('#fresh').selectOption('720');
  await poll(() => sidebar.locator('#fresh-message').textContent()).toBe('Saved: answers are reused for 30 days.');
  await sidebar.locator('#fresh').selectOption('168');
  await poll(() => sidebar.locator('#fresh-message').textContent()).toBe('Saved: answers are reused for 7 days.');
});

test('the sidebar shows where the credits went this month, against the balance', async () => {
  await go(sidebar, 'usage');
  await sidebar.locator('#usage-refresh').click();
  await poll(() => sidebar.locator('#usage-month').textContent()).toMatch(
    /^This month: [1-9][\d,]* credits spent; [\d,]+ left\.$/,
  );
  // the formulas typed above, by function and cell (the bulk run above reused their answers: free)
  const what = await sidebar.locator('#usage-days tr.what td:first-child').allTextContents();
  expect(what).toEqual(expect.arrayContaining(['IGPROFILE B2', 'IGENGAGEMENT D2']));
  await sidebar.locator('#usage-export').click();
  await poll(() => sidebar.locator('#usage-message').textContent()).toBe(
    'Written to the sheet \u201cIG Data usage\u201d.',
  );
});
