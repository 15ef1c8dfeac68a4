/**
 * The benchmark report (pure): one column per account, ours first, one row per measure (measures.ts) with each
 * account's latest value from the benchmark's history sheets, or for growth the change since the run before; then
 * when each account's answers were fetched and, for an account with no public data, why. Which cell leads a row is
 * not decided here: the sheet's conditional format does it (report-sheet.ts), so it follows the values.
 */
import { historyTime } from '../engine/growth';
import type { SheetValue } from '../engine/values';
import type { Row, TrackedHistory } from '../tracker/view';
import { fetchPoints, fetchedAt, isFailedRow } from '../tracker/view';
import type { Measure } from './measures';

export interface BenchmarkReport {
  /** The header (measure, then the accounts) and a line per measure, then `fetched` and `note`. */
  rows: SheetValue[][];
  /** Each measure's sheet row (1-based), in the report's order. */
  measureRows: number[];
  /** The accounts in the report's order: ours first. */
  accounts: string[];
}

/** An account's rows of a history, oldest first (a history's values are read whole, header first). */
function rowsOf(h: TrackedHistory, account: string): Row[] {
  return h.values
    .slice(1)
    .flatMap((r): Row[] => {
      const t = historyTime(r[0]);
      return Number.isNaN(t) || String(r[1]) !== account ? [] : [{ t, target: account, cells: r.slice(2) }];
    })
    .sort((a, b) => a.t - b.t);
}

/** A measure's cell for one account: its latest value, or the change in % since the previous snapshot (growth). */
function cellOf(m: Measure, h: TrackedHistory, rows: Row[]): SheetValue {
  const col = h.fields.indexOf(m.field);
  const answers = rows.filter((r) => !isFailedRow(h.fields, r.cells));
  if (!m.change) {
    const last = rows[rows.length - 1];
    if (!last || !answers.includes(last)) return '';
    if (m.shown) return m.shown.of(m.shown.fields.map((f) => last.cells[h.fields.indexOf(f)] ?? ''));
    const v = (last.cells[col] ?? '') as SheetValue;
    return m.zeroIsNone && v === 0 ? '' : v;
  }
  const points = fetchPoints(h, answers, col);
  const [prev, latest] = points.slice(-2);
  return points.length > 1 && prev ? (latest - prev) / prev : '';
}

/**
 * `accounts`: the benchmark's accounts as the service reads them, in the column's order; `ours`: its own account
 * (first in the report; the column's first when it is not among them); `histories`: its history sheets by endpoint.
 */
export function benchmarkReport(
  accounts: string[],
  ours: string | undefined,
  histories: Map<string, TrackedHistory>,
  measures: Measure[],
): BenchmarkReport {
  const first = ours && accounts.includes(ours) ? ours : accounts[0];
  const order = first === undefined ? [] : [first, ...accounts.filter((a) => a !== first)];
  const header: SheetValue[] = ['measure', ...order.map((a) => (a === first ? `${a} (ours)` : a))];
  const lines = measures.map((m): SheetValue[] => {
    const h = histories.get(m.endpoint);
    return [m.label, ...order.map((a) => (h ? cellOf(m, h, rowsOf(h, a)) : ''))];
  });
  // When each account's answers were fetched (the latest of its histories), and why one has no values.
  const fetched: SheetValue[] = ['fetched'];
  const notes: SheetValue[] = ['note'];
  for (const a of order) {
    let at = 0;
    let note = '';
    for (const h of histories.values()) {
      const last = rowsOf(h, a).pop();
      if (!last) continue;
      at = Math.max(at, fetchedAt(h, last));
      if (!note && isFailedRow(h.fields, last.cells)) note = String(last.cells[0]);
    }
    fetched.push(at ? new Date(at) : '');
    notes.push(note);
  }
  return {
    rows: [header, ...lines, fetched, notes],
    measureRows: measures.map((_, i) => i + 2),
    accounts: order,
  };
}
