/**
 * The growth view of a history sheet (rows: date, target, fields...): per account, the latest
 * snapshot against the previous one, and a date-by-account table of one field for a line chart.
 */
import { ERROR_CODE, FETCHED_AT } from './values';

export interface Growth {
  field: string;
  /** Account, latest date, latest, previous date, previous, change, change (ratio; blank when previous is 0). */
  summary: (string | number | Date)[][];
  /** date, then one column per charted account; blank where an account has no snapshot that day. */
  series: (string | number | Date)[][];
  snapshots: number;
}

export const SUMMARY_HEADER = ['account', 'latest date', 'latest', 'previous date', 'previous', 'change', 'change %'];
/** Lines in the chart: more would be unreadable (the summary lists every account). */
export const CHART_ACCOUNTS = 8;

/**
 * The time of a history sheet's row (its date cell), for the growth view and the tracker view; NaN when it holds none.
 */
export const historyTime = (v: unknown): number =>
  v instanceof Date || typeof v === 'string' || typeof v === 'number' ? new Date(v).getTime() : NaN;

/**
 * Numeric fields of a history sheet's header (the growth view's choices): everything after date and target but when
 * each answer was fetched.
 */
export const historyFields = (header: unknown[]): string[] =>
  header
    .slice(2)
    .map(String)
    .filter((f) => f && f !== FETCHED_AT && f !== ERROR_CODE);

/** `values`: the history sheet, header first. Throws with a clear message when `field` is not one of its columns. */
export function growth(values: unknown[][], field: string, accounts: string[] = []): Growth {
  const header = (values[0] ?? []).map(String);
  const col = header.indexOf(field, 2);
  if (col < 0)
    throw new Error(
      `The history has no column "${field}": choose one of ${historyFields(header).join(', ') || '(none)'}.`,
    );
  // account -> time -> value (numbers only; a message row or a blank is no snapshot)
  const by = new Map<string, Map<number, number>>();
  let snapshots = 0;
  for (const row of values.slice(1)) {
    const t = historyTime(row[0]);
    const v = row[col];
    const account = String(row[1] ?? '').trim();
    if (!account || Number.isNaN(t) || typeof v !== 'number') continue;
    if (!by.has(account)) by.set(account, new Map());
    by.get(account)!.set(t, v);
    snapshots++;
  }
  const summary = [...by].map(([account, points]) => {
    const [last, before] = [...points.keys()].sort((a, b) => b - a);
    const latest = points.get(last)!;
    const head = [account, new Date(last), latest];
    if (before === undefined) return [...head, '', '', '', ''];
    const prev = points.get(before)!;
    return [...head, new Date(before), prev, latest - prev, prev ? (latest - prev) / prev : ''];
  });
  summary.sort((a, b) => (b[2] as number) - (a[2] as number));
  const wanted = accounts.map((a) => a.trim()).filter((a) => by.has(a));
  const charted = wanted.length ? wanted : summary.slice(0, CHART_ACCOUNTS).map((r) => r[0] as string);
  const times = [...new Set(charted.flatMap((a) => [...by.get(a)!.keys()]))].sort((a, b) => a - b);
  const series = [
    ['date', ...charted],
    ...times.map((t) => [new Date(t), ...charted.map((a) => by.get(a)!.get(t) ?? '')]),
  ];
  return { field, summary: [SUMMARY_HEADER, ...summary], series, snapshots };
}
