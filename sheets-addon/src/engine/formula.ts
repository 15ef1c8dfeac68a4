/**
 * The range-first engine behind every IG... custom function, free of Apps Script: one execution
 * handles the whole range. Targets are resolved and de-duplicated, stored answers cost nothing,
 * the rest go out in fetchAll batches inside a time budget, and the result is one row per input
 * row (blank rows stay blank, failures are a message in that row, rows not reached in time say so).
 */
import type { SheetValue } from './values';
import { getEndpoint, isIgError } from '@igdata/core';
import { parseArgs } from './args';
import { format } from './format';
import { messageOf } from './messages';
import type { EngineDeps } from './deps';
import { planRow, uniqueCalls } from './rows';
import type { Lost } from './walk';
import { walkCalls } from './walk';

/** Custom functions must return within 30 s: no new batch starts after this much time. */
const CUSTOM_BUDGET_MS = 20000;

/** A custom function: args as Sheets passes them; returns a value or a 2D array, or throws the message. */
export function evaluateFormula(
  endpointId: string,
  args: unknown[],
  deps: () => EngineDeps,
  now: () => number = Date.now,
  /** Told the credits this formula spent, and its lookups whose answer was lost (the usage log). */
  spent?: (fn: string, credits: number, lost: Lost) => void,
): SheetValue | SheetValue[][] {
  const started = now();
  try {
    const endpoint = getEndpoint(endpointId);
    const parsed = parseArgs(endpoint, args);
    const rows = parsed.targets.map((cell) => planRow(endpoint, parsed.targetName, parsed.params, cell));
    // A single bad target fails the formula (a bad argument); in a range it is that row's message.
    if (!parsed.isRangeInput && rows[0].kind === 'error') throw new Error(rows[0].message);
    const d = deps();
    const { results, credits, lost } = walkCalls(endpoint, uniqueCalls(rows), d, {
      deadline: started + CUSTOM_BUDGET_MS,
      refresh: parsed.refresh,
      limit: parsed.limit,
      claims: !parsed.refresh, // other cells recalculating at the same time never pay twice
    });
    if (credits || lost.lookups) spent?.(endpoint.fn, credits, lost);
    return format(parsed, rows, results, d.zoneOffset);
  } catch (e) {
    if (isIgError(e)) throw new Error(messageOf(e));
    throw e;
  }
}
