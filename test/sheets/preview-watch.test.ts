/**
 * "Watch a hashtag" in the Sheets preview (headless Chromium, the built add-on in the stand-in, the
 * sandbox): type a tag in the sidebar, preview the cost, confirm; the first run writes the tag's
 * newest page to the watch's sheet at once; posts are published on the tag and the page's clock
 * moves a day (the hourly trigger runs the watch every hour): the new posts are the sheet's last
 * rows, each once, thumbnails drawn. SCREENSHOTS_DIR keeps a screenshot of each step.
 */
import type { FrameLocator, Page } from 'playwright-core';
import { previewSuite, settled, shot as screenshot } from './preview-page';
import { go, poll } from './sidebar-page';

const START = '2026-11-25T10:00:00Z';
const env = previewSuite(START);
let page: Page;
let sidebar: FrameLocator;
const shot = (name: string) => screenshot(page, `watch-${name}`);
const grid = (): Promise<{ sheet: string; values: unknown[][]; images: Record<string, string> }> =>
  page.evaluate(() => fetch('/grid').then((r) => r.json()));

beforeAll(() => {
  ({ page, sidebar } = env);
});

test('from an empty sheet to a watch whose sheet gains the posts of the next day', async () => {
  // 1. The tag; 2. the cost first (it reads the newest page: 1 credit).
  await go(sidebar, 'watch');
  await sidebar.locator('#watch-tags').fill('#veganrecipes');
  await sidebar.locator('#watch-cap').fill('5');
  await sidebar.locator('#watch-name').fill('Vegan');
  await shot('1-chosen');
  const before = (await env.sb.stats()).creditsBilled;
  await sidebar.locator('#watch-preview').click();
  await poll(() => sidebar.locator('#watch-text').textContent()).toMatch(
    /^#veganrecipes: [\d.,]+ posts? an hour lately \(1 page a run\)\. About 1 credit a run, about [\d,]+ a month \(hourly\)\. This preview read the newest page: 1 credit\. You have [\d,]+\.$/,
  );
  await shot('2-preview');
  // 3. Confirm: the first run writes the newest page now.
  await sidebar.locator('#watch-create').click();
  await poll(() => sidebar.locator('#watch-text').textContent(), { timeout: 60_000 }).toMatch(
    /^Watching\. First run: 30 posts in the sheet “IG Data watch Vegan”; next .*\.$/,
  );
  expect((await env.sb.stats()).creditsBilled - before).toBe(2);
  await poll(() => sidebar.locator('#watch-list').textContent()).toMatch(
    /Vegan: #veganrecipes.*hourly, at most 5 credits a run/,
  );
  await page.click('#tabs button:text("IG Data watch Vegan")');
  await poll(() => grid().then((g) => g.values[0].slice(0, 9).join(','))).toBe(
    ['thumbnail', 'taken_at', 'seen in', 'author', 'caption', 'likes', 'comments', 'link', 'id'].join(','),
  );
  await shot('3-watching');

  // A day on: 40 posts published on the sandbox, and the ones its world adds as its clock moves;
  // the hourly runs add them all, oldest first.
  const res = await fetch(`${env.sb.url}/_sandbox/hashtag/veganrecipes/publish?count=40`, { method: 'POST' });
  const published = ((await res.json()) as { published: { id: string }[] }).published.reverse().map((p) => p.id);
  await page.click('#clockbar button:text("+1 day")');
  await poll(() => page.textContent('#advanced'), { timeout: 60_000 }).toMatch(
    /^Moved 1 day: the hourly trigger ran 24 times, all ok\./,
  );
  const g = await grid();
  const rows = g.values.slice(1).filter((r) => r[8] !== '');
  const ids = rows.map((r) => String(r[8]));
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBeGreaterThan(70);
  expect(ids.filter((id) => published.includes(id))).toEqual(published);
  const times = rows.map((r) => String(r[1]));
  expect([...times].sort()).toEqual(times);
  await poll(() => page.locator('td img.cell-image').count()).toBeGreaterThan(10);
  await poll(() => sidebar.locator('#watch-list').textContent()).toMatch(/Last run .*: \d+ new posts?, 1 credit\./);
  // Every thumbnail drawn (the sandbox's media links loaded), the last rows in view. The grid may
  // be drawn again meanwhile (the cell is then a new element): scroll to the one that is there.
  await settled(page);
  const lastRow = page.locator(`td[data-a1="A${ids.length + 1}"]`);
  await poll(() =>
    lastRow.scrollIntoViewIfNeeded({ timeout: 2_000 }).then(
      () => true,
      () => false,
    ),
  ).toBe(true);
  const drawn = () =>
    page.$$eval(
      'td img.cell-image',
      (imgs) => imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length,
    );
  await poll(drawn, { timeout: 30_000 }).toBe(ids.length);
  await shot('4-a-day-later');
});
