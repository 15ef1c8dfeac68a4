/**
 * The growth view as a sheet: "IG Data growth" is rewritten from a history sheet (engine/growth.ts)
 * with Sheets' own embedded line chart of one field over time, so it updates like any chart and
 * can be restyled, moved or copied by the user.
 */
import { emptiedSheet, historySheets } from '../bulk/grid';
import { growth, historyFields } from '../engine/growth';
import { activeSpreadsheet, gasBook } from './book';

const GROWTH_SHEET = 'IG Data growth';

/** History sheets and the fields each one holds (the sidebar's choices). */
export function historyChoices(): { name: string; fields: string[] }[] {
  const book = gasBook();
  return historySheets(book).map((name) => {
    const sheet = book.sheet(name)!;
    return { name, fields: historyFields(sheet.read(1, 1, 1, sheet.maxColumns())[0]) };
  });
}

export function growthView(req: { sheet: string; field: string; accounts?: string }): {
  sheet: string;
  accounts: number;
  snapshots: number;
  charted: number;
} {
  const history = activeSpreadsheet().getSheetByName(String(req.sheet ?? ''));
  if (!history)
    throw new Error(
      `There is no sheet named "${req.sheet}": choose a history sheet (made by a lookup writing to "a history sheet").`,
    );
  const g = growth(
    history.getDataRange().getValues(),
    String(req.field ?? ''),
    String(req.accounts ?? '')
      .split(',')
      .filter((a) => a.trim()),
  );
  // The summary's lines: a header and one per account.
  const lines = g.summary.length;
  if (lines < 2) throw new Error(`"${req.sheet}" has no numbers in "${g.field}" yet: run the lookup first.`);
  const summaryWidth = g.summary[0].length;
  // The chart's table: a column of dates and one per account.
  const width = g.series[0].length;
  // The chart's data: below the summary, a title row then date x account.
  const at = lines + 3;
  const grid = emptiedSheet(gasBook(), GROWTH_SHEET, at + g.series.length, Math.max(width, summaryWidth));
  grid.write(1, 1, g.summary);
  grid.setNumberFormat(2, 7, lines - 1, 1, '0.0%');
  grid.write(at - 1, 1, [[`${g.field} over time (from ${req.sheet})`]]);
  grid.write(at, 1, g.series);
  // The chart is Sheets' own (the Grid interface has none): drawn on the sheet itself.
  const sheet = activeSpreadsheet().getSheetByName(GROWTH_SHEET)!;
  for (const c of sheet.getCharts()) sheet.removeChart(c);
  const table = sheet.getRange(at, 1, g.series.length, width);
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
