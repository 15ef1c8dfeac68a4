/** Planning rows: each target cell becomes a blank, a message (bad input) or a call. */
import type { Call, EndpointDef } from '@igdata/core';
import { errorCode, isBlank, isIgError, prepare } from '@igdata/core';
import { keyOf } from './fetch';
import { messageOf } from './messages';

export type PlannedRow =
  { kind: 'blank' } | { kind: 'error'; message: string; code: string } | { kind: 'call'; key: string; call: Call };

/**
 * The call for one target cell with the other parameters: a blank cell is a blank row, bad input
 * is its message (nothing is sent for it). Used by the custom functions and bulk runs alike.
 */
export function planRow(
  endpoint: EndpointDef,
  targetName: string | undefined,
  params: Record<string, unknown>,
  cell: unknown,
): PlannedRow {
  if (targetName && isBlank(cell)) return { kind: 'blank' };
  try {
    const input = targetName ? { ...params, [targetName]: typeof cell === 'string' ? cell.trim() : cell } : params;
    const call = prepare(endpoint, input);
    return { kind: 'call', key: keyOf(call), call };
  } catch (e) {
    if (isIgError(e)) return { kind: 'error', message: messageOf(e), code: errorCode(e) };
    throw e;
  }
}

/** A row that makes a call: a planned row's, or a bulk run's target row (bulk/targets.ts). */
type CallRow = Extract<PlannedRow, { kind: 'call' }>;
const isCall = (row: { kind: string }): row is CallRow => row.kind === 'call';

/** The distinct calls of rows (planned, or a bulk run's), by request key (a repeated target is one call). */
export function uniqueCalls(rows: { kind: string }[]): Map<string, Call> {
  const calls = new Map<string, Call>();
  for (const row of rows) if (isCall(row)) calls.set(row.key, row.call);
  return calls;
}
