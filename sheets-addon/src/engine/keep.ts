/**
 * Kept answers: the long-lived store behind the document's freshness setting (1 hour to 30 days).
 * The cache keeps an answer 6 hours at most; kept answers live in a hidden sheet, which custom
 * functions may read but not write. So custom functions only read it, and the code allowed to
 * write (bulk steps, sidebar and menu actions, the hourly time-driven trigger that copies the
 * cache's buckets here before their 6 hours end) buffers its answers and writes them in one go at
 * its end (`flush`). Writing never fetches, so it never bills.
 *
 * Layout (numbers in sheets-addon/README.md): ROWS rows; an answer lives in row
 * 1 + FNV-1a(name) mod ROWS, a row is the JSON object {name: answer} split in cells of at most
 * CELL_CHARS characters (Sheets' limit is 50,000 a cell), each cell prefixed with `~` so Sheets
 * never reads a piece as a number, a date or a formula. One target reads its one row; a range
 * reads all rows in one getValues. A row holds at most MAX_CELLS cells: beyond, the oldest answers
 * go first. Answers older than 30 days (the longest setting) are dropped when a row is rewritten.
 */
import type { AnswerStore, CachedAnswer } from './store';
import { fnv1a, nameOf } from './store';

export const KEEP_ROWS = 128;
const CELL_CHARS = 45000;
const MAX_CELLS = 6;
const MARK = '~';
const HOUR_MS = 3600000;
/** The longest freshness setting: nothing older is ever used, so nothing older is kept. */
export const MAX_FRESH_HOURS = 720;
export const MIN_FRESH_HOURS = 1;
export const DEFAULT_FRESH_HOURS = 168;

/** The freshness setting, in hours: 1 to 720 (30 days); anything else is the default (7 days). */
export function freshHours(v: unknown): number {
  const n = Number(v);
  return Number.isInteger(n) && n >= MIN_FRESH_HOURS && n <= MAX_FRESH_HOURS ? n : DEFAULT_FRESH_HOURS;
}
export const freshMs = (hours: number): number => hours * HOUR_MS;

/** The rows of the hidden sheet (1-based), as text cells. */
export interface KeptGrid {
  /** The cells of the rows asked (all rows when undefined); a missing row is []. */
  read(rows?: number[]): Map<number, string[]>;
  /** Replaces whole rows (the grid clears cells beyond each new row's end). */
  write(rows: Map<number, string[]>): void;
}

export const rowOf = (name: string): number => 1 + (fnv1a(name) % KEEP_ROWS);

/** A row's answers; an unreadable row is empty (its answers are misses, fetched again). */
export function parseRow(cells: string[]): Map<string, CachedAnswer> {
  const out = new Map<string, CachedAnswer>();
  const text = cells.filter((c) => typeof c === 'string' && c.startsWith(MARK)).map((c) => c.slice(1)).join('');
  if (!text) return out;
  try {
    const v = JSON.parse(text) as Record<string, CachedAnswer>;
    for (const [name, a] of Object.entries(v)) if (a && typeof a === 'object' && typeof a.at === 'number' && typeof a.ok === 'boolean') out.set(name, a);
  } catch {
    /* unreadable: empty */
  }
  return out;
}

/** A row's cells: newest answers first until MAX_CELLS cells are full; too old or too big are left out. */
export function formatRow(answers: Map<string, CachedAnswer>, now: number): string[] {
  const parts: string[] = [];
  let size = 2;
  const byAge = [...answers].filter(([, a]) => a.at >= now - freshMs(MAX_FRESH_HOURS)).sort((x, y) => y[1].at - x[1].at);
  for (const [name, a] of byAge) {
    const part = `${JSON.stringify(name)}:${JSON.stringify(a)}`;
    if (size + part.length + 1 > CELL_CHARS * MAX_CELLS) continue;
    parts.push(part);
    size += part.length + 1;
  }
  if (!parts.length) return [];
  const text = `{${parts.join(',')}}`;
  const cells: string[] = [];
  for (let i = 0; i < text.length; i += CELL_CHARS) cells.push(MARK + text.slice(i, i + CELL_CHARS));
  return cells;
}

export interface KeptAnswers {
  /** Kept answers of these store keys, fetched within the freshness setting. */
  getMany(keys: string[]): Map<string, CachedAnswer>;
  /** Remembers answers to keep (writers only); written by flush. */
  add(entries: Map<string, CachedAnswer>): void;
  /** Writes what was added, newest wins; returns the number of answers written. Never fetches. */
  flush(): number;
}

export function createKeptAnswers(grid: KeptGrid, opts: { now: () => number; maxAgeMs: number; writable: boolean }): KeptAnswers {
  const pending = new Map<string, CachedAnswer>();
  return {
    getMany(keys) {
      const out = new Map<string, CachedAnswer>();
      if (!keys.length) return out;
      const rows = [...new Set(keys.map((k) => rowOf(nameOf(k))))];
      const found = grid.read(rows.length === 1 ? rows : undefined);
      const parsed = new Map<number, Map<string, CachedAnswer>>();
      const after = opts.now() - opts.maxAgeMs;
      for (const key of keys) {
        const row = rowOf(nameOf(key));
        if (!parsed.has(row)) parsed.set(row, parseRow(found.get(row) ?? []));
        const a = parsed.get(row)!.get(nameOf(key));
        if (a && a.at >= after) out.set(key, a);
      }
      return out;
    },
    add(entries) {
      if (!opts.writable) return;
      for (const [key, a] of entries) {
        const name = nameOf(key);
        const old = pending.get(name);
        if (!old || a.at > old.at) pending.set(name, a);
      }
    },
    flush() {
      if (!pending.size) return 0;
      const byRow = new Map<number, [string, CachedAnswer][]>();
      for (const e of pending) byRow.set(rowOf(e[0]), [...(byRow.get(rowOf(e[0])) ?? []), e]);
      const rows = [...byRow.keys()];
      const current = grid.read(rows.length === 1 ? rows : undefined);
      const changed = new Map<number, string[]>();
      let written = 0;
      for (const [row, entries] of byRow) {
        const answers = parseRow(current.get(row) ?? []);
        let dirty = false;
        for (const [name, a] of entries) {
          const old = answers.get(name);
          if (old && old.at >= a.at) continue; // the sheet already has this answer or a newer one
          answers.set(name, a);
          dirty = true;
          written++;
        }
        if (dirty) changed.set(row, formatRow(answers, opts.now()));
      }
      pending.clear();
      if (changed.size) grid.write(changed);
      return written;
    },
  };
}

/**
 * The answer store with kept answers behind it: the cache first, the kept answers for its misses.
 * Writers' answers are also added to the kept ones (flushed by the writer at its end). Claims
 * (claim-store.ts) use the cache-only store: their rounds run under the lock and must stay short.
 */
export function withKept(store: AnswerStore, kept: KeptAnswers): AnswerStore {
  return {
    keyFor: (b, k) => store.keyFor(b, k),
    withLock: (fn) => store.withLock(fn),
    getMany(keys, extra) {
      const out = store.getMany(keys, extra);
      const misses = [...new Set(keys)].filter((k) => !out.has(k));
      if (misses.length) for (const [k, a] of kept.getMany(misses)) out.set(k, a);
      return out;
    },
    putMany(entries, extra) {
      store.putMany(entries, extra);
      kept.add(entries);
    },
  };
}
