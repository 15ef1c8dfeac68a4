/** Spreadsheet I/O of bulk runs: the selection, where output goes, reading targets, writing rows. */
import type { SheetValue } from '../engine/values';

type Range = GoogleAppsScript.Spreadsheet.Range;
type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

export const colName = (c: number): string => (c <= 0 ? '' : colName(Math.floor((c - 1) / 26)) + String.fromCharCode(65 + ((c - 1) % 26)));
const isFilled = (v: unknown) => v !== '' && v !== null;

/** The selected column of targets. */
export function selection(): Range {
  const range = SpreadsheetApp.getActiveRange();
  if (!range) throw new Error('Select the column of targets first (e.g. A2:A801).');
  if (range.getNumColumns() !== 1) throw new Error(`Select one column of targets; the selection ${range.getA1Notation()} has ${range.getNumColumns()} columns.`);
  // A range kept from before rows were deleted: reading it would fail with Apps Script's own words.
  if (range.getLastRow() > range.getSheet().getMaxRows()) {
    throw new Error('The targets go past the last row of their sheet (were rows deleted?). Select the column again, press \u201cuse selection\u201d and preview again.');
  }
  return range;
}

export const rangeLabel = (range: Range): string => `${range.getSheet().getName()}!${range.getA1Notation()}`;

/** The first cell of each row of a one-column range. */
export const columnValues = (range: Range): unknown[] => range.getValues().map((r) => r[0]);

interface OutputPlace {
  label: string;
  sheet: string | null;
  row: number;
  col: number;
}

/**
 * Where the values go. "beside": the columns right of the source column, which must be empty (a
 * run never overwrites the user's data); "sheet": a new sheet with the targets in column A.
 */
export function outputPlace(range: Range, width: number, output: 'beside' | 'sheet' | 'history', create: boolean): OutputPlace {
  if (output === 'sheet') return { label: 'a new sheet', sheet: null, row: 2, col: 2 };
  if (output === 'history') return { label: 'dated rows in a history sheet', sheet: null, row: 2, col: 1 };
  const sheet = range.getSheet();
  const row = range.getRow();
  const col = range.getColumn();
  const headerRow = row > 1 ? row - 1 : row;
  const height = range.getNumRows() + (row > 1 ? 1 : 0);
  if (col + width > sheet.getMaxColumns()) throw new Error(`Not enough columns right of ${colName(col)}: choose "New sheet".`);
  const busy = sheet.getRange(headerRow, col + 1, height, width).getValues().some((r) => r.some(isFilled));
  const label = `columns ${colName(col + 1)}:${colName(col + width)} of ${sheet.getName()}`;
  if (busy && create) throw new Error(`${label} are not empty. Clear them or choose "New sheet": a bulk run never overwrites cells.`);
  return { label: busy ? `${label} (not empty: choose "New sheet")` : label, sheet: sheet.getName(), row, col: col + 1 };
}

/** Adds rows at the end so that row `lastRow` exists. */
function ensureRows(sheet: Sheet, lastRow: number): void {
  const need = lastRow - sheet.getMaxRows();
  if (need > 0) sheet.insertRowsAfter(sheet.getMaxRows(), need);
}

/** A new sheet named after the function (numbered when taken), with `rows` rows and a header. */
export function newOutputSheet(fn: string, header: string[], rows: number): string {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  let name = `IG Data ${fn}`;
  for (let i = 2; ss.getSheetByName(name); i++) name = `IG Data ${fn} ${i}`;
  const sheet = ss.insertSheet(name);
  ensureRows(sheet, rows);
  sheet.getRange(1, 1, 1, header.length).setValues([header]);
  return name;
}

const HISTORY = 'IG Data history';

/**
 * The history sheet of a lookup: the first "IG Data history <fn>" (numbered when taken) whose header
 * is `header` exactly, so runs of the same lookup append to one sheet; a new one otherwise.
 */
export function historySheet(fn: string, header: string[]): { name: string; next: number } {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  for (let i = 1; ; i++) {
    const name = `${HISTORY} ${fn}${i > 1 ? ` ${i}` : ''}`;
    const sheet = ss.getSheetByName(name);
    if (!sheet) {
      ss.insertSheet(name).getRange(1, 1, 1, header.length).setValues([header]);
      return { name, next: 2 };
    }
    const width = sheet.getMaxColumns();
    const top = width >= header.length ? sheet.getRange(1, 1, 1, header.length + (width > header.length ? 1 : 0)).getValues()[0] : [];
    if (top.slice(0, header.length).join('\u0000') === header.join('\u0000') && !isFilled(top[header.length] ?? '')) return { name, next: sheet.getLastRow() + 1 };
  }
}

/** Sheets whose name says they hold history (the growth view's choices). */
export const historySheets = (): string[] =>
  SpreadsheetApp.getActiveSpreadsheet()
    .getSheets()
    .map((s) => s.getName())
    .filter((n) => n.startsWith(HISTORY));

// Read once per execution (globals live for one): a schedules view formats several times.
let zone: string | undefined;
const timeZone = (): string => (zone ??= SpreadsheetApp.getActiveSpreadsheet().getSpreadsheetTimeZone());

/** The spreadsheet's offset from UTC in minutes at `t` (its time zone, daylight saving included). */
export function zoneOffset(t: number): number {
  const z = Utilities.formatDate(new Date(t), timeZone(), 'Z'); // "+0530"
  return (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
}

/** A time as the spreadsheet's zone shows it ("Mon 30 Nov 07:00 UTC"): schedules are set in that zone. */
export const sheetTime = (t: number): string =>
  Utilities.formatDate(new Date(t), timeZone(), 'EEE d MMM HH:mm z');

export const writeRow = (sheet: Sheet, row: number, col: number, values: SheetValue[]): void => {
  sheet.getRange(row, col, 1, values.length).setValues([values]);
};

export const sheetByName = (name: string): Sheet | null => SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);

/** `rows` cells of one column from row `row`. */
export const readColumn = (sheet: Sheet, row: number, col: number, rows: number): unknown[] =>
  sheet.getRange(row, col, rows, 1).getValues().map((r) => r[0]);

/** Which of `rows` rows already hold something in `width` columns from `col`. */
export const filledRows = (sheet: Sheet, row: number, col: number, rows: number, width: number): boolean[] =>
  sheet.getRange(row, col, rows, width).getValues().map((r) => r.some(isFilled));

/** Whether a cell holds something (a cell past the sheet's end holds nothing). */
export const cellFilled = (sheet: Sheet, row: number, col: number): boolean =>
  sheet.getMaxRows() >= row && isFilled(sheet.getRange(row, col, 1, 1).getValues()[0][0]);

/** Writes a block of rows at `row` in one call (all or nothing), adding rows at the end when needed. */
export function writeBlock(sheet: Sheet, row: number, col: number, values: SheetValue[][]): void {
  if (!values.length) return;
  ensureRows(sheet, row + values.length - 1);
  sheet.getRange(row, col, values.length, values[0].length).setValues(values);
}

/** Writes contiguous runs of non-null rows from `row` (never touching the rows left null). */
export function writeRuns(sheet: Sheet, row: number, col: number, values: (SheetValue[] | null)[], copyTargets: unknown[] | null): void {
  let r = 0;
  while (r < values.length) {
    if (values[r] === null) {
      r++;
      continue;
    }
    let e = r;
    while (e < values.length && values[e] !== null) e++;
    writeBlock(sheet, row + r, col, values.slice(r, e) as SheetValue[][]);
    if (copyTargets) writeBlock(sheet, row + r, 1, copyTargets.slice(r, e).map((c) => [c as SheetValue]));
    r = e;
  }
}

export type { Range, Sheet };
