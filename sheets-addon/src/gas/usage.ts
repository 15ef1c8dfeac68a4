/** The usage sheet the sidebar exports (run/usage-log.ts records the usage itself). */
import { emptiedSheet } from '../bulk/grid';
import type { SheetValue } from '../engine/values';
import { gasBook } from './book';

const USAGE_SHEET = 'IG Data usage';

/** Writes the rows the sidebar made of the usage (Day, What, Credits) to the sheet "IG Data usage", replacing it. */
export function exportUsage(rows: SheetValue[][]): void {
  emptiedSheet(gasBook(), USAGE_SHEET, rows.length, 3).write(1, 1, rows);
}

/** The label of a formula's usage: its function and cell. */
export function formulaLabel(fn: string): string {
  const r = SpreadsheetApp.getActiveRange();
  return r ? `${fn} ${r.getA1Notation()}` : fn;
}
