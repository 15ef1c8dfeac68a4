/**
 * The kept answers' hidden sheet (engine/keep.ts holds the layout and the rules). Custom functions
 * read it; only writers (bulk steps, sidebar and menu actions, the hourly trigger) create and write it.
 */
import type { KeptGrid } from '../engine/keep';
import { KEEP_ROWS } from '../engine/keep';

export const KEPT_SHEET = 'IG Data answers';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

const find = (): Sheet | null => SpreadsheetApp.getActiveSpreadsheet()?.getSheetByName(KEPT_SHEET) ?? null;

function create(): Sheet {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = ss.insertSheet(KEPT_SHEET, ss.getNumSheets());
  sheet.hideSheet();
  return sheet;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export const keptGrid: KeptGrid = {
  read(rows) {
    const out = new Map<number, string[]>();
    const sheet = find();
    const width = sheet?.getLastColumn() ?? 0;
    if (!sheet || width < 1) return out;
    if (rows && rows.length === 1) {
      out.set(rows[0], sheet.getRange(rows[0], 1, 1, width).getValues()[0].map(text));
      return out;
    }
    // Several rows: one getValues of the whole block (one call is far cheaper than one per row).
    sheet.getRange(1, 1, KEEP_ROWS, width).getValues().forEach((r, i) => out.set(i + 1, r.map(text)));
    return out;
  },
  write(rows) {
    const sheet = find() ?? create();
    const width = Math.max(1, sheet.getLastColumn(), ...[...rows.values()].map((r) => r.length));
    if (width > sheet.getMaxColumns()) sheet.insertColumnsAfter(sheet.getMaxColumns(), width - sheet.getMaxColumns());
    for (const [row, cells] of rows) {
      sheet.getRange(row, 1, 1, width).setValues([Array.from({ length: width }, (_, i) => cells[i] ?? '')]);
    }
  },
};
