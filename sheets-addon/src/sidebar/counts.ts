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
