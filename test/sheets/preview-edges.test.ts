/**
 * The rough edges a new user met in the Sheets preview and the sidebar (issue 11), in headless
 * Chromium against the preview server and the sandbox: typing into a cell after a sidebar button,
 * pasting a 1,000-row column and previewing a bulk run over A2:A1001, a run to a new sheet that
 * names it and shows its tab, long messages readable whole, the key messages in Settings, Remove
 * asking first, and the balance following the credits formulas spend.
 * Set SCREENSHOTS_DIR to keep a screenshot of each step.
 */
import type { Browser, FrameLocator, Page } from 'playwright-core';
import type { spawnServer } from '../../scripts/gas-standin/testServer';
import { DEMO_KEY, SandboxProcess } from './harness';
import { cellText, paste, previewSuite, settled, shot as screenshot } from './preview-page';
import { TEST_START } from '../support/clock';
import { go, poll } from './sidebar-page';

let sb: SandboxProcess;
let preview: Awaited<ReturnType<typeof spawnServer>>;
let browser: Browser;
let page: Page;
let sidebar: FrameLocator;
const env = previewSuite(TEST_START);

const cell = (a1: string) => cellText(page, a1);
const fmt = (n: number) => n.toLocaleString('en-US');
const shot = (name: string, p: Page = page) => screenshot(p, name);
const HANDLES = ['nasa', '@natgeo', 'https://www.instagram.com/nike/', 'starbucks', 'NASA', 'locked_acc', 'bbcnews'];

async function type(a1: string, input: string) {
  await page.click(`td[data-a1="${a1}"]`);
  await page.fill('#fx', input);
  await page.press('#fx', 'Enter');
}

beforeAll(async () => {
  ({ sb, preview, browser, page, sidebar } = env);
  await poll(() => cell('A2')).toBe('nasa');
  await poll(() => sidebar.locator('#balance').textContent()).toMatch(/credits$/);
});

test('after a sidebar button, clicking a cell and typing goes into the cell', async () => {
  await go(sidebar, 'settings');
  await sidebar.locator('#refresh-balance').click();
  await go(sidebar, 'bulk');
  await sidebar.locator('#preview').click();
  await page.click('td[data-a1="E12"]');
  await page.keyboard.type('typed after the sidebar');
  await page.keyboard.press('Enter');
  await poll(() => cell('E12')).toBe('typed after the sidebar');
  // and the arrow keys move the cursor, as in Sheets
  await page.keyboard.press('ArrowUp');
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await poll(() => cell('E12')).toBe('7');
  await shot('typed');
});

test('a long message is cut in the cell but readable whole (hover and the line under the formula bar)', async () => {
  await type('D2', '=IGPROFILE("locked_acc","followers")');
  const message = '@locked_acc is private: no public data. (Charged 1 credit.)';
  await poll(() => cell('D2')).toBe(message);
  // the cell is narrower than the message: it is cut on screen
  // polled: the grid re-renders after each answer, and the first read can meet a cell mid-layout
  await poll(() => page.$eval('td[data-a1="D2"]', (td) => td.scrollWidth > td.clientWidth)).toBe(true);
  expect(await page.getAttribute('td[data-a1="D2"]', 'title')).toContain(message);
  await page.click('td[data-a1="D2"]');
  expect(await page.textContent('#value')).toBe(`D2: ${message}`);
  await shot('long-message');
});

test('the balance follows the credits formulas spend, without pressing refresh', async () => {
  const before = await sb.balance(DEMO_KEY);
  await poll(() => sidebar.locator('#balance').textContent()).toBe(`${fmt(before)} credits`);
  await type('D4', '=IGABOUT("bbcnews","account_created")');
  await poll(() => cell('D4')).not.toBe('');
  const after = await sb.balance(DEMO_KEY);
  expect(after).toBe(before - 2);
  await poll(() => sidebar.locator('#balance').textContent()).toBe(`${fmt(after)} credits`);
});

test('paste a 1,000-row column; a bulk preview over A2:A1001 counts it (the sheet grows as Sheets does)', async () => {
  const rows = Array.from({ length: 1000 }, (_, i) => HANDLES[i % HANDLES.length]);
  await paste(page, 'A2', rows);
  expect(await cell('A1001')).toBe(rows[999]);
  expect(await cell('A8')).toBe('bbcnews');
  expect(await page.textContent('#name')).toBe('A2:A1001');
  await settled(page);
  await sidebar.locator('#use-selection').click();
  await poll(() => sidebar.locator('#selection').textContent()).toBe('Sheet1!A2:A1001 (1,000 rows)');
  await sidebar.locator('#endpoint').selectOption('profile');
  await sidebar.locator('#fields').fill('username,followers');
  await sidebar.locator('#preview').click();
  // natgeo, nike, starbucks, nasa, locked_acc, bbcnews (bbcnews and nasa are cached by now)
  await poll(() => sidebar.locator('#preview-text').textContent()).toMatch(
    /^6 unique targets in 1,000 rows, .*Output: columns B:C of Sheet1\.$/,
  );
  expect(await sidebar.locator('#preview-text').textContent()).not.toMatch(/coordinates|outside the dimensions/);
  await shot('paste-1000');
});

test('a bulk run to a new sheet names the sheet, and its tab shows it', async () => {
  await page.click('td[data-a1="A2"]');
  await page.click('td[data-a1="A8"]', { modifiers: ['Shift'] });
  await settled(page);
  await sidebar.locator('#use-selection').click();
  await poll(() => sidebar.locator('#selection').textContent()).toBe('Sheet1!A2:A8 (7 rows)');
  await sidebar.locator('#endpoint').selectOption('profile');
  await sidebar.locator('#fields').fill('username,followers');
  await sidebar.locator('#output-sheet').check();
  await sidebar.locator('#preview').click();
  await poll(() => sidebar.locator('#preview-text').textContent()).toMatch(/Output: a new sheet\.$/);
  await sidebar.locator('#run').click();
  await poll(() => sidebar.locator('#progress-text').textContent(), { timeout: 30_000 }).toMatch(/^Done: 7 of 7 rows/);
  await poll(() => sidebar.locator('#bulk-message').textContent()).toBe(
    'Written to the new sheet \u201cIG Data IGPROFILE\u201d (its tab is at the bottom of the window).',
  );
  // the grid shows the new sheet, as Sheets does after a script creates one; both tabs are there
  await poll(() => page.textContent('#tabs button.on')).toBe('IG Data IGPROFILE');
  expect(await page.$$eval('#tabs button', (b) => b.map((x) => x.textContent))).toEqual([
    'Sheet1',
    'IG Data IGPROFILE',
  ]);
  await poll(() => cell('B2')).toBe('nasa');
  expect(await cell('A3')).toBe('@natgeo');
  expect(Number(await cell('C3'))).toBeGreaterThan(0);
  await shot('new-sheet');
  // The page redraws its tabs when a refresh lands: a click on a tab being replaced is lost (seen under load).
  await settled(page);
  // A refresh asked for while the click on a tab is on its way (a sidebar call ended), answered by the server
  // first, with the tab as it was before the click (a POST waits for its body; a GET does not): the page draws
  // the click's grid, the newer one by the server's order, not the refresh sent after it (seen in CI).
  let gridMade!: () => void;
  const made = new Promise<void>((r) => (gridMade = r));
  let clicked = false;
  await page.route('**/sheet', async (route) => {
    clicked = true;
    await made;
    await route.continue();
  });
  // Only a refresh sent after the click is answered before it (one may be on its way already).
  await page.route('**/grid', async (route) => {
    if (!clicked) return route.continue();
    const answer = await route.fetch();
    gridMade();
    await route.fulfill({ response: answer });
  });
  await page.click('#tabs button:text("Sheet1")');
  await page.evaluate(() => window.postMessage({ gasRan: true, gasCall: 0 }, '*')); // as the sidebar's shim says
  await poll(() => page.textContent('#tabs button.on')).toBe('Sheet1');
  await settled(page);
  expect(await page.textContent('#tabs button.on')).toBe('Sheet1');
  await page.unrouteAll();
  await poll(() => cell('A8')).toBe('bbcnews');
});

test('in Settings, a wrong key says it was not saved and what to do; Remove asks first', async () => {
  await go(sidebar, 'settings');
  await sidebar.locator('#key').fill('sk_wrong_0000');
  await sidebar.locator('#test-key').click();
  await poll(() => sidebar.locator('#key-message').textContent()).toBe(
    'The service does not accept this key (invalid API key). Copy the whole key again from your dashboard at igdata.dev and paste it above. The sheet still uses the key ••••••••6789. (Not charged.)',
  );
  await sidebar.locator('#save-key').click();
  await poll(() => sidebar.locator('#key-message').textContent()).toMatch(
    /^This key was not saved: the service does not accept it \(invalid API key\)\. .* The sheet still uses the key ••••••••6789\. \(Not charged\.\)$/,
  );
  expect(await sidebar.locator('#key-status').textContent()).toMatch(/^Key •+6789 is set/);
  await shot('wrong-key');

  await sidebar.locator('#remove-key').click();
  expect(await sidebar.locator('#remove-confirm').isVisible()).toBe(true);
  await shot('remove-confirm');
  await sidebar.locator('#remove-no').click();
  await poll(() => sidebar.locator('#key-message').textContent()).toBe('The key was kept.');
  expect(await sidebar.locator('#key-status').textContent()).toMatch(/^Key •+6789 is set/);

  await sidebar.locator('#remove-key').click();
  await sidebar.locator('#remove-yes').click();
  await poll(() => sidebar.locator('#key-status').textContent()).toMatch(/^No API key is set/);
  expect(await sidebar.locator('#get-key').isVisible()).toBe(true);
  expect(await sidebar.locator('#dashboard-link').getAttribute('href')).toBe('https://igdata.dev');
  await sidebar.locator('#key').fill(DEMO_KEY);
  await sidebar.locator('#save-key').click();
  await poll(() => sidebar.locator('#key-message').textContent()).toMatch(/^Saved\. The key works/);
});

test('while the sidebar is open, the balance is read again every minute', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const p = await ctx.newPage();
  await p.clock.install();
  await p.goto(preview.url);
  const side = p.frameLocator('#sidebar');
  await poll(() => side.locator('#balance').textContent()).toMatch(/credits$/);
  // spend credits outside this page (another user's formula): nothing tells the sidebar
  const key = DEMO_KEY;
  await fetch(`${sb.url}/v1/profile/about?handle=natgeo`, { headers: { authorization: `Bearer ${key}` } });
  const now = await sb.balance(key);
  expect(await side.locator('#balance').textContent()).not.toBe(`${fmt(now)} credits`);
  await p.clock.fastForward('01:01');
  await poll(() => side.locator('#balance').textContent()).toBe(`${fmt(now)} credits`);
  await ctx.close();
});

test('=IMAGE shows a media link the sandbox serves: a profile picture fetched by a formula, drawn in its cell', async () => {
  await type('H2', '=IGPROFILE("nasa","profile_pic_url")');
  await poll(() => cell('H2')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/media\/avatars\/.+\.png\?exp=\d+&sig=/);
  await type('H3', '=IMAGE(H2)');
  const img = page.locator('td[data-a1="H3"] img.cell-image');
  await poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
  await type('H4', '=IMAGE("not a link")');
  await poll(() => page.getAttribute('td[data-a1="H4"]', 'title')).toMatch(/IMAGE takes a URL/);
  await shot('image');
});
