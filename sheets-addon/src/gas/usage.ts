/** The usage sheet the sidebar exports (run/usage-log.ts records the usage itself). */
const USAGE_SHEET = 'IG Data usage';

/** Writes the rows the sidebar made of the usage (Day, What, Credits) to the sheet "IG Data usage", replacing it. */
export function exportUsage(rows: unknown[][]): void {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  (ss.getSheetByName(USAGE_SHEET) ?? ss.insertSheet(USAGE_SHEET)).clearContents().getRange(1, 1, rows.length, 3).setValues(rows);
}

/** The label of a formula's usage: its function and cell. */
export function formulaLabel(fn: string): string {
  const r = SpreadsheetApp.getActiveRange();
  return r ? `${fn} ${r.getA1Notation()}` : fn;
}
