/**
 * What a run that throws after it was paid leaves for the node's next run in the same execution.
 * n8n's Retry On Fail runs the node again with all its items, and n8n keeps no output of a run
 * that throws: without this, every answer of the failed try would be bought again. A run throws
 * after paying only where the user asked for it (Options > On Not Found: Error) or when all of its
 * answers were lost; the answers are the same a moment later, so the retry uses them.
 *
 * Kept in memory, keyed by the execution's node context (getContext('node'), the object every run
 * of this node in the execution shares: credits.ts): never saved with the execution's data, gone
 * with it. Used once, and only by a run that asks for exactly the same calls.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { isIgError } from '@igdata/core';
import type { ItemCall, ItemResult } from './engine-types';

interface Kept {
  calls: string;
  results: (ItemResult | undefined)[];
}

const kept = new WeakMap<object, Kept>();

const callsKey = (calls: (ItemCall | undefined)[]): string =>
  JSON.stringify(calls.map((c) => c && [c.call.endpoint.id, c.call.params, c.returnAll, c.limit]));

const paid = (r: ItemResult | undefined): boolean =>
  !!r && (r.ok || (isIgError(r.error) && r.error.name === 'IgApiError' && r.error.charged > 0));

/** Called before the run throws: keeps its results when any of them was paid for. */
export function keepForRetry(
  ctx: IExecuteFunctions,
  calls: (ItemCall | undefined)[],
  results: (ItemResult | undefined)[],
): void {
  if (results.some(paid)) kept.set(ctx.getContext('node'), { calls: callsKey(calls), results });
}

/** The results a failed run of the same calls kept (then forgotten), or undefined. */
export function takeKept(
  ctx: IExecuteFunctions,
  calls: (ItemCall | undefined)[],
): (ItemResult | undefined)[] | undefined {
  const context = ctx.getContext('node');
  const found = kept.get(context);
  if (!found) return undefined;
  kept.delete(context);
  return found.calls === callsKey(calls) ? found.results : undefined;
}
