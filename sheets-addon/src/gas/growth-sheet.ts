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
  const history = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(String(req.sheet ?? ''));
  if (!history) throw new Error(`There is no sheet named "${req.sheet}": choose a history sheet (made by a lookup writing to "a history sheet").`);
  const g = growth(history.getDataRange().getValues(), String(req.field ?? ''), String(req.accounts ?? '').split(',').filter((a) => a.trim()));
  if (g.summary.length < 2) throw new Error(`"${req.sheet}" has no numbers in "${g.field}" yet: run the lookup first.`);
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = ss.getSheetByName(GROWTH_SHEET) ?? ss.insertSheet(GROWTH_SHEET);
  for (const c of sheet.getCharts()) sheet.removeChart(c);
  sheet.clearContents();
  const need = g.summary.length + g.series.length + 3;
  if (sheet.getMaxRows() < need) sheet.insertRowsAfter(sheet.getMaxRows(), need - sheet.getMaxRows());
  if (sheet.getMaxColumns() < Math.max(g.series[0].length, g.summary[0].length)) sheet.insertColumnsAfter(sheet.getMaxColumns(), g.series[0].length);
  sheet.getRange(1, 1, g.summary.length, g.summary[0].length).setValues(g.summary);
  sheet.getRange(2, 7, g.summary.length - 1, 1).setNumberFormat('0.0%');
  // The chart's data: below the summary, a title row then date x account.
  const at = g.summary.length + 3;
  sheet.getRange(at - 1, 1).setValue(`${g.field} over time (from ${req.sheet})`);
  const table = sheet.getRange(at, 1, g.series.length, g.series[0].length);
  table.setValues(g.series);
  const chart = sheet
    .newChart()
    .asLineChart()
    .setTitle(`${g.field} over time`)
    .setXAxisTitle('date')
    .setYAxisTitle(g.field)
    .addRange(table)
    .setNumHeaders(1)
    .setPosition(1, g.summary[0].length + 2, 0, 0)
    .build();
  sheet.insertChart(chart);
  sheet.activate();
  return { sheet: GROWTH_SHEET, accounts: g.summary.length - 1, snapshots: g.snapshots, charted: g.series[0].length - 1 };
}
