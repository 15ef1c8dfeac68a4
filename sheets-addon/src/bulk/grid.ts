/**
 * Spreadsheet I/O of bulk runs and schedules over the Book interface (context/context.ts): the selection,
 * where output goes, reading targets, writing rows without overwriting the user's cells.
 */
import type { SheetValue } from '../engine/values';
import type { Book, Grid, Rect } from '../context/context';

export const colName = (c: number): string =>
  c <= 0 ? '' : colName(Math.floor((c - 1) / 26)) + String.fromCharCode(65 + ((c - 1) % 26));
export const isFilled = (v: unknown): boolean => v !== '' && v !== null;

/** The selected column of targets, checked. */
export function selection(book: Book): Rect {
  const r = book.selection();
  if (!r) throw new Error('Select the column of targets first (e.g. A2:A801).');
  if (r.cols !== 1) throw new Error(`Select one column of targets; the selection ${r.a1} has ${r.cols} columns.`);
  // A range kept from before rows were deleted: reading it would fail with Apps Script's own words.
  if (r.row + r.rows - 1 > (book.sheet(r.sheet)?.maxRows() ?? 0)) {
    throw new Error(
      'The targets go past the last row of their sheet (were rows deleted?). Select ' +
        'the column again, press \u201cuse selection\u201d and preview again.',
    );
  }
  return r;
}

export const rangeLabel = (r: Rect): string => `${r.sheet}!${r.a1}`;

/**
 * Where the values go, in words, and whether a run may write there (`free`). "beside": the columns
 * right of the source column, which must be empty (a run never overwrites the user's data): with
 * `create` (a run starting there) columns that are not empty are refused; else (a preview) they are
 * said to be, and not free. "sheet": a new sheet with the targets in column A.
 */
export function outputLabel(
  book: Book,
  r: Rect,
  width: number,
  output: 'beside' | 'sheet' | 'history',
  create: boolean,
): { label: string; free: boolean } {
  if (output === 'sheet') return { label: 'a new sheet', free: true };
  if (output === 'history') return { label: 'dated rows in a history sheet', free: true };
  const sheet = book.sheet(r.sheet)!;
  // The header row above the targets is part of the output (none above row 1).
  const above = r.row > 1 ? 1 : 0;
  if (r.col + width > sheet.maxColumns())
    throw new Error(`Not enough columns right of ${colName(r.col)}: choose "a new sheet".`);
  const busy = sheet.read(r.row - above, r.col + 1, r.rows + above, width).some((row) => row.some(isFilled));
  const label = `columns ${colName(r.col + 1)}:${colName(r.col + width)} of ${r.sheet}`;
  if (busy && create)
    throw new Error(`${label} are not empty. Clear them or choose "a new sheet": a bulk run never overwrites cells.`);
  return busy ? { label: `${label} (not empty: choose "a new sheet")`, free: false } : { label, free: true };
}

/** Adds rows and columns at the end so that row `lastRow` and column `lastCol` exist. */
function ensureSize(sheet: Grid, lastRow: number, lastCol = 0): void {
  const rows = lastRow - sheet.maxRows();
  if (rows > 0) sheet.insertRowsAfter(sheet.maxRows(), rows);
  const cols = lastCol - sheet.maxColumns();
  if (cols > 0) sheet.insertColumnsAfter(sheet.maxColumns(), cols);
}

/**
 * A sheet rewritten whole (a tracker's view, the growth view, the usage export): the sheet `name`
 * (new when missing), emptied, with at least `rows` rows and `cols` columns.
 */
export function emptiedSheet(book: Book, name: string, rows: number, cols: number): Grid {
  const sheet = book.sheet(name) ?? book.insertSheet(name);
  sheet.clear();
  ensureSize(sheet, rows, cols);
  return sheet;
}

/** `name`, or the first of "`name` 2", "`name` 3"... no sheet has: a new sheet never takes over another. */
export function freeSheetName(book: Book, name: string): string {
  let free = name;
  for (let i = 2; book.sheet(free); i++) free = `${name} ${i}`;
  return free;
}

/** A new sheet named after the function (numbered when taken), with `rows` rows and a header. */
export function newOutputSheet(book: Book, fn: string, header: string[], rows: number): string {
  const name = freeSheetName(book, `IG Data ${fn}`);
  const sheet = book.insertSheet(name);
  ensureSize(sheet, rows);
  sheet.write(1, 1, [header]);
  return name;
}

const HISTORY = 'IG Data history';

/**
 * The history sheet of a lookup: the first "IG Data history <fn>" (numbered when taken) whose header
 * is `header` exactly, so runs of the same lookup append to one sheet; a new one otherwise. `own`:
 * always a new one (a tracker's: a sheet left by a deleted tracker of the same name is never taken).
 */
export function historySheet(book: Book, fn: string, header: string[], own = false): { name: string; next: number } {
  for (let i = 1; ; i++) {
    const name = `${HISTORY} ${fn}${i > 1 ? ` ${i}` : ''}`;
    const sheet = book.sheet(name);
    if (!sheet) {
      book.insertSheet(name).write(1, 1, [header]);
      return { name, next: 2 };
    }
    if (own) continue;
    // The header and the cell after it (a sheet narrower than the header cannot hold it).
    const top = sheet.read(1, 1, 1, Math.min(sheet.maxColumns(), header.length + 1))[0];
    if (top.slice(0, header.length).join('\u0000') === header.join('\u0000') && !isFilled(top[header.length] ?? ''))
      return { name, next: sheet.lastRow() + 1 };
  }
}

/** Sheets whose name says they hold history (the growth view's choices). */
export const historySheets = (book: Book): string[] => book.sheetNames().filter((n) => n.startsWith(HISTORY));

/** `rows` cells of one column from row `row`. */
export const readColumn = (sheet: Grid, row: number, col: number, rows: number): unknown[] =>
  sheet.read(row, col, rows, 1).map((r) => r[0]);

/** Which of `rows` rows already hold something in `width` columns from `col`. */
export const filledRows = (sheet: Grid, row: number, col: number, rows: number, width: number): boolean[] =>
  sheet.read(row, col, rows, width).map((r) => r.some(isFilled));

/** Whether a cell holds something (a cell past the sheet's end holds nothing). */
export const cellFilled = (sheet: Grid, row: number, col: number): boolean =>
  sheet.maxRows() >= row && isFilled(sheet.read(row, col, 1, 1)[0][0]);

/** Writes a block of rows at `row` in one call (all or nothing), adding rows at the end when needed. */
export function writeBlock(sheet: Grid, row: number, col: number, values: SheetValue[][]): void {
  if (!values.length) return;
  ensureSize(sheet, row + values.length - 1);
  sheet.write(row, col, values);
}

/** Writes contiguous runs of non-null rows from `row` (never touching the rows left null). */
export function writeSpans(
  sheet: Grid,
  row: number,
  col: number,
  values: (SheetValue[] | null)[],
  copyTargets: unknown[] | null,
): void {
  // Each run r .. e - 1 ends at a null row (or the end), which the next run starts after.
  for (let r = 0, e: number; r < values.length; r = e + 1) {
    e = r;
    while (e < values.length && values[e] !== null) e++;
    writeBlock(sheet, row + r, col, values.slice(r, e) as SheetValue[][]);
    if (copyTargets)
      writeBlock(
        sheet,
        row + r,
        1,
        copyTargets.slice(r, e).map((c) => [c as SheetValue]),
      );
  }
}
