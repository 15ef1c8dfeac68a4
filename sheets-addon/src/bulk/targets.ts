/** The target rows of runs that write each distinct target once (list and history runs). */
import type { Call } from '@igdata/core';
import type { SheetValue } from '../engine/values';
import type { BulkPlanned } from './plan';
import { bulkRow } from './plan';

export type TargetRow =
  | { kind: 'blank' }
  | { kind: 'dup' }
  | { kind: 'invalid'; label: SheetValue; message: string }
  | { kind: 'call'; label: SheetValue; key: string; call: Call };

/** The cell as written beside its values: text trimmed, anything else as it is. */
const labelOf = (cell: unknown): SheetValue => (typeof cell === 'string' ? cell.trim() : (cell as SheetValue));

/**
 * The rows `from` .. `from + n - 1` of the column `cells` (read from its first row): a target seen
 * in an `earlier` row or earlier in the window is a `dup`.
 */
export function distinctRows(plan: BulkPlanned, cells: unknown[], from: number, n: number, earlier: Iterable<number>): TargetRow[] {
  const seen = new Set<string>();
  for (const r of earlier) {
    const c = bulkRow(plan, cells[r]);
    if (c.kind === 'call') seen.add(c.key);
  }
  return cells.slice(from, from + n).map((cell): TargetRow => {
    const c = bulkRow(plan, cell);
    if (c.kind === 'blank') return c;
    if (c.kind === 'error') return { kind: 'invalid', label: labelOf(cell), message: c.message };
    if (seen.has(c.key)) return { kind: 'dup' };
    seen.add(c.key);
    return { kind: 'call', label: labelOf(cell), key: c.key, call: c.call };
  });
}
