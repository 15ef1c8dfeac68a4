/**
 * The kept answers' hidden sheet (engine/keep.ts holds the layout and the rules). Custom functions
 * read it; only writers (bulk steps, sidebar and menu actions, the hourly trigger) create and write
 * it. A row has at most 6 cells (keep.ts), so a new sheet's 26 columns are always enough.
 */
import type { KeptGrid } from '../engine/keep';
import { KEEP_ROWS, MAX_CELLS } from '../engine/keep';
import { activeSpreadsheet, setCells } from './book';

export const KEPT_SHEET = 'IG Data answers';

const find = () => activeSpreadsheet().getSheetByName(KEPT_SHEET);

export const keptGrid: KeptGrid = {
  read(rows) {
    const sheet = find();
    const width = sheet?.getLastColumn();
    // One row for one target; else one getValues of the whole block (far cheaper than one per row).
    const first = rows ? rows[0] : 1;
    const values = sheet && width ? sheet.getRange(first, 1, rows ? 1 : KEEP_ROWS, width).getValues() : [];
    return new Map(values.map((r, i) => [first + i, r.map(String)]));
  },
  write(rows) {
    let sheet = find();
    if (!sheet) {
      // insertSheet makes the new sheet the active one: the user's sheet stays in front.
      const ss = activeSpreadsheet();
      const active = ss.getActiveSheet();
      (sheet = ss.insertSheet(KEPT_SHEET)).hideSheet();
      active.activate();
    }
    // Every cell a row may use is written: cells beyond its new end are cleared.
    // Through setCells like every write, without reading formats (up to 128 rows a flush; nobody formats this sheet).
    for (const [row, cells] of rows)
      setCells(
        sheet.getRange(row, 1, 1, MAX_CELLS),
        [Array.from({ length: MAX_CELLS }, (_, i) => cells[i] ?? '')],
        null,
      );
  },
};
