/** The usage sheet the sidebar exports (context/usage-log.ts records the usage itself). */
import { emptiedSheet } from '../bulk/grid';
import type { SheetValue } from '../engine/values';
import type { Book } from '../context/context';
import { gasBook } from './book';

const USAGE_SHEET = 'IG Data usage';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A usage day (YYYY-MM-DD) as a date on that day in the spreadsheet's zone (sheet writes keep text as text). */
function dayDate(book: Book, day: string): Date {
  const t = Date.parse(`${day}T00:00:00Z`);
  return new Date(t - book.zoneOffset(t) * 60000);
}

/** Writes the rows the sidebar made of the usage (Day, What, Credits) to the sheet "IG Data usage", replacing it. */
export function exportUsage(rows: SheetValue[][]): void {
  const book = gasBook();
  const dated = rows.map((r, i) =>
    i && typeof r[0] === 'string' && DAY.test(r[0]) ? [dayDate(book, r[0]), ...r.slice(1)] : r,
  );
  emptiedSheet(book, USAGE_SHEET, rows.length, 3).write(1, 1, dated);
}

/** The label of a formula's usage: its function and cell. */
export function formulaLabel(fn: string): string {
  const r = SpreadsheetApp.getActiveRange();
  return r ? `${fn} ${r.getA1Notation()}` : fn;
}
