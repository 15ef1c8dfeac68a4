/**
 * Kept answers: the long-lived store behind the document's freshness setting (1 hour to 30 days).
 * The cache keeps an answer 6 hours at most; kept answers live in a hidden sheet, which custom
 * functions may read but not write. So custom functions only read it, and the code allowed to
 * write (bulk steps, sidebar and menu actions, the hourly time-driven trigger that copies the
 * cache's buckets here before their 6 hours end) collects its answers and writes them in one go at
 * its end (`flush`). Writing never fetches, so it never bills.
 *
 * Layout (numbers in sheets-addon/README.md): KEEP_ROWS rows; an answer lives in row
 * 1 + FNV-1a(name) mod KEEP_ROWS; a row is the JSON object {name: answer} split in cells of at most
 * CELL_CHARS characters (Sheets' limit is 50,000 a cell), each prefixed with `~` so that Sheets
 * never reads a piece as a number, a date or a formula. One target reads its one row; more read
 * all rows in one getValues. A row holds at most MAX_CELLS cells: beyond, the oldest answers go
 * first. Answers older than 30 days (the longest setting) are dropped when their row is rewritten.
 */
import { groupBy } from './group';
import { jsonEntries } from './json';
import { nameOf, split } from './store';
import { reusable } from './reuse';
import { fnv1a, member } from './text-bytes';
import type { AnswerStore, CachedAnswer } from './types';

export const KEEP_ROWS = 128;
const CELL_CHARS = 45000;
export const MAX_CELLS = 6;
const HOUR_MS = 3600000;
/** The longest freshness setting (30 days): nothing older is used, so nothing older is kept. */
const MAX_HOURS = 720;

/** The freshness setting in hours: a whole number from 1 to 720; anything else is the default, 168 (7 days). */
export const freshHours = (v: unknown, n = Number(v)): number => (n >= 1 && n <= MAX_HOURS && n % 1 === 0 ? n : 168);
export const freshMs = (hours: number): number => hours * HOUR_MS;

/** The rows of the hidden sheet (1-based), as text cells. */
export interface KeptGrid {
  /** The cells of the rows asked (all rows when undefined); a missing row is absent. */
  read(rows?: number[]): Map<number, string[]>;
  /** Replaces whole rows (cells beyond a row's new end are cleared). */
  write(rows: Map<number, string[]>): void;
}

export const rowOf = (key: string): number => 1 + (fnv1a(nameOf(key)) % KEEP_ROWS);

/** A row's answers; an unreadable row is empty (its answers are misses, fetched again). */
export function parseRow(cells: string[] = []): Map<string, CachedAnswer> {
  const text = cells.map((c) => (c[0] === '~' ? c.slice(1) : '')).join('');
  return new Map((jsonEntries(text) as [string, CachedAnswer][]).filter(([, a]) => a?.at > 0));
}

/**
 * What a row may hold: a cell never ends between the halves of a surrogate pair (which a cell on its
 * own might not keep), so it may hold one character less than CELL_CHARS; counting every cell one
 * short keeps a full row within MAX_CELLS (the sheet holds no more: a 7th cell would be lost, and the
 * whole row with it).
 */
const ROW_CHARS = (CELL_CHARS - 1) * MAX_CELLS;

/** A row's cells: the newest answers that fit MAX_CELLS cells, none older than 30 days. */
export function formatRow(answers: Map<string, CachedAnswer>, now: number): string[] {
  let text = '';
  for (const [name, a] of [...answers].sort((x, y) => y[1].at - x[1].at)) {
    const part = member(name, a);
    if (a.at >= now - freshMs(MAX_HOURS) && text.length + part.length + 2 <= ROW_CHARS)
      text += (text ? ',' : '') + part;
  }
  return split(text && `{${text}}`, CELL_CHARS).map((cell) => `~${cell}`);
}

export interface KeptAnswers {
  /**
   * Kept answers of these store keys, fetched within the freshness setting and `limitOf(key)` (an endpoint's own
   * limit).
   */
  getMany(keys: string[], limitOf?: (key: string) => number | undefined): Map<string, CachedAnswer>;
  /** Remembers answers to keep (writers only; ignored for readers); written by flush. */
  add(entries: Map<string, CachedAnswer>): void;
  /** Writes what was added where it is newer; returns how many answers were written. Never fetches. */
  flush(): number;
}

/** One row alone, or all of them in one read. */
const readRows = (grid: KeptGrid, rows: number[]) => grid.read(rows.length === 1 ? rows : undefined);

export function createKeptAnswers(
  grid: KeptGrid,
  opts: { now: () => number; maxAgeMs: number; writable: boolean },
): KeptAnswers {
  const pending = new Map<string, CachedAnswer>();
  // Rows as read in this execution, parsed once: only a writer's flush changes them (custom
  // functions never write; bulk steps and the trigger write one at a time, under the document
  // lock), and a bulk step looks its misses up again unit by unit.
  const parsed = new Map<number, Map<string, CachedAnswer>>();
  return {
    getMany(keys, limitOf = () => undefined) {
      const out = new Map<string, CachedAnswer>();
      if (!keys.length) return out;
      const byRow = groupBy(keys, rowOf);
      const unread = [...byRow.keys()].filter((row) => !parsed.has(row));
      if (unread.length) {
        const found = readRows(grid, unread);
        // More than one row asked: all were read (a missing one is empty).
        const read = unread.length === 1 ? unread : Array.from({ length: KEEP_ROWS }, (_, i) => i + 1);
        for (const row of read) parsed.set(row, parseRow(found.get(row)));
      }
      const now = opts.now();
      for (const [row, rowKeys] of byRow) {
        const answers = parsed.get(row)!;
        for (const key of rowKeys) {
          const a = answers.get(nameOf(key));
          if (a && reusable(a, now, now - opts.maxAgeMs, limitOf(key))) out.set(key, a);
        }
      }
      return out;
    },
    add(entries) {
      if (opts.writable)
        for (const [key, a] of entries)
          if (!((pending.get(nameOf(key))?.at ?? -Infinity) >= a.at)) pending.set(nameOf(key), a);
    },
    flush() {
      const byRow = groupBy(pending, ([name]) => rowOf(name));
      if (!byRow.size) return 0;
      const current = readRows(grid, [...byRow.keys()]);
      const changed = new Map<number, string[]>();
      let written = 0;
      for (const [row, entries] of byRow) {
        const answers = parseRow(current.get(row));
        // The sheet may already hold an answer as new or newer.
        const newer = entries.filter(([name, a]) => !((answers.get(name)?.at ?? -Infinity) >= a.at));
        for (const [name, a] of newer) answers.set(name, a);
        written += newer.length;
        if (newer.length) changed.set(row, formatRow(answers, opts.now()));
      }
      pending.clear();
      for (const row of changed.keys()) parsed.delete(row);
      if (changed.size) grid.write(changed);
      return written;
    },
  };
}

/**
 * The answer store with kept answers behind it: the cache first, the kept answers for its misses;
 * what is stored is also added to the kept answers (a writer flushes them at its end). Claims use
 * the cache alone (claim-store.ts): their rounds run under the lock and must stay short.
 */
export const withKept = (store: AnswerStore, kept: KeptAnswers): AnswerStore => ({
  ...store,
  getMany(keys, extra) {
    const out = store.getMany(keys, extra);
    for (const [k, a] of kept.getMany(
      keys.filter((k) => !out.has(k)),
      store.limitOf,
    ))
      out.set(k, a);
    return out;
  },
  putMany(entries, extra) {
    store.putMany(entries, extra);
    kept.add(entries);
  },
});
