/**
 * Bulk runs of list endpoints (posts, followers, comments...) from the built sidebar in headless
 * Chromium, the built add-on in the Apps Script stand-in, the sandbox over real HTTP: items per
 * target, a new sheet with one row per item (the target in column A), the page-based cost preview,
 * pages counted at the sandbox, cancel + reopen + resume and out-of-credits + resume without a row
 * written twice or a page billed twice.
 */
import type { Page } from 'playwright-core';
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { DEMO_KEY, PROP, SandboxProcess, addonRuntime } from './harness';
import { go, openLoaded, poll, sidebarSuite, text } from './sidebar-page';

const env = sidebarSuite();
let sb: SandboxProcess;
let rt: GasRuntime;
const pages = env.pages;
beforeAll(() => {
  ({ sb, rt } = env);
});

/** The sidebar, on its Bulk lookup (every test here is one). */
const open = async () => {
  const page = await openLoaded(rt, pages);
  await go(page, 'bulk');
  return page;
};

/** What IGPOSTS returns for these handles (a separate add-on: its own cache, so the stats are counted apart). */
function expectedPosts(handles: string[], limit: number, fields: string): Map<string, unknown[][]> {
  const other = addonRuntime(sb.url);
  try {
    const out = new Map<string, unknown[][]>();
    for (const h of handles) out.set(h, other.custom('IGPOSTS', h, fields, false, limit) as unknown[][]);
    return out;
  } finally {
    void other.close();
  }
}

async function choose(page: Page, endpoint: string, fields: string, limit: string) {
  await page.click('#use-selection');
  await page.selectOption('#endpoint', endpoint);
  await page.fill('#fields', fields);
  await page.fill('#limit', limit);
}

test('the list lookups are offered; a list writes only to a new sheet and asks for items per target', async () => {
  rt.spreadsheet.select('Sheet1!A1:A2');
  const page = await open();
  const options = await page.$$eval('#endpoint option', (os) => os.map((o) => (o as HTMLOptionElement).value));
  for (const id of [
    'profile/posts',
    'profile/reels',
    'profile/stories',
    'profile/highlights',
    'profile/followers',
    'profile/following',
    'post/comments',
    'post/likers',
    'hashtag/top',
    'hashtag/recent',
    'location/posts',
    'search/users',
    'search/hashtags',
    'search/locations',
  ]) {
    expect(options).toContain(id);
  }
  expect(options).toContain('profile');
  expect(options).not.toContain('credits');
  expect(await page.isVisible('#limit')).toBe(false);
  await page.selectOption('#endpoint', 'profile/followers');
  expect(await page.isVisible('#limit')).toBe(true);
  expect(await page.isChecked('#output-sheet')).toBe(true);
  expect(await page.isDisabled('#output-beside')).toBe(true);
  expect(await text(page, '#limit-note')).toMatch(/^About 25 items a page\./);
  // The server refuses a list written beside the column, and a limit out of range, before any request.
  const before = (await sb.stats()).total;
  expect(() => rt.call('igBulkStart', { endpoint: 'profile/posts', output: 'beside' })).toThrow(
    /IGPOSTS returns many rows per target: choose "a new sheet"/,
  );
  expect(() => rt.call('igBulkPreview', { endpoint: 'profile/posts', output: 'sheet', limit: 501 })).toThrow(
    /limit must be a whole number from 1 to 500/,
  );
  expect((await sb.stats()).total).toBe(before);
  await page.selectOption('#endpoint', 'profile');
  expect(await page.isVisible('#limit')).toBe(false);
  expect(await page.isDisabled('#output-beside')).toBe(false);
  await page.context().close();
});

test('profile/posts, 20 items per target, to a new sheet: preview in pages, exact rows, pages and credits counted', async () => {
  const sheet = rt.spreadsheet.addSheet('Handles');
  const handles = ['nasa', 'natgeo', '@NASA', 'locked_acc', '', 'bad handle', 'nike'];
  sheet.setValues('A1', [['handle'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Handles!A2:A${handles.length + 1}`);
  await sb.reset();
  const page = await open();
  await choose(page, 'profile/posts', 'shortcode,like_count', '20');
  await page.click('#preview');
  // nasa, natgeo, locked_acc, nike: 4 targets, up to 2 pages of 12 each, 2 credits a page.
  await poll(() => text(page, '#preview-text')).toMatch(
    /^4 unique targets in 7 rows, 1 invalid, 1 repeated: ~16 credits at most \(8 pages × 2; up to 2 pages of 12 per target for 20 items\), you have [\d,]+\. Output: a new sheet\.$/,
  );
  expect(Object.keys((await sb.stats()).byEndpoint)).toEqual(['credits']);
  await page.click('#run');
  // locked_acc: one page, a billed 404 (2 credits); the others two pages each.
  await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(
    /^Done: 7 of 7 rows \(100%\), 62 rows written, 14 credits spent, 7 requests, 0 from cache, 1 repeated target skipped\.$/,
  );
  const s = await sb.stats();
  expect(s.byEndpoint['profile/posts']).toBe(7);
  expect(s.creditsBilled).toBe(14);
  const firstPages = Object.entries(s.byRequest).filter(
    ([k]) => k.startsWith('profile/posts?') && !k.includes('cursor'),
  );
  expect(Object.fromEntries(firstPages)).toEqual({
    'profile/posts?handle=nasa': 1,
    'profile/posts?handle=natgeo': 1,
    'profile/posts?handle=locked_acc': 1,
    'profile/posts?handle=nike': 1,
  });

  const out = rt.spreadsheet.sheet('IG Data IGPOSTS');
  const rows = out.getValues('A1:C64');
  const want = expectedPosts(['nasa', 'natgeo', 'nike'], 20, 'shortcode,like_count');
  expect(rows[0]).toEqual(['handle', 'shortcode', 'like_count']);
  expect(rows.slice(1, 21)).toEqual(want.get('nasa')!.map((r) => ['nasa', ...r]));
  expect(rows.slice(21, 41)).toEqual(want.get('natgeo')!.map((r) => ['natgeo', ...r]));
  expect(rows[41]).toEqual(['locked_acc', '@locked_acc is private: no public data. (Charged 2 credits.)', '']);
  expect(rows[42][0]).toBe('bad handle');
  expect(rows[42][1]).toMatch(
    /^handle must be a username, @username, numeric id or profile URL; got "bad handle"\. \(Not charged\.\)$/,
  );
  expect(rows.slice(43, 63)).toEqual(want.get('nike')!.map((r) => ['nike', ...r]));
  expect(rows[63]).toEqual(['', '', '']); // nothing more: @NASA repeats nasa and is not written again
  expect(new Set(rows.slice(1, 21).map((r) => r[1])).size).toBe(20);
  expect(typeof rows[1][2]).toBe('number');
  const job = JSON.parse(rt.properties.document.get(PROP.job)!);
  expect(job).toMatchObject({
    status: 'done',
    kind: 'list',
    limit: 20,
    next: 7,
    outNext: 64,
    items: 62,
    duplicates: 1,
    credits: 14,
  });
  expect(job.pending).toBeUndefined();

  // All cached now: the preview says so and costs nothing.
  await page.click('#preview');
  await poll(() => text(page, '#preview-text')).toMatch(
    /^4 unique targets in 7 rows, 4 cached \(free\), 1 invalid, 1 repeated: ~0 credits at most \(0 pages × 2;/,
  );
  // The first page only (blank limit): one page per target.
  await page.fill('#limit', '');
  await page.click('#preview');
  await poll(() => text(page, '#preview-text')).toMatch(
    /: ~0 credits at most \(0 pages × 2; the first page of each target\)/,
  );
  await page.context().close();
}, 60000);

test('cancel mid-run, close the sidebar, reopen and resume: no row written twice, no page billed twice', async () => {
  // 150 posts = 13 pages of 12 per target: the first unit of work (below) needs 13 rounds of pages;
  // with 300 ms a page, more than a step's 3 s budget: the first step stops starting pages after
  // 3 s (it holds the document lock no longer), writes no row, and the next step goes on from the
  // pages it paid for (in the cache).
  const sheet = rt.spreadsheet.addSheet('Brands');
  const handles = ['nasa', 'natgeo', 'nike', '@nasa', 'starbucks', 'bbcnews', 'instagram'];
  handles.forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Brands!A1:A7');
  await sb.reset();
  await sb.setFaults({ latencyMs: 300 });
  try {
    let page = await open();
    await choose(page, 'profile/posts', 'shortcode', '150');
    await page.click('#preview');
    await poll(() => text(page, '#preview-text')).toMatch(
      /^6 unique targets in 7 rows, 1 repeated: ~144 credits at most \(72 pages × 2; up to 13 pages of 12 per target for 150 items\), you have [\d,]+\. Output: a new sheet\.$/,
    );
    // The first two pages of nasa, natgeo and nike are cached from the last test: 3 x 11 + 3 x 13 = 72
    // pages. The first unit of work is nasa, natgeo, nike, (the repeat,) starbucks: 3 x 11 + 13 = 46
    // pages; bbcnews would take it past 50.
    // The user clicks Cancel after the first step, which paid for pages and wrote no row.
    await page.evaluate(() => {
      const progress = document.getElementById('progress-text')!;
      const obs = new MutationObserver(() => {
        if (/ [1-9]\d* credits spent/.test(progress.textContent ?? '')) {
          obs.disconnect();
          (document.getElementById('cancel') as HTMLButtonElement).click();
        }
      });
      obs.observe(progress, { childList: true, characterData: true, subtree: true });
    });
    await page.click('#run');
    await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(
      /^Cancelled at 0 of 7 rows \(0%\), 0 rows written, [1-9]\d* credits spent, /,
    );
    const out = rt.spreadsheet.sheet('IG Data IGPOSTS 2');
    const labels = () =>
      out
        .getValues('A2:A1000')
        .map((r) => r[0])
        .filter((v) => v !== '');
    expect(labels()).toEqual([]);
    const billedAtCancel = (await sb.stats()).creditsBilled;
    expect(billedAtCancel).toBeGreaterThan(0);
    await page.context().close();

    // Reopen: the job is still there; Resume finishes it.
    await sb.setFaults({ latencyMs: 0 });
    page = await open();
    await poll(() => page.isVisible('#resume')).toBe(true);
    await page.click('#resume');
    await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(
      /^Done: 7 of 7 rows \(100%\), 900 rows written, .*1 repeated target skipped\.$/,
    );
    expect(labels()).toEqual(
      ['nasa', 'natgeo', 'nike', 'starbucks', 'bbcnews', 'instagram'].flatMap((h) => Array(150).fill(h)),
    );
    const shortcodes = out.getValues('B2:B901').map((r) => r[0]);
    expect(new Set(shortcodes).size).toBe(900);
    const s = await sb.stats();
    // Every page requested once; the pages cached by the previous test were not requested again.
    const posts = Object.entries(s.byRequest).filter(([k]) => k.startsWith('profile/posts?'));
    expect(posts.every(([, c]) => c === 1)).toBe(true);
    expect(s.byEndpoint['profile/posts']).toBe(6 * 13 - 6);
    expect(s.creditsBilled).toBe((6 * 13 - 6) * 2);
    expect(s.creditsBilled).toBeGreaterThan(billedAtCancel);
    const job = JSON.parse(rt.properties.document.get(PROP.job)!);
    expect(job).toMatchObject({
      status: 'done',
      next: 7,
      outNext: 902,
      items: 900,
      duplicates: 1,
      credits: (6 * 13 - 6) * 2,
    });
    await page.context().close();
  } finally {
    await sb.setFaults({ latencyMs: 0 });
  }
}, 90000);

test('out of credits between two pages of a target: it is not written; after a top-up, Resume bills only the missing page', async () => {
  const sheet = rt.spreadsheet.addSheet('Poor');
  ['starbucks', 'bbcnews'].forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Poor!A1:A2');
  // 2 credits a page, 20 items = 2 pages: 4 + 2 pays three pages of the four; the last one is refused.
  const poor = await sb.createKey(6);
  rt.properties.document.set(PROP.apiKey, poor);
  await sb.reset();
  rt.call('igBulkStart', { endpoint: 'profile/reels', fields: 'shortcode', output: 'sheet', limit: 20 });
  const page = await open();
  await poll(() => page.isVisible('#resume')).toBe(true);
  await page.click('#resume');
  await poll(() => text(page, '#bulk-message'), { timeout: 30000 }).toBe(
    'Out of credits: 0 left. Top up to continue. (Not charged.) More about this error',
  );
  const out = rt.spreadsheet.sheet('IG Data IGREELS');
  const labels = () =>
    out
      .getValues('A2:A60')
      .map((r) => r[0])
      .filter((v) => v !== '');
  // The two targets' page 1 and one page 2 were paid; which target got its page 2 depends on the
  // order the sandbox served them. The complete one may be written, the other never half.
  const first = labels();
  expect([0, 20]).toContain(first.length);
  if (first.length) expect(new Set(first).size).toBe(1);
  expect(await text(page, '#progress-text')).toMatch(/^Paused at [01] of 2 rows/);

  rt.properties.document.set(PROP.apiKey, DEMO_KEY);
  await page.click('#resume');
  await poll(() => text(page, '#progress-text'), { timeout: 30000 }).toMatch(
    /^Done: 2 of 2 rows \(100%\), 40 rows written/,
  );
  expect(labels()).toEqual([...Array(20).fill('starbucks'), ...Array(20).fill('bbcnews')]);
  const s = await sb.stats();
  // Four pages; the refused one was asked twice (402, then paid), the others once: 8 credits in all.
  const reels = Object.entries(s.byRequest).filter(([k]) => k.startsWith('profile/reels?'));
  expect(reels.map(([, c]) => c).sort()).toEqual([1, 1, 1, 2]);
  expect(s.byRequest['profile/reels?handle=starbucks']).toBe(1);
  expect(s.byRequest['profile/reels?handle=bbcnews']).toBe(1);
  expect(s.creditsBilled).toBe(8);
  expect(await sb.balance(poor)).toBe(0);
  await page.context().close();
}, 60000);

test('a write interrupted before the job was saved is found on the next step, not written again', () => {
  const sheet = rt.spreadsheet.addSheet('Crash');
  ['nasa', 'natgeo'].forEach((h, i) => sheet.set(i + 1, 1, h));
  rt.spreadsheet.select('Crash!A1:A2');
  const job = rt.call('igBulkStart', { endpoint: 'profile/posts', fields: 'shortcode', output: 'sheet', limit: 20 });
  const done = rt.call('igBulkStep', job.id);
  expect(done).toMatchObject({ status: 'done', outNext: 42, items: 40 });
  // As if the execution had died after writing nasa's rows but before saving the job.
  const out = rt.spreadsheet.sheet(done.outSheet);
  for (let r = 22; r <= 41; r++) for (let c = 1; c <= 2; c++) out.set(r, c, '');
  const before = {
    ...done,
    status: 'running',
    next: 0,
    outNext: 2,
    items: 0,
    written: 0,
    pending: { at: 2, rows: 20, next: 1, written: 1, items: 20, duplicates: 0 },
  };
  rt.properties.document.set(PROP.job, JSON.stringify(before));
  const again = rt.call('igBulkStep', job.id);
  expect(again).toMatchObject({ status: 'done', next: 2, outNext: 42, items: 40, written: 2 });
  expect(out.getValues('A2:A41').map((r) => r[0])).toEqual([...Array(20).fill('nasa'), ...Array(20).fill('natgeo')]);
  expect(out.getValues('A42:A42')[0][0]).toBe('');
});
