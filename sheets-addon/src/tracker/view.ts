/**
 * The tracker view (pure): one line per account of the tracked column with, for each field, the
 * latest value, the change since the previous snapshot (absolute and %), and a trend: Sheets' own
 * SPARKLINE over the account's rows of the history sheet, so it redraws itself when a run appends
 * snapshots. An account renamed since (same id in the profile history: `idField`) keeps its line: its rows
 * under the old name count as its own. A private or deleted account shows why, once, in `note`.
 */
import type { SheetValue } from '../engine/values';
import { ERROR_CODE, FETCHED_AT } from '../engine/values';
import { colName, isFilled } from '../bulk/grid';
import { historyTime } from '../engine/growth';

/** A history sheet of a tracker: `values` read whole, header first (date, target, fields...). */
export interface TrackedHistory {
  name: string;
  fields: string[];
  values: unknown[][];
  /** Its field holding the account's stable id (the registry's tracker.idField), if it has one. */
  idField?: string;
}

export interface TrackerView {
  header: string[];
  /** Values of each line; a trend cell is blank here and a formula in `trends`. */
  rows: SheetValue[][];
  /** Each field's trend column (1-based) and its formula on each line, in line order. */
  trends: { col: number; formulas: string[] }[];
  /** Columns (1-based) holding a change in % (formatted 0.0%). */
  percentCols: number[];
  /** The value and change columns of the fields that count (whole numbers): "#,##0". */
  countCols: number[];
}

const quote = (sheet: string) => `'${sheet.replace(/'/g, "''")}'`;
const text = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** The SPARKLINE of one field of the accounts named `aliases` in a history sheet: its numbers, in date order. */
export function sparklineFormula(history: string, fieldCol: number, aliases: string[]): string {
  const sheet = quote(history);
  const values = `${sheet}!${colName(fieldCol)}2:${colName(fieldCol)}`;
  const names = aliases.map((a) => `(${sheet}!B2:B=${text(a)})`).join('+');
  return `=IFERROR(SPARKLINE(FILTER(${values},ISNUMBER(${values}),${names})),"")`;
}

/**
 * Whether a history row is a failed lookup's (its sentence in the first field) rather than values:
 * its ERROR_CODE cell holds the code. A history sheet made before that column (an older tracker's)
 * tells by its `_fetched_at` cell instead, filled on every answer and blank on a failure; one with
 * neither cannot tell, and shows no note.
 */
export function isFailedRow(fields: string[], cells: unknown[]): boolean {
  const code = fields.indexOf(ERROR_CODE);
  if (code >= 0) return isFilled(cells[code] ?? '');
  const fetched = fields.indexOf(FETCHED_AT);
  return fetched >= 0 && !isFilled(cells[fetched] ?? '') && isFilled(cells[0] ?? '');
}

export interface Row {
  t: number;
  target: string;
  cells: unknown[];
}

/**
 * When a snapshot's answer was fetched: its `_fetched_at` cell (a run may reuse an answer fetched
 * before it started), else the run's date (a message row, or a history sheet made before the column).
 */
export function fetchedAt(h: Pick<TrackedHistory, 'fields'>, row: Row): number {
  const t = historyTime(row.cells[h.fields.indexOf(FETCHED_AT)]);
  return Number.isNaN(t) ? row.t : t;
}

/**
 * The numbers of column `col` of an account's rows (oldest first), one per answer fetched: a run that reused the
 * previous run's answer (still fresh) wrote the same snapshot again, which is no change since that run.
 */
export function fetchPoints(h: Pick<TrackedHistory, 'fields'>, rows: Row[], col: number): number[] {
  const byFetch = new Map<number, number>();
  for (const r of rows) if (typeof r.cells[col] === 'number') byFetch.set(fetchedAt(h, r), r.cells[col] as number);
  return [...byFetch.values()];
}

/**
 * `accounts`: the column's distinct targets as the service reads them, in order; `sortBy`: a field (latest value,
 * largest first).
 */
export function trackerView(accounts: string[], histories: TrackedHistory[], sortBy: string): TrackerView {
  const parsed = histories.map((h) => ({
    ...h,
    rows: h.values.slice(1).flatMap((r): Row[] => {
      const t = historyTime(r[0]);
      return Number.isNaN(t) || !r[1] ? [] : [{ t, target: String(r[1]), cells: r.slice(2) }];
    }),
  }));
  // Renames: the id column (the profile's) links every name an account had.
  const withId = parsed.find((h) => h.idField && h.fields.includes(h.idField));
  const idCol = withId ? withId.fields.indexOf(withId.idField!) : -1;
  const aliasesOf = (account: string): string[] => {
    if (!withId) return [account];
    const mine = withId.rows.filter((r) => r.target === account && r.cells[idCol]);
    const id = mine[mine.length - 1]?.cells[idCol];
    if (!id) return [account];
    return [...new Set([account, ...withId.rows.filter((r) => r.cells[idCol] === id).map((r) => r.target)])];
  };
  const fields = parsed.flatMap((h) =>
    h.fields
      .filter((f) => f !== h.idField && f !== FETCHED_AT && f !== ERROR_CODE)
      .map((f) => ({ h, f, col: h.fields.indexOf(f) })),
  );
  const header = [
    'account',
    'fetched',
    ...fields.flatMap(({ f }) => [f, `${f} change`, `${f} change %`, `${f} trend`]),
    'note',
  ];
  // A field whose every value is a whole number is a count (followers, posts): its value and change
  // columns get thousands separators ("#,##0"), as a scorecard's followers do.
  const counts = fields.map(() => true);
  const lines = accounts.map((account) => {
    const aliases = aliasesOf(account);
    let fetched = 0;
    let note = '';
    const cells: SheetValue[] = [];
    const trends: string[] = [];
    let sortValue = -Infinity;
    for (const [i, { h, f, col }] of fields.entries()) {
      const rows = h.rows.filter((r) => aliases.includes(r.target)).sort((a, b) => a.t - b.t);
      const last = rows[rows.length - 1];
      if (last) fetched = Math.max(fetched, fetchedAt(h, last));
      // A message row (private, deleted...) has its sentence in the first field: said once, in note.
      if (last && !note && isFailedRow(h.fields, last.cells)) note = String(last.cells[0]);
      const points = fetchPoints(h, rows, col);
      if (!points.every((v) => Number.isInteger(v))) counts[i] = false;
      const latest = points[points.length - 1];
      const prev = points[points.length - 2];
      if (f === sortBy && latest !== undefined) sortValue = latest;
      // (a previous value implies a latest one)
      cells.push(latest ?? '', prev === undefined ? '' : latest! - prev, prev ? (latest! - prev) / prev : '', '');
      trends.push(sparklineFormula(h.name, col + 3, aliases));
    }
    // A line with no value at all says why in view, in its first value cell (the note column is far
    // right, past the screen's edge with three fields).
    if (note && !cells.some((c) => c !== '')) cells[0] = note;
    return { sortValue, row: [account, fetched ? new Date(fetched) : '', ...cells, note] as SheetValue[], trends };
  });
  lines.sort((a, b) => (b.sortValue === a.sortValue ? 0 : b.sortValue > a.sortValue ? 1 : -1));
  // A field's four columns from column 3: value, change, change %, trend.
  const percentCols = fields.map((_, i) => 3 + i * 4 + 2);
  const countCols = fields.flatMap((_, i) => (counts[i] ? [3 + i * 4, 3 + i * 4 + 1] : []));
  const trends = fields.map((_, i) => ({ col: 3 + i * 4 + 3, formulas: lines.map((l) => l.trends[i]) }));
  return { header, rows: lines.map((l) => l.row), trends, percentCols, countCols };
}
