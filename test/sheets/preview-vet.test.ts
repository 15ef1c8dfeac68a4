/**
 * A newcomer's path to a vetted list in the Sheets preview (headless Chromium, the built add-on in
 * the stand-in, the sandbox): paste 10 accounts into an empty column, select them, "Vet these
 * accounts", preview the cost, Vet; the scorecard sheet appears with verdicts and their colours; a
 * threshold typed at its top changes the verdicts with no request; vetting again costs nothing.
 * SCREENSHOTS_DIR keeps a screenshot of each step.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { TEST_START } from '../support/clock';
import { cellText, dragSelect, paste, previewSuite, shot as screenshot } from './preview-page';
import { go, poll } from './sidebar-page';

const env = previewSuite(TEST_START);
let page: Page;
let sidebar: FrameLocator;
const shot = (name: string) => screenshot(page, `vet-${name}`);
const ACCOUNTS = [
  'nasa',
  'natgeo',
  'nike',
  'starbucks',
  'veganfoodie',
  'plantbasedpaula',
  'trailrunner.leo',
  'small.cafe',
  'locked_acc',
  'no_such_creator_xyz',
];
/** The scorecard's first account row (a settings block and a header above it). */
const FIRST = 9;
const grid = (): Promise<{ sheet: string; values: unknown[][]; backgrounds: Record<string, string> }> =>
  page.evaluate(() => fetch('/grid').then((r) => r.json()));
const verdicts = async () =>
  (await grid()).values.slice(FIRST - 1, FIRST - 1 + ACCOUNTS.length).map((r) => [r[0], r[1]]);
const background = (a1: string) => page.$eval(`td[data-a1="${a1}"]`, (td) => getComputedStyle(td).backgroundColor);

beforeAll(() => {
  ({ page, sidebar } = env);
});

test('from an empty column to a scorecard with verdicts and colours; a threshold changed by hand; a second vet for 0 credits', async () => {
  // 1. Paste the accounts into column D (empty), a header first.
  await paste(page, 'D1', ['account', ...ACCOUNTS]);
  // 2. Select them; 3. "use selection" in Vet these accounts.
  await dragSelect(page, 'D2', 'D11');
  await go(sidebar, 'vet');
  await sidebar.locator('#vet-use-selection').click();
  await poll(() => sidebar.locator('#vet-selection').textContent()).toBe('Sheet1!D2:D11 (10 rows)');
  // 4. The criteria for qualify (typing them ticks it); engagement, audit and niche are ticked already.
  await sidebar.locator('#vet-criteria').fill('vegan food creator');
  await poll(() =>
    sidebar.locator('#vet-checks input:checked').evaluateAll((b) => b.map((x) => (x as HTMLInputElement).value)),
  ).toEqual(['engagement', 'audit', 'niche', 'qualify']);
  await shot('1-chosen');
  // 5. The cost first: per account, in all, against the balance.
  await sidebar.locator('#vet-preview').click();
  await poll(() => sidebar.locator('#vet-text').textContent()).toMatch(
    /^10 accounts × 14 credits \(IGENGAGEMENT 2 \+ IGAUDIT 6 \+ IGNICHE 3 \+ IGQUALIFY 3\) = ~140 credits\. You have [\d,]+\.$/,
  );
  await shot('2-preview');
  const before = (await env.sb.stats()).creditsBilled;
  // 6. Vet: the scorecard comes to the front.
  await sidebar.locator('#vet-run').click();
  await poll(() => sidebar.locator('#vet-text').textContent(), { timeout: 60_000 }).toMatch(
    /^Vetted 10 accounts with IGENGAGEMENT, IGAUDIT, IGNICHE, IGQUALIFY: 140 credits in all\. The scorecard is the sheet “IG Data vet”/,
  );
  expect((await env.sb.stats()).creditsBilled - before).toBe(140);
  await poll(() => cellText(page, `A${FIRST - 1}`)).toBe('account');
  await poll(() => grid().then((g) => g.sheet)).toBe('IG Data vet');
  await shot('3-scorecard');
  const first = await verdicts();
  expect(first).toEqual([
    ['nasa', 'fail'],
    ['natgeo', 'fail'],
    ['nike', 'fail'],
    ['starbucks', 'fail'],
    ['veganfoodie', 'pass'],
    ['plantbasedpaula', 'pass'],
    ['trailrunner.leo', 'fail'],
    ['small.cafe', 'fail'],
    ['locked_acc', 'no data'],
    ['no_such_creator_xyz', 'no data'],
  ]);
  // Colours as Sheets' conditional formatting shows them.
  expect(await background(`B${FIRST + 4}`)).toBe('rgb(183, 225, 205)');
  expect(await background(`B${FIRST}`)).toBe('rgb(244, 199, 195)');
  expect(await background(`B${FIRST + 8}`)).toBe('rgb(217, 217, 217)');
  expect(await cellText(page, `C${FIRST + 8}`)).toMatch(
    /^@locked_acc is private: no public data\. \(Charged 14 credits for 4 checks\.\)$/,
  );

  // 7. A threshold typed at the top: at least 1,000 followers. Verdicts follow; nothing is sent.
  const requests = (await env.sb.stats()).total;
  await page.click('td[data-a1="B2"]');
  await page.fill('#fx', '1000');
  await page.press('#fx', 'Enter');
  await poll(() => verdicts()).toEqual(first.map(([a, v]) => [a, v === 'pass' ? 'fail' : v]));
  expect(await background(`B${FIRST + 4}`)).toBe('rgb(244, 199, 195)');
  expect((await env.sb.stats()).total).toBe(requests);
  await shot('4-threshold');

  // 8. Vetting the same column again: everything is kept (free).
  await page.click('#tabs button:text("Sheet1")');
  await dragSelect(page, 'D2', 'D11');
  await go(sidebar, 'vet');
  await sidebar.locator('#vet-use-selection').click();
  await sidebar.locator('#vet-preview').click();
  await poll(() => sidebar.locator('#vet-text').textContent()).toMatch(
    /= ~0 credits, answers kept from earlier \(40\) free\./,
  );
  await sidebar.locator('#vet-run').click();
  await poll(() => sidebar.locator('#vet-text').textContent(), { timeout: 60_000 }).toMatch(
    /: 0 credits in all\. The scorecard is the sheet “IG Data vet 2”/,
  );
  expect((await env.sb.stats()).creditsBilled - before).toBe(140);
  await shot('5-again');
});
