/**
 * Reusing answers for the document's freshness setting, in-process: the cache's answers older than
 * the setting are misses, kept answers (the hidden sheet, here an in-memory grid with Sheets'
 * 50,000-character cells) answer what the cache lost, only writers write them, and `_fetched_at`
 * shows an answer's age. The built add-on in the Apps Script stand-in is tested in
 * test/sheets/freshness.test.ts.
 */
import { evaluateFormula } from '../src/engine/formula';
import type { CachedAnswer } from '../src/engine/types';
import { createAnswerStore } from '../src/engine/store';
import type { KeptGrid } from '../src/engine/keep';
import {
  KEEP_ROWS,
  MAX_CELLS,
  createKeptAnswers,
  formatRow,
  freshHours,
  freshMs,
  parseRow,
  withKept,
} from '../src/engine/keep';
import { fakeDeps, fakeService, memoryCache, sha256Base64 } from './fakes';
import { TEST_START } from '../../test/support/clock';

const HOUR = 3600000;
const DAY = 24 * HOUR;
const column = (values: unknown[]) => values.map((v) => [v]);

/** The hidden sheet in memory: rows of text cells, Sheets' limit per cell enforced; reads and writes counted. */
function memoryGrid(): KeptGrid & { rows: Map<number, string[]>; reads: (number[] | undefined)[]; writes: number } {
  const rows = new Map<number, string[]>();
  const grid = {
    rows,
    reads: [] as (number[] | undefined)[],
    writes: 0,
    read(which?: number[]) {
      grid.reads.push(which);
      const out = new Map<number, string[]>();
      for (const r of which ?? Array.from({ length: KEEP_ROWS }, (_, i) => i + 1))
        if (rows.has(r)) out.set(r, [...rows.get(r)!]);
      return out;
    },
    write(changed: Map<number, string[]>) {
      grid.writes++;
      for (const [r, cells] of changed) {
        for (const c of cells)
          if (c.length > 50000)
            throw new Error('Your input contains more than the maximum of 50000 characters in a single cell.');
        rows.set(r, cells);
      }
    },
  };
  return grid;
}

/** Engine deps at a movable clock, the freshness setting in hours, kept answers over `grid`. */
function depsAt(
  clock: { t: number },
  hours: number,
  grid: KeptGrid,
  opts: { writable?: boolean; cache?: ReturnType<typeof memoryCache>; svc?: ReturnType<typeof fakeService> } = {},
) {
  const now = () => clock.t;
  const base = fakeDeps(opts.svc ?? fakeService(), opts.cache ?? memoryCache(), now);
  const cacheStore = createAnswerStore({
    cache: base.cache,
    tryLock: () => () => undefined,
    sha256Base64,
    now,
    maxAgeMs: freshMs(hours),
  });
  const kept = createKeptAnswers(grid, { now, maxAgeMs: freshMs(hours), writable: opts.writable ?? false });
  return { ...base, store: withKept(cacheStore, kept), kept };
}

const answer = (at: number, followers = 1): CachedAnswer => ({
  ok: true,
  data: { username: 'x', followers },
  next: null,
  charged: 1,
  at,
});

describe('the freshness setting', () => {
  test('1 hour to 30 days in whole hours; anything else is the default, 7 days', () => {
    expect(freshHours(1)).toBe(1);
    expect(freshHours('720')).toBe(720);
    expect([undefined, '', 0, 721, 2.5, 'abc', -3].map((v) => freshHours(v))).toEqual(Array(7).fill(168));
  });

  test('a cached answer older than the setting is a miss, and fetched again (billed)', () => {
    const clock = { t: Date.UTC(2026, 0, 5, 9) };
    const svc = fakeService();
    const cache = memoryCache();
    evaluateFormula('profile', ['nasa', 'followers'], () => depsAt(clock, 24, memoryGrid(), { svc, cache }));
    clock.t += 2 * HOUR;
    // Within the 6-hour cache but older than a 1-hour setting: fetched again.
    evaluateFormula('profile', ['nasa', 'followers'], () => depsAt(clock, 1, memoryGrid(), { svc, cache }));
    expect(svc.sent).toEqual(['profile?handle=nasa', 'profile?handle=nasa']);
    // At 24 hours the (new) answer is reused.
    evaluateFormula('profile', ['nasa', 'followers'], () => depsAt(clock, 24, memoryGrid(), { svc, cache }));
    expect(svc.credits).toBe(2);
  });
});

describe('kept answers', () => {
  test('the next day the cache is empty: a 1,000-row column is answered from kept answers for 0 credits, in one read', () => {
    const clock = { t: Date.UTC(2026, 0, 5, 9) };
    const grid = memoryGrid();
    const svc = fakeService();
    const targets = column(Array.from({ length: 1000 }, (_, i) => ['nasa', 'natgeo', 'nike', `ghost${i}`][i % 4]));
    // A writer (a bulk step, the hourly trigger) fetched and kept them.
    const writer = depsAt(clock, 168, grid, { writable: true, svc });
    const first = evaluateFormula('profile', [targets, 'followers'], () => writer);
    expect(writer.kept.flush()).toBe(253); // 3 accounts + 250 unknown (billed 404s are kept too)
    const billed = svc.credits;
    clock.t += DAY;
    const reader = depsAt(clock, 168, grid, { svc, cache: memoryCache() });
    grid.reads.length = 0;
    // The same values; each unknown account's billed "no public data" now says it was free.
    const free = (first as unknown[][]).map((row) =>
      String(row[0]).endsWith('(Charged 1 credit.)')
        ? [String(row[0]).replace('(Charged 1 credit.)', '(Charged 1 credit when first looked up on 5 Jan; free now.)')]
        : row,
    );
    expect(free.filter((r) => String(r[0]).endsWith('free now.)'))).toHaveLength(250);
    expect(evaluateFormula('profile', [targets, 'followers'], () => reader)).toEqual(free);
    expect(svc.credits).toBe(billed);
    expect(grid.reads).toEqual([undefined]); // one read of all rows
  });

  test('an 8-day-old kept answer is fetched again at the default 7 days, reused at 30 days', () => {
    const clock = { t: Date.UTC(2026, 0, 5, 9) };
    const grid = memoryGrid();
    const svc = fakeService();
    const writer = depsAt(clock, 168, grid, { writable: true, svc });
    evaluateFormula('profile', ['nasa', 'followers'], () => writer);
    writer.kept.flush();
    clock.t += 8 * DAY;
    evaluateFormula('profile', ['nasa', 'followers'], () => depsAt(clock, 720, grid, { svc }));
    expect(svc.sent).toHaveLength(1);
    grid.reads.length = 0;
    evaluateFormula('profile', ['nasa', 'followers'], () => depsAt(clock, 168, grid, { svc }));
    expect(svc.sent).toHaveLength(2);
    expect(grid.reads).toEqual([[expect.any(Number)]]); // one target reads its one row
  });

  test('readers never write; a writer writes only answers newer than the sheet has', () => {
    const clock = { t: Date.UTC(2026, 0, 5, 9) };
    const grid = memoryGrid();
    const reader = createKeptAnswers(grid, { now: () => clock.t, maxAgeMs: freshMs(168), writable: false });
    reader.add(new Map([['igd1:aaa', answer(clock.t)]]));
    expect(reader.flush()).toBe(0);
    expect(grid.writes).toBe(0);
    const writer = createKeptAnswers(grid, { now: () => clock.t, maxAgeMs: freshMs(168), writable: true });
    writer.add(new Map([['igd1:aaa', answer(clock.t, 5)]]));
    expect(writer.flush()).toBe(1);
    writer.add(new Map([['igd1:aaa', answer(clock.t - HOUR, 4)]])); // older: not written
    expect(writer.flush()).toBe(0);
    expect(grid.writes).toBe(1);
    expect(writer.getMany(['igd1:aaa']).get('igd1:aaa')).toMatchObject({ data: { followers: 5 } });
  });

  test('10,000 profile answers fit (no row over 6 cells of 45,000 characters), and every one reads back', () => {
    const now = Date.UTC(2026, 0, 5, 9);
    const grid = memoryGrid();
    const kept = createKeptAnswers(grid, { now: () => now, maxAgeMs: freshMs(168), writable: true });
    const entries = new Map<string, CachedAnswer>();
    for (let i = 0; i < 10000; i++) {
      entries.set(`igd1:${sha256Base64(String(i))}`, {
        ok: true,
        charged: 1,
        at: now - i,
        next: null,
        data: {
          id: String(1e10 + i),
          username: `creator_${i}`,
          full_name: `Creator Number ${i}`,
          followers: i * 37,
          following: 420,
          posts: 1234,
          is_verified: i % 7 === 0,
          is_private: false,
          is_business: true,
          category: 'Digital creator',
          biography: 'Vegan recipes, travel and everyday life. Collabs: hello@example.com',
          external_url: 'https://example.com/links',
        },
      });
    }
    kept.add(entries);
    expect(kept.flush()).toBe(10000);
    const cells = [...grid.rows.values()];
    expect(Math.max(...cells.map((r) => r.length))).toBeLessThanOrEqual(MAX_CELLS);
    expect(kept.getMany([...entries.keys()]).size).toBe(10000);
  });

  test('a row never holds a piece Sheets would read as a number or formula; an unreadable row is empty', () => {
    const cells = formatRow(new Map([['a', answer(Date.parse(TEST_START))]]), Date.parse(TEST_START));
    expect(cells.every((c) => c.startsWith('~'))).toBe(true);
    expect(parseRow(cells).get('a')).toMatchObject({ ok: true });
    expect(parseRow(['~{"a":']).size).toBe(0);
    expect(parseRow(['=1+1', 42 as unknown as string]).size).toBe(0);
  });

  test('a full row of text with emoji on the cell boundaries still fits MAX_CELLS cells and reads back', () => {
    // A cell never ends between the halves of a surrogate pair, so a cell may hold one character
    // less than its size: a row filled to the limit must leave room for that in every cell.
    const now = Date.parse(TEST_START);
    const filled = (pad: string, emoji: number): CachedAnswer => ({
      ok: true,
      data: { caption: pad + '\u{1F600}'.repeat(emoji) },
      next: null,
      charged: 1,
      at: now,
    });
    const overhead = JSON.stringify({ big: filled('', 0) }).length;
    let tried = 0;
    for (const pad of ['', 'x']) {
      // Rows of 270,000 characters (6 x 45,000) and a little less, the pairs meeting the boundaries either way.
      for (let emoji = Math.floor((270000 - overhead) / 2) - 4; emoji <= Math.floor((270000 - overhead) / 2); emoji++) {
        const cells = formatRow(new Map([['big', filled(pad, emoji)]]), now);
        if (!cells.length) continue; // over the limit: not kept
        tried++;
        expect(cells.length).toBeLessThanOrEqual(MAX_CELLS);
        expect([...parseRow(cells.slice(0, MAX_CELLS)).keys()]).toEqual(['big']);
      }
    }
    expect(tried).toBeGreaterThan(0);
  });

  test('answers older than 30 days are dropped when their row is rewritten', () => {
    const now = Date.UTC(2026, 0, 5, 9);
    const row = formatRow(
      new Map([
        ['old', answer(now - 31 * DAY)],
        ['new', answer(now - DAY)],
      ]),
      now,
    );
    expect([...parseRow(row).keys()]).toEqual(['new']);
  });
});

describe('_fetched_at', () => {
  test('is the time the answer was fetched, as a date, usable in fields; the same after a cache hit', () => {
    const clock = { t: Date.UTC(2026, 0, 5, 9) };
    const cache = memoryCache();
    const svc = fakeService();
    const fetched = clock.t;
    const first = evaluateFormula('profile', ['nasa', 'followers,_fetched_at'], () =>
      depsAt(clock, 168, memoryGrid(), { cache, svc }),
    );
    expect(first).toEqual([
      ['followers', '_fetched_at'],
      [97400000, new Date(fetched)],
    ]);
    clock.t += 3 * HOUR;
    expect(
      evaluateFormula('profile', [column(['nasa']), '_fetched_at'], () =>
        depsAt(clock, 168, memoryGrid(), { cache, svc }),
      ),
    ).toEqual(new Date(fetched));
    expect(svc.credits).toBe(1);
    // Lists: every item of a target shows when its (oldest) page was fetched.
    const posts = evaluateFormula('profile/posts', ['nasa', 'id,_fetched_at', false, 2], () =>
      depsAt(clock, 168, memoryGrid(), { cache, svc }),
    ) as unknown[][];
    expect(posts).toEqual([
      ['nasa_0', new Date(clock.t)],
      ['nasa_1', new Date(clock.t)],
    ]);
  });
});
