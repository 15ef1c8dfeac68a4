/**
 * A benchmark in the Sheets preview (headless Chromium, the built add-on in the stand-in, the sandbox), as a user
 * makes it: paste four creators, select them, "Benchmark these accounts", preview, Create; the report comes to the
 * front with its columns as wide as the add-on set them, each numeric row's leader coloured on the page (the
 * conditional format evaluated by scorecard.js) and its two column charts drawn side by side under it, one bar per
 * account in the report's order. SCREENSHOTS_DIR keeps a screenshot.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { TEST_START } from '../support/clock';
import { cellText, dragSelect, paste, previewSuite, settled, shot } from './preview-page';
import { go, poll } from './sidebar-page';

const env = previewSuite(TEST_START);
let page: Page;
let sidebar: FrameLocator;
const ACCOUNTS = ['veganfoodie', 'plantbasedpaula', 'trailrunner.leo', 'small.cafe'];
const VIEW = 'IG Data benchmark Creators';
const grid = (): Promise<{ sheet: string; values: unknown[][] }> =>
  page.evaluate(() => fetch('/grid').then((r) => r.json()));
const background = (a1: string) => page.$eval(`td[data-a1="${a1}"]`, (td) => getComputedStyle(td).backgroundColor);
const LEADER = 'rgb(183, 225, 205)';

beforeAll(() => {
  ({ page, sidebar } = env);
});

test('paste, select, preview, create: the report with its leaders coloured and its two column charts, one bar per account', async () => {
  await paste(page, 'D1', ['account', ...ACCOUNTS]);
  await dragSelect(page, 'D2', 'D5');
  await go(sidebar, 'benchmark');
  await sidebar.locator('#bench-use-selection').click();
  await poll(() => sidebar.locator('#bench-selection').textContent()).toBe('Sheet1!D2:D5 (4 rows)');
  await sidebar.locator('#bench-name').fill('Creators');
  await sidebar.locator('#bench-preview').click();
  // Engagement 2, stats 5, best time 5 credits an account.
  await poll(() => sidebar.locator('#bench-text').textContent()).toMatch(
    /^Now: 48 credits\. Then weekly on Monday at 07:00: 4 accounts × 12 credits \(IGENGAGEMENT 2 \+ IGSTATS 5 \+ IGBESTTIME 5\) = 48 credits a run/,
  );
  const before = (await env.sb.stats()).creditsBilled;
  await sidebar.locator('#bench-create').click();
  await poll(() => sidebar.locator('#bench-text').textContent(), { timeout: 60_000 }).toBe(
    `Benchmarked: 48 credits. The report is the sheet “${VIEW}”.`,
  );
  expect((await env.sb.stats()).creditsBilled - before).toBe(48);
  await poll(() => grid().then((g) => g.sheet)).toBe(VIEW);
  await settled(page);
  await poll(() => page.locator('svg.column').count()).toBe(2);
  await shot(page, 'benchmark');

  // The report as the page shows it: ours first, labels whole in a column as wide as the add-on set it.
  expect(await cellText(page, 'B1')).toBe(`${ACCOUNTS[0]} (ours)`);
  const width = (a1: string) => page.$eval(`td[data-a1="${a1}"]`, (td) => td.getBoundingClientRect().width);
  expect(Math.round(await width('A2'))).toBe(240);
  expect(Math.round(await width('B2'))).toBe(150);
  const values = (await grid()).values;
  const rowOf = (label: string) => values.findIndex((r) => r[0] === label) + 1;
  // Each numeric row's leader coloured, and it alone: the largest number of its row.
  for (const label of ['Followers', 'Engagement rate %', 'Posts per week']) {
    const r = rowOf(label);
    const numbers = values[r - 1].slice(1, 5) as number[];
    const colours = await Promise.all(['B', 'C', 'D', 'E'].map((c) => background(`${c}${r}`)));
    expect([label, colours.map((c) => c === LEADER)]).toEqual([label, numbers.map((n) => n === Math.max(...numbers))]);
  }
  // Text rows and the growth row before a second run: no leader.
  for (const label of ['Best format', 'Follower growth since the previous run'])
    expect(await background(`B${rowOf(label)}`)).not.toBe(LEADER);

  // The engagement chart: a bar per account, in the report's order, heights ordered as the values; growth waits.
  const charts = page.locator('svg.column');
  const bars = await charts
    .nth(0)
    .locator('rect.bar')
    .evaluateAll((rs) => rs.map((r) => [r.getAttribute('data-category'), Number(r.getAttribute('height'))]));
  const engagement = values[rowOf('Engagement rate %') - 1].slice(1, 5) as number[];
  expect(bars.map(([c]) => c)).toEqual(values[0].slice(1, 5));
  const order = (xs: number[]) => xs.map((_, i) => i).sort((a, b) => xs[a] - xs[b]);
  expect(order(bars.map(([, h]) => h as number))).toEqual(order(engagement));
  expect(await charts.nth(1).textContent()).toContain('No numbers to chart yet');
  // Side by side, both in sight beside the sidebar.
  const boxes = await page.$$eval('.chart-box', (bs) => bs.map((b) => b.getBoundingClientRect().toJSON()));
  expect(boxes).toHaveLength(2);
  expect(boxes[1].left).toBeGreaterThan(boxes[0].right);
  expect(boxes[1].top).toBe(boxes[0].top);
}, 180_000);
