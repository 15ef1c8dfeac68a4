/**
 * The benchmark's report sheet, rewritten whole when its runs end: the report (report.ts), each measure's number
 * format, the leader of each numeric row marked by a conditional format (Sheets decides it from the cells, so a value
 * corrected by hand moves the mark), and Sheets' own column charts of engagement and growth below it.
 */
import { colName, emptiedSheet } from '../bulk/grid';
import type { Context } from '../context/context';
import type { TrackedHistory } from '../tracker/view';
import type { Tracker } from '../tracker/trackers';
import type { Measure } from './measures';
import { BEST_TIME_ENDPOINT, CHARTED, MEASURES } from './measures';
import { benchmarkReport } from './report';

/** Sheets' light green, as the vet's pass. */
const LEADER_COLOR = '#b7e1cd';
/**
 * The charts, side by side on one anchor under the report: two fit beside the add-on's sidebar on a laptop (Sheets'
 * grid is about 930 px wide there), where two of Sheets' default 600 px would not.
 */
const CHART = { width: 450, height: 280, gap: 16 };
/** The rows the charts cover (21 px each), and one more. */
const CHART_ROWS = Math.ceil(CHART.height / 21) + 1;
/** Column widths: the measures' names whole ("Follower growth since the previous run"), an account's values. */
const LABEL_WIDTH = 240;
const ACCOUNT_WIDTH = 150;

/** The benchmark's measures, in its order. */
export const measuresOf = (t: Pick<Tracker, 'measures' | 'zone'>): Measure[] =>
  (t.measures ?? []).flatMap((id) => MEASURES.filter((m) => m.id === id)).map((m) => withZone(m, t.zone ?? 0));

/**
 * A row of hours says their zone: the offset the insight was asked in (the sheet's, in whole hours, when the
 * benchmark was made; a zone of half hours or a daylight-saving change since would otherwise pass unseen).
 */
const withZone = (m: Measure, zone: number): Measure =>
  m.endpoint === BEST_TIME_ENDPOINT ? { ...m, label: `${m.label} (UTC${zone < 0 ? '-' : '+'}${Math.abs(zone)})` } : m;

/**
 * A cell of row `row` leads when it is a number and the row's largest (smallest) number: the custom formula of a
 * conditional format over columns B to `last`, relative to its first cell.
 */
const leaderFormula = (row: number, last: string, leader: 'max' | 'min'): string =>
  `=AND(ISNUMBER(B${row}),B${row}=${leader.toUpperCase()}($B${row}:$${last}${row}))`;

export function writeBenchmark(ctx: Context, t: Tracker, histories: TrackedHistory[], accounts: string[]): void {
  const measures = measuresOf(t);
  const byEndpoint = new Map(t.parts.map((p, i) => [p.endpoint, histories[i]]));
  const report = benchmarkReport(accounts, t.ours, byEndpoint, measures);
  const width = report.rows[0].length;
  const charted = CHARTED.map((id) => measures.findIndex((m) => m.id === id)).filter((i) => i >= 0);
  const chartsAt = report.rows.length + 2;
  const sheet = emptiedSheet(ctx.book, t.view, chartsAt + CHART_ROWS, Math.max(width, 2 * 6));
  sheet.write(1, 1, report.rows);
  sheet.setColumnWidths(1, 1, LABEL_WIDTH);
  const n = report.accounts.length;
  if (!n) {
    sheet.setMarks([]);
    sheet.setCharts([]);
    return;
  }
  const last = colName(width);
  sheet.setColumnWidths(2, n, ACCOUNT_WIDTH);
  measures.forEach((m, i) => {
    if (m.format) sheet.setNumberFormat(report.measureRows[i], 2, 1, n, m.format);
  });
  sheet.setNumberFormat(report.rows.length - 1, 2, 1, n, 'yyyy-mm-dd hh:mm');
  sheet.setMarks(
    measures.flatMap((m, i) => {
      const row = report.measureRows[i];
      return m.leader
        ? [{ row, col: 2, rows: 1, cols: n, formula: leaderFormula(row, last, m.leader), color: LEADER_COLOR }]
        : [];
    }),
  );
  sheet.setCharts(
    charted.map((i, k) => ({
      title: measures[i].label,
      rows: [1, report.measureRows[i]],
      col: 1,
      cols: width,
      at: { row: chartsAt, col: 1, offsetX: k * (CHART.width + CHART.gap) },
      width: CHART.width,
      height: CHART.height,
    })),
  );
}
