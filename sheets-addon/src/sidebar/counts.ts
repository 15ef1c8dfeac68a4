// The sidebar's sentences with a count, through core's one plural helper (the only core file its
// bundle takes: plural.ts). Apart from base.ts so that a test walks them with no page around.
import { counted, noun } from '@igdata/core';

/**
 * A count and its word, through core's one plural helper: "1 credit", "1,500 credits", "0 rows";
 * "– credits" for what is not a number. Every count the sidebar writes goes through it.
 */
export const count = (n: unknown, word: string, many?: string): string =>
  typeof n === 'number' && isFinite(n) ? counted(n, word, many) : '– ' + noun(2, word, many);

/** The selection as the jobs show it: "Sheet1!A2:A8 (7 rows)", or a hint to pick one column. */
export const selectionLabel = (s: { a1: string; rows: number; columns: number } | null): string =>
  s ? s.a1 + ' (' + count(s.rows, 'row') + (s.columns > 1 ? ', select one column' : '') + ')' : 'none';

/** The question asked when another bulk run is going or paused: where it is, and what replacing it leaves undone. */
export function busyRunQuestion(
  current: { status: string; rows: number; next: number },
  place: string,
  instead: string,
): string {
  const left = current.rows - current.next;
  return (
    `Another bulk run is ${current.status === 'paused' ? 'paused' : 'still running'} at ${current.next} of ` +
    `${count(current.rows, 'row')} (${place}). ${instead}? What it wrote stays; its other ${count(left, 'row')} ` +
    `would not be looked up.`
  );
}

/** The numbers of a benchmark's cost preview the sidebar says (igBenchmarkPreview's answer). */
export interface BenchmarkCost {
  accounts: number;
  creditsEach: number;
  parts: { fn: string; creditsEach: number; kept: number }[];
  now: number;
  kept: number;
  uncapped: number;
  perRun: number;
  perMonth: number;
  when: string;
  nextLabel: string;
  balance?: number | null;
  enough?: boolean | null;
}

/**
 * A benchmark's cost, said before anything is spent: what its first run spends now (answers still fresh are free),
 * what a refresh costs and a month of them, against the balance; "Not enough credits" when the first run is more.
 */
export function benchmarkCostText(p: BenchmarkCost): string {
  const parts = p.parts.map((x) => x.fn + ' ' + x.creditsEach).join(' + ');
  const balance = typeof p.balance === 'number' ? p.balance : undefined;
  return (
    'Now: ' +
    count(p.now, 'credit') +
    (p.kept ? ' (' + count(p.kept, 'answer') + ' still fresh, free)' : '') +
    (p.nextLabel ? refreshes(p, parts) : '. Not refreshed: the report stays as this run leaves it.') +
    (balance === undefined ? '' : ' You have ' + count(balance, 'credit') + '.') +
    (p.enough === false
      ? ' Not enough credits: the first run needs ' + count(p.now, 'credit') + '; add credits or untick measures.'
      : '')
  );
}

/** What each refresh costs, and when the next one is. */
function refreshes(p: BenchmarkCost, parts: string): string {
  return (
    '. Then ' +
    p.when +
    ': ' +
    count(p.accounts, 'account') +
    ' \u00d7 ' +
    count(p.creditsEach, 'credit') +
    ' (' +
    parts +
    ') = ' +
    count(p.uncapped, 'credit') +
    ' a run' +
    (p.uncapped > p.perRun ? ', cut to the cap of ' + count(p.perRun, 'credit') : '') +
    ', about ' +
    count(p.perMonth, 'credit') +
    ' a month; next ' +
    p.nextLabel +
    '.'
  );
}
