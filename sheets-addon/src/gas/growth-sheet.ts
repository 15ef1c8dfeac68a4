/**
 * The growth view as a sheet: "IG Data growth" is rewritten from a history sheet (engine/growth.ts)
 * with Sheets' own embedded line chart of one field over time, so it updates like any chart and
 * can be restyled, moved or copied by the user.
 */
import { historySheets } from '../bulk/grid';
import { growth, historyFields } from '../engine/growth';
import { gasBook } from './book';

const GROWTH_SHEET = 'IG Data growth';

/** History sheets and the fields each one holds (the sidebar's choices). */
export function historyChoices(): { name: string; fields: string[] }[] {
  const book = gasBook();
  return historySheets(book).map((name) => {
    const sheet = book.sheet(name)!;
    return { name, fields: historyFields(sheet.read(1, 1, 1, sheet.maxColumns())[0]) };
  });
}

export function growthView(req: { sheet: string; field: string; accounts?: string }): { sheet: string; accounts: number; snapshots: number; charted: number } {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const history = ss.getSheetByName(String(req.sheet ?? ''));
  if (!history) throw new Error(`There is no sheet named "${req.sheet}": choose a history sheet (made by a lookup writing to "a history sheet").`);
  const g = growth(history.getDataRange().getValues(), String(req.field ?? ''), String(req.accounts ?? '').split(',').filter((a) => a.trim()));
  // The summary's lines: a header and one per account.
  const lines = g.summary.length;
  if (lines < 2) throw new Error(`"${req.sheet}" has no numbers in "${g.field}" yet: run the lookup first.`);
  const summaryWidth = g.summary[0].length;
  // The chart's table: a column of dates and one per account.
  const width = g.series[0].length;
  const sheet = ss.getSheetByName(GROWTH_SHEET) ?? ss.insertSheet(GROWTH_SHEET);
  for (const c of sheet.getCharts()) sheet.removeChart(c);
  sheet.clearContents();
  // The chart's data: below the summary, a title row then date x account.
  const at = lines + 3;
  const need = at + g.series.length;
  if (sheet.getMaxRows() < need) sheet.insertRowsAfter(sheet.getMaxRows(), need - sheet.getMaxRows());
  if (sheet.getMaxColumns() < Math.max(width, summaryWidth)) sheet.insertColumnsAfter(sheet.getMaxColumns(), width);
  sheet.getRange(1, 1, lines, summaryWidth).setValues(g.summary);
  sheet.getRange(2, 7, lines - 1, 1).setNumberFormat('0.0%');
  sheet.getRange(at - 1, 1).setValue(`${g.field} over time (from ${req.sheet})`);
  const table = sheet.getRange(at, 1, g.series.length, width);
  table.setValues(g.series);
  const chart = sheet
    .newChart()
    .asLineChart()
    .setTitle(`${g.field} over time`)
    .setXAxisTitle('date')
    .setYAxisTitle(g.field)
    .addRange(table)
    .setNumHeaders(1)
    .setPosition(1, summaryWidth + 2, 0, 0)
    .build();
  sheet.insertChart(chart);
  sheet.activate();
  return { sheet: GROWTH_SHEET, accounts: lines - 1, snapshots: g.snapshots, charted: width - 1 };
}
