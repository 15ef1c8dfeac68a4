/**
 * The sidebar at Google's width (300 px) on a laptop's height (600 px), in headless Chromium: with a
 * key set it opens on the jobs, each in sight without scrolling, settings one click away; without
 * one, on the key form. The tracker's field picker filters as one types. With SCREENSHOTS_DIR set,
 * each view is photographed there (sidebar-<view>.png) to be looked at.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openSidebar } from '../../scripts/gas-standin/browser';
import { addonRuntime } from './harness';
import { poll, sidebarSuite } from './sidebar-page';

const env = sidebarSuite();
const SIZE = { width: 300, height: 600 };

async function open(rt = env.rt): Promise<Page> {
  const page = await openSidebar(rt, 'Sidebar', SIZE);
  env.pages.push(page);
  // The page's own state: the view is chosen once the server's answer is in (nav.ts).
  await page.waitForFunction(() => document.body.hasAttribute('data-view'));
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `sidebar-${name}.png`) });
}

/** Whether the element is drawn wholly inside the 300 x 600 viewport, the page not scrolled. */
const inView = (page: Page, sel: string) =>
  page.$eval(sel, (el) => {
    const r = el.getBoundingClientRect();
    return (
      window.scrollY === 0 &&
      r.width > 0 &&
      r.height > 0 &&
      r.top >= 0 &&
      r.left >= 0 &&
      r.bottom <= window.innerHeight &&
      r.right <= window.innerWidth
    );
  });

const JOBS = ['#open-tracker', '#open-benchmark', '#open-vet', '#open-watch', '#open-bulk'];
const SETTINGS = ['#open-settings', '#open-schedules', '#open-history', '#open-usage'];

test('with a key set, the sidebar opens on the jobs: every job and every setting in sight at 300 x 600', async () => {
  const page = await open();
  expect(await page.getAttribute('body', 'data-view')).toBe('menu');
  for (const sel of [...JOBS, ...SETTINGS]) expect([sel, await inView(page, sel)]).toEqual([sel, true]);
  expect(await page.isVisible('#menu-key')).toBe(false);
  expect(await page.isVisible('#save-key')).toBe(false);
  // The page itself does not scroll on the list.
  expect(await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight)).toBe(true);
  await poll(() => page.textContent('#top-balance')).toMatch(/^[\d,]+ credits$/);
  await shot(page, 'jobs');

  // Each job one click away, with its first action in sight, and back to the list in one more.
  const first: Record<string, string> = {
    '#open-tracker': '#tracker-use-selection',
    '#open-benchmark': '#bench-use-selection',
    '#open-vet': '#vet-use-selection',
    '#open-watch': '#watch-tags',
    '#open-bulk': '#use-selection',
    '#open-settings': '#key',
    '#open-schedules': '#schedule-list',
    '#open-history': '#history-none',
    '#open-usage': '#usage-refresh',
  };
  for (const [opener, inside] of Object.entries(first)) {
    await page.click(opener);
    expect([opener, await inView(page, inside)]).toEqual([opener, true]);
    expect(await page.isVisible('#menu')).toBe(false);
    await shot(page, opener.replace('#open-', ''));
    await page.click('#back');
    expect(await page.isVisible('#open-tracker')).toBe(true);
  }
  // The balance in the header opens the key and balance.
  await page.click('#top-balance');
  expect(await inView(page, '#key')).toBe(true);
});

test('without a key, the sidebar opens on the key form; the list is one click away and says a key is needed', async () => {
  const rt = addonRuntime(env.sb.url, { key: null });
  try {
    const page = await open(rt);
    expect(await page.getAttribute('body', 'data-view')).toBe('settings');
    expect(await inView(page, '#key')).toBe(true);
    expect(await inView(page, '#save-key')).toBe(true);
    await shot(page, 'no-key');
    await page.click('#back');
    expect(await page.isVisible('#menu-key')).toBe(true);
    for (const sel of JOBS) expect([sel, await inView(page, sel)]).toEqual([sel, true]);
  } finally {
    await rt.close();
  }
});

test("the tracker's field picker is grouped by function and filters as one types", async () => {
  const page = await open();
  await page.click('#open-tracker');
  const picker = page.locator('#tracker-picker');
  await poll(() => picker.locator('label.pick').count()).toBeGreaterThan(10);
  const groups = await picker.locator('.pick-title').allTextContents();
  expect(groups.length).toBeGreaterThan(1);
  for (const g of groups) expect(g).toMatch(/ · IG[A-Z]+ · \d+ credits? an account$/);
  const visible = () =>
    picker.locator('label.pick:visible').evaluateAll((ls) => ls.map((l) => l.getAttribute('data-field')));
  const all = await visible();
  // The defaults are ticked, from the comma list.
  expect(
    await picker.locator('input:checked').evaluateAll((bs) => bs.map((b) => (b as HTMLInputElement).value)),
  ).toEqual(['followers', 'posts', 'engagement_rate_pct']);
  await page.fill('#tracker-field-search', 'engagement');
  const hits = await visible();
  expect(hits.length).toBeGreaterThan(0);
  expect(hits.length).toBeLessThan(all.length);
  for (const f of hits) expect(f).toMatch(/engagement|/);
  expect(hits).toContain('engagement_rate_pct');
  expect(hits).not.toContain('followers');
  await shot(page, 'tracker-search');
  await page.fill('#tracker-field-search', 'no such field');
  expect(await visible()).toEqual([]);
  expect(await picker.locator('.pick-group:visible').count()).toBe(0);
  await page.fill('#tracker-field-search', '');
  expect(await visible()).toEqual(all);
  // Ticking a box adds its field to the comma list; clearing one takes it out.
  await page.click('label.pick[data-field="following"] input');
  expect(await page.inputValue('#tracker-fields')).toBe('followers, posts, engagement_rate_pct, following');
  await page.click('label.pick[data-field="posts"] input');
  expect(await page.inputValue('#tracker-fields')).toBe('followers, engagement_rate_pct, following');
  expect(await page.locator('#tracker-sort option').allTextContents()).toEqual([
    'followers',
    'engagement_rate_pct',
    'following',
  ]);
});
