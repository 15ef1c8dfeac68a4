/**
 * What one execution of the add-on needs from its platform, as interfaces: the spreadsheet, the document's
 * properties, the document lock, the places answers are stored, the clock. Each entry point (a
 * custom function, a sidebar call, the hourly trigger) builds one Context over Apps Script
 * (../gas/context.ts) and passes it down; in-process tests build one in memory
 * (../../test/context-fakes.ts). Plain types only: nothing here imports code.
 */
import type { KeptGrid } from '../engine/keep';
import type { KeyValueCache, SheetsClient, TryLock } from '../engine/deps';
import type { SheetValue } from '../engine/values';

/** The document's settings (document properties, read once per entry point). */
export interface Settings {
  apiKey: string;
  baseUrl: string;
  keySetBy: string;
  keySetAt: string;
  /** Whose key `apiKey` is: the user's own (not the formulas'), the sheet's, or none. Absent: the sheet's. */
  keyScope?: 'mine' | 'everyone' | '';
  /** Whether the sheet has a shared key (what formulas use), whatever this user's runs use. */
  sharedKey?: boolean;
  /** Apps Script's temporary key of the user who saved the shared key (Session.getTemporaryActiveUserKey). */
  keySetByUser?: string;
  /** Hours an answer is reused (1-720). */
  freshHours: number;
  /** Cells marked by "Refresh selected cells" (JSON, gas/refresh.ts). */
  refreshMarks: string;
  /** "off" turns claims off (engine/claim-store.ts). */
  claims: string;
}

/** One sheet, as runs read and write it. */
export interface Grid {
  maxRows(): number;
  maxColumns(): number;
  lastRow(): number;
  /** The values of `rows` x `cols` cells from (row, col). */
  read(row: number, col: number, rows: number, cols: number): unknown[][];
  /** Writes a rectangle in one call (all or nothing); the rows must exist. */
  write(row: number, col: number, values: SheetValue[][]): void;
  insertRowsAfter(after: number, count: number): void;
  insertColumnsAfter(after: number, count: number): void;
  /** Enters formulas down one column from (row, col) in one call (Sheets calculates them); at least one. */
  writeFormulas(row: number, col: number, formulas: string[]): void;
  /** Number format of a rectangle ("0.0%") of at least one cell. */
  setNumberFormat(row: number, col: number, rows: number, cols: number, format: string): void;
  /**
   * Colours a rectangle's cells by their value: a cell showing `text` gets `color` (conditional
   * formatting: it follows the value).
   */
  colorWhen(row: number, col: number, rows: number, cols: number, rules: { text: string; color: string }[]): void;
  /** Empties the sheet's values and formulas (a view rewritten whole). */
  clear(): void;
  /**
   * Replaces the sheet's conditional formats (a view rewritten whole): a cell of a mark's rectangle where its custom
   * formula holds (references relative to the rectangle's top-left cell) gets its colour.
   */
  setMarks(marks: (Place & { formula: string; color: string })[]): void;
  /** Replaces the sheet's embedded charts (a view rewritten whole). */
  setCharts(charts: RowChart[]): void;
  /** Sets the width in pixels of `cols` columns from `col` (Sheets' default is 100). */
  setColumnWidths(col: number, cols: number, px: number): void;
}

/** A rectangle of a sheet (1-based). */
export interface Place {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/**
 * A column chart of some rows of a sheet, across columns `col` to `col + cols - 1`: the first row names the
 * categories, each other row is a series whose name is its first cell. Placed with its top-left corner at `at`.
 */
export interface RowChart {
  title: string;
  rows: number[];
  col: number;
  cols: number;
  /** The anchor cell, and the offset in pixels from its top-left corner (charts side by side on one anchor). */
  at: { row: number; col: number; offsetX?: number };
  /** Its size in pixels (Sheets' default 600 x 371). */
  width: number;
  height: number;
}

/** Where a selection is (not its values): a sheet and a rectangle. */
export interface Rect {
  sheet: string;
  row: number;
  col: number;
  rows: number;
  cols: number;
  /** "A2:A61". */
  a1: string;
}

/** The spreadsheet. */
export interface Book {
  sheet(name: string): Grid | null;
  /** A new sheet (Sheets shows it: a run's output comes to the front). */
  insertSheet(name: string): Grid;
  sheetNames(): string[];
  /** The user's selection, or null. */
  selection(): Rect | null;
  /** The spreadsheet's offset from UTC in minutes at `t` (its time zone, daylight saving included). */
  zoneOffset(t: number): number;
  /** `t` as the spreadsheet's zone shows it ("Mon 30 Nov 07:00 UTC"). */
  formatTime(t: number): string;
}

/** The document's properties (one value at most 9 KB, 500 KB in all, in real life). */
export interface PropertyStore {
  get(key: string): string | null;
  set(key: string, value: string): void;
  delete(key: string): void;
}

/**
 * The document lock as this execution holds it: `withLock` waits up to 30 s and sections nest;
 * `tryLock` is the answer store's brief lock, which does not lock again inside a held section.
 */
export interface DocumentLock {
  withLock<T>(fn: () => T): T;
  tryLock: TryLock;
}

/** Where answers are stored: the document cache, and the kept answers' hidden sheet. */
export interface AnswerPlaces {
  cache: KeyValueCache;
  kept: KeptGrid;
  /** base64 of the SHA-256 of a UTF-8 text (store keys). */
  sha256Base64(text: string): string;
}

/** Sending email (Apps Script's MailApp): plain text only; the day's quota counts recipients. */
export interface Mailer {
  /** Recipients left today. */
  remaining(): number;
  send(to: string[], subject: string, body: string): void;
}

/** Everything one entry point's run needs, built once by the entry point and passed down. */
export interface Context {
  now(): number;
  settings: Settings;
  client: SheetsClient;
  props: PropertyStore;
  book: Book;
  lock: DocumentLock;
  places: AnswerPlaces;
  newId(): string;
  userEmail(): string;
  /** Absent where nothing is emailed (in-memory tests). */
  mail?: Mailer;
}
