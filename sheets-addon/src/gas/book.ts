/** The spreadsheet (context/context.ts Book and Grid) over SpreadsheetApp. */
import type { SheetValue } from '../engine/values';
import { entered } from '../engine/values';
import type { Book, Grid, Rect } from '../context/context';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;
type Range = GoogleAppsScript.Spreadsheet.Range;

/**
 * The add-on's only way of putting values into cells (sheets-addon/test/layers.test.ts checks that
 * nothing else calls setValues or appendRow): each value as `entered` makes it, so text from the
 * API stays that text. One read of the formats tells which cells are plain text; `formats` null:
 * none are (the add-on's own hidden sheet, which nobody formats: no read).
 */
export function setCells(
  range: Range,
  values: SheetValue[][],
  formats: string[][] | null = range.getNumberFormats(),
): void {
  range.setValues(values.map((row, r) => row.map((v, c) => entered(v, formats?.[r][c] === '@'))));
}

/** The spreadsheet this execution is bound to. */
export const activeSpreadsheet = (): GoogleAppsScript.Spreadsheet.Spreadsheet => SpreadsheetApp.getActiveSpreadsheet();

const gridOf = (sheet: Sheet): Grid => ({
  maxRows: () => sheet.getMaxRows(),
  maxColumns: () => sheet.getMaxColumns(),
  lastRow: () => sheet.getLastRow(),
  read: (row, col, rows, cols) => sheet.getRange(row, col, rows, cols).getValues(),
  write: (row, col, values) => {
    if (values.length) setCells(sheet.getRange(row, col, values.length, values[0].length), values);
  },
  insertRowsAfter: (after, count) => {
    sheet.insertRowsAfter(after, count);
  },
  insertColumnsAfter: (after, count) => {
    sheet.insertColumnsAfter(after, count);
  },
  // A column in one setFormulas (a tracker's trend column): a call per cell would hold the
  // document lock for minutes on a long list.
  writeFormulas: (row, col, formulas) => {
    sheet.getRange(row, col, formulas.length, 1).setFormulas(formulas.map((f) => [f]));
  },
  setNumberFormat: (row, col, rows, cols, format) => {
    sheet.getRange(row, col, rows, cols).setNumberFormat(format);
  },
  colorWhen: (row, col, rows, cols, rules) => {
    const range = sheet.getRange(row, col, rows, cols);
    const added = rules.map((r) =>
      SpreadsheetApp.newConditionalFormatRule()
        .whenTextEqualTo(r.text)
        .setBackground(r.color)
        .setRanges([range])
        .build(),
    );
    sheet.setConditionalFormatRules([...sheet.getConditionalFormatRules(), ...added]);
  },
  clear: () => {
    sheet.clearContents();
  },
  setColumnWidths: (col, cols, px) => {
    sheet.setColumnWidths(col, cols, px);
  },
  setMarks: (marks) => {
    const rules = marks.map((m) =>
      SpreadsheetApp.newConditionalFormatRule()
        .whenFormulaSatisfied(m.formula)
        .setBackground(m.color)
        .setRanges([sheet.getRange(m.row, m.col, m.rows, m.cols)])
        .build(),
    );
    sheet.setConditionalFormatRules(rules);
  },
  setCharts: (charts) => {
    for (const c of sheet.getCharts()) sheet.removeChart(c);
    for (const c of charts) {
      const b = sheet
        .newChart()
        .asColumnChart()
        .setTitle(c.title)
        .setLegendPosition(Charts.Position.NONE)
        .setOption('width', c.width)
        .setOption('height', c.height);
      for (const row of c.rows) b.addRange(sheet.getRange(row, c.col, 1, c.cols));
      // The rows are the series: the accounts, across the columns, are the categories.
      sheet.insertChart(
        b
          // Row ranges stacked (header row, then the measure's row), then turned: a series per measure.
          .setMergeStrategy(Charts.ChartMergeStrategy.MERGE_ROWS)
          .setTransposeRowsAndColumns(true)
          .setNumHeaders(1)
          .setPosition(c.at.row, c.at.col, c.at.offsetX ?? 0, 0)
          .build(),
      );
    }
  },
});

export function gasBook(): Book {
  const ss = activeSpreadsheet;
  // Read once per entry point: a schedules view formats several times.
  let zone: string | undefined;
  const timeZone = (): string => (zone ??= ss().getSpreadsheetTimeZone());
  return {
    sheet: (name) => {
      const s = ss().getSheetByName(name);
      return s ? gridOf(s) : null;
    },
    insertSheet: (name) => gridOf(ss().insertSheet(name)),
    sheetNames: () =>
      ss()
        .getSheets()
        .map((s) => s.getName()),
    selection: (): Rect | null => {
      const r = SpreadsheetApp.getActiveRange();
      return (
        r && {
          sheet: r.getSheet().getName(),
          row: r.getRow(),
          col: r.getColumn(),
          rows: r.getNumRows(),
          cols: r.getNumColumns(),
          a1: r.getA1Notation(),
        }
      );
    },
    zoneOffset(t) {
      const z = Utilities.formatDate(new Date(t), timeZone(), 'Z'); // "+0530"
      return (z[0] === '-' ? -1 : 1) * (Number(z.slice(1, 3)) * 60 + Number(z.slice(3, 5)));
    },
    formatTime: (t) => Utilities.formatDate(new Date(t), timeZone(), 'EEE d MMM HH:mm z'),
  };
}
