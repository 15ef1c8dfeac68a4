/**
 * One request per distinct question: identical normalised requests (core's `requestKey`) are sent
 * once and the answer is fanned out to every item that asked for it, charged to the first.
 */
import { isIgError, requestKey, servedAgain } from '@igdata/core';
import type { ItemCall, ItemResult } from './engine-types';

function callKey(itemCall: ItemCall): string {
  const key = requestKey(itemCall.call.endpoint, itemCall.call.params);
  if (itemCall.call.endpoint.shape !== 'list') return key;
  return `${key}#${itemCall.returnAll ? 'all' : `limit=${itemCall.limit ?? ''}`}`;
}

/** Input items whose calls are identical share the first one's call. */
export function dedupe(itemCalls: (ItemCall | undefined)[]): {
  unique: { itemCall: ItemCall; index: number }[];
  source: (number | undefined)[];
} {
  const first = new Map<string, number>();
  const unique: { itemCall: ItemCall; index: number }[] = [];
  const source = itemCalls.map((itemCall, index) => {
    if (!itemCall) return undefined;
    const key = callKey(itemCall);
    const seen = first.get(key);
    if (seen !== undefined) return seen;
    first.set(key, index);
    unique.push({ itemCall, index });
    return index;
  });
  return { unique, source };
}

/**
 * An answer (or a billed error) given to a later item that asked the same: not charged again, and it
 * says so (core's servedAgain: its sentence says what it cost when first looked up, free now), the
 * first charge kept as `credits_charged_first`.
 */
export function withFanOut(outcome: ItemResult, from: number, index: number): ItemResult {
  if (from === index) return outcome;
  if (!outcome.ok)
    return {
      ...outcome,
      error: isIgError(outcome.error) ? servedAgain(outcome.error) : outcome.error,
      deduplicated: true,
    };
  const { credits_charged: first, ...meta } = outcome.meta;
  return {
    ...outcome,
    meta: { ...meta, credits_charged: 0, ...(first > 0 && { credits_charged_first: first }), deduplicated: true },
  };
}
