/**
 * A newcomer's path to a tracker in the Sheets preview (headless Chromium, the built add-on in the
 * stand-in, the sandbox): paste a column of accounts into an empty column, select it, open "Track
 * these accounts", preview the cost, confirm; the first run happens at once and the tracker sheet
 * appears; the page's clock moves two weeks (the hourly trigger does the weekly runs) and the
 * tracker shows three snapshots a line, its SPARKLINE trends drawn, and each account's followers
 * trend rises or falls as the sandbox's world moved (scripts/sandbox/world/moving.ts).
 * SCREENSHOTS_DIR keeps a screenshot of each step.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { getWorld } from '../../scripts/sandbox/world/build';
import { followerRate } from '../../scripts/sandbox/world/moving';
import { cellText, dragSelect, paste, previewSuite, shot as screenshot } from './preview-page';
import { go, poll } from './sidebar-page';

/**
 * Wednesday 2026-11-25 10:00 UTC. The tracker's weekly run is Monday 07:00, and a scheduled run
 * reuses answers younger than half its period: created on a Wednesday, the first Monday is five
 * days on, so both weekly runs fetch (36 + 36 + 36 credits).
 */
const START = '2026-11-25T10:00:00Z';
const env = previewSuite(START);
let page: Page;
let sidebar: FrameLocator;
const shot = (name: string) => screenshot(page, `tracker-${name}`);
/** 12 public accounts of the sandbox (seed 42). */
const ACCOUNTS = [...getWorld(42).byUsername.values()]
  .filter((a) => !a.is_private)
  .slice(0, 12)
  .map((a) => a.username);
const grid = (): Promise<{ sheet: string; sparklines: Record<string, number[]>; values: unknown[][] }> =>
  page.evaluate(() => fetch('/grid').then((r) => r.json()));

async function advanceWeek() {
  await page.click('#clockbar button:text("+1 week")');
  await poll(() => page.textContent('#advanced'), { timeout: 60_000 }).toBe(
    'Moved 1 week: the hourly trigger ran 168 times, all ok.',
  );
}

beforeAll(() => {
  ({ page, sidebar } = env);
});

test('from an empty column to a tracker that has run three times, in a few steps', async () => {
  // 1. Paste the accounts into column D (empty), a header first.
  await paste(page, 'D1', ['account', ...ACCOUNTS]);
  // 2. Select them; 3. "use selection" in Track these accounts.
  await dragSelect(page, 'D2', 'D13');
  await go(sidebar, 'tracker');
  await sidebar.locator('#tracker-use-selection').click();
  await poll(() => sidebar.locator('#tracker-selection').textContent()).toBe('Sheet1!D2:D13 (12 rows)');
  // The defaults: followers, posts, engagement rate (a profile and an engagement insight).
  await poll(() => sidebar.locator('#tracker-fields').inputValue()).toBe('followers, posts, engagement_rate_pct');
  await sidebar.locator('#tracker-name').fill('Creators');
  await shot('1-chosen');
  // 4. The cost first.
  await sidebar.locator('#tracker-preview').click();
  await poll(() => sidebar.locator('#tracker-text').textContent()).toMatch(
    /^12 accounts × 3 credits \(IGPROFILE \+ IGENGAGEMENT\) = 36 credits a run, about 157 a month \(weekly on Monday at 07:00\)\. First run: now; then .*\. You have [\d,]+\./,
  );
  await shot('2-preview');
  const before = (await env.sb.stats()).creditsBilled;
  // 5. Confirm: the first run happens now, stepped by the sidebar.
  await sidebar.locator('#tracker-create').click();
  await poll(() => sidebar.locator('#tracker-text').textContent(), { timeout: 60_000 }).toMatch(
    /^Tracking\. First run done: 36 credits\. The tracker is the sheet “IG Data tracker Creators”\./,
  );
  expect((await env.sb.stats()).creditsBilled - before).toBe(36);
  await poll(() =>
    page
      .locator('#tabs button')
      .allTextContents()
      .then((t) => t.includes('IG Data tracker Creators')),
  ).toBe(true);
  await poll(() => sidebar.locator('#tracker-list').textContent()).toMatch(
    /Creators: 12 accounts, followers, posts, engagement_rate_pct/,
  );
  await shot('3-tracking');

  // Two weeks later: the hourly trigger did two weekly runs, 36 credits each.
  await advanceWeek();
  await advanceWeek();
  expect((await env.sb.stats()).creditsBilled - before).toBe(108);
  await page.click('#tabs button:text("IG Data tracker Creators")');
  await poll(() => cellText(page, 'A1')).toBe('account');
  const g = await grid();
  const header = g.values[0] as string[];
  expect(header.slice(0, 6)).toEqual([
    'account',
    'fetched',
    'followers',
    'followers change',
    'followers change %',
    'followers trend',
  ]);
  // Drawn as Sheets draws the formats the add-on set: counts with thousands separators ("#,##0"),
  // changes in % with one decimal ("0.0%"); the values themselves stay numbers.
  for (let r = 2; r <= 13; r++) {
    const followers = g.values[r - 1][2] as number;
    const pct = g.values[r - 1][4] as number;
    expect(await cellText(page, `C${r}`)).toBe(followers.toLocaleString('en-US', { maximumFractionDigits: 0 }));
    expect(await cellText(page, `E${r}`)).toBe(`${(pct * 100).toFixed(1)}%`.replace(/^-(0\.0%)$/, '$1'));
    expect(await cellText(page, `E${r}`)).toMatch(/^-?\d+\.\d%$/);
  }
  expect(Math.max(...g.values.slice(1, 13).map((r) => r[2] as number))).toBeGreaterThan(999);
  const accounts = g.values
    .slice(1)
    .map((r) => r[0])
    .filter((a) => a !== '');
  expect([...accounts].sort()).toEqual([...ACCOUNTS].sort());
  // Every account: a trend of three points in each field's trend column, drawn as a line.
  const trendCols = header.flatMap((h, i) => (String(h).endsWith(' trend') ? [i] : []));
  expect(trendCols).toHaveLength(3);
  for (let r = 2; r <= 13; r++) {
    for (const c of trendCols) expect(g.sparklines[`${String.fromCharCode(65 + c)}${r}`]).toHaveLength(3);
  }
  await poll(() => page.locator('td.spark svg[data-points="3"]').count()).toBe(36);
  // The world moved with the preview's clock, to each hourly run's instant: the Mondays' runs saw
  // each account's followers drifted at its own rate, up for some, down for others, never flat.
  const world = getWorld(42);
  const directions = new Set<number>();
  for (let r = 2; r <= 13; r++) {
    const a = world.byUsername.get(String(g.values[r - 1][0]))!;
    const points = g.sparklines[`F${r}`];
    expect(points[0]).toBe(a.followers);
    // Monday 07:00, 4 days 21 hours after the start, then a week later
    for (const [k, days] of [
      [1, 4 + 21 / 24],
      [2, 11 + 21 / 24],
    ]) {
      expect(Math.abs(points[k] - a.followers * (1 + followerRate(world, a)) ** days)).toBeLessThanOrEqual(
        Math.max(1, a.followers * 1e-5),
      );
    }
    expect(Math.sign(points[2] - points[0])).toBe(Math.sign(followerRate(world, a)));
    directions.add(Math.sign(points[2] - points[0]));
  }
  expect([...directions].sort()).toEqual([-1, 1]);
  // Usage names the tracker.
  await poll(() => sidebar.locator('#usage-days').textContent()).toMatch(/Tracker Creators/);
  await shot('4-after-two-weeks');
});
