/** The target rows of a bulk run: each source cell as a blank, a bad target, a repeat or a call. */
import type { Call, EndpointDef } from '@igdata/core';
import type { PlannedRow } from '../engine/rows';
import { planRow, uniqueCalls } from '../engine/rows';
import type { SheetValue } from '../engine/values';

/** What a run needs to plan a target cell: the endpoint, its target parameter and the other parameters. */
export interface BulkPlanned {
  endpoint: EndpointDef;
  targetName: string;
  params: Record<string, unknown>;
}

export const bulkRow = (p: BulkPlanned, cell: unknown): PlannedRow => planRow(p.endpoint, p.targetName, p.params, cell);

export type TargetRow =
  | { kind: 'blank' }
  /** Its output row already holds something: a run never overwrites it (rows runs). */
  | { kind: 'filled' }
  | { kind: 'dup' }
  | { kind: 'invalid'; label: SheetValue; message: string; code: string }
  | { kind: 'call'; label: SheetValue; key: string; call: Call };

/** The cell as written beside its values: text trimmed, anything else as it is. */
const labelOf = (cell: unknown): SheetValue => (typeof cell === 'string' ? cell.trim() : (cell as SheetValue));

function targetRow(p: BulkPlanned, cell: unknown): Exclude<TargetRow, { kind: 'filled' | 'dup' }> {
  const c = bulkRow(p, cell);
  if (c.kind === 'blank') return c;
  if (c.kind === 'error') return { kind: 'invalid', label: labelOf(cell), message: c.message, code: c.code };
  return { kind: 'call', label: labelOf(cell), key: c.key, call: c.call };
}

/** Rows runs: every cell its own row; `filled[i]` = its output is already written. */
export const eachRow = (p: BulkPlanned, cells: unknown[], filled: boolean[]): TargetRow[] =>
  cells.map((cell, i) => (filled[i] ? { kind: 'filled' } : targetRow(p, cell)));

/**
 * The rows `from` .. `from + n - 1` of the column `cells` (read from its first row): a target seen
 * in a row above or earlier in the window is a `dup`.
 */
export function distinctRows(p: BulkPlanned, cells: unknown[], from: number, n: number): TargetRow[] {
  const seen = new Set(uniqueCalls(cells.slice(0, from).map((cell) => bulkRow(p, cell))).keys());
  return cells.slice(from, from + n).map((cell): TargetRow => {
    const row = targetRow(p, cell);
    if (row.kind !== 'call') return row;
    if (seen.has(row.key)) return { kind: 'dup' };
    seen.add(row.key);
    return row;
  });
}
