/**
 * When a stored answer may answer a call again: the registry's reuse limit of its endpoint and the
 * freshness setting. Apart from store.ts (how answers are laid out in the cache) because the kept
 * answers' sheet (keep.ts) and the fetch apply the same rule.
 */
import type { ApiResult } from '@igdata/core';
import { findEndpoint } from '@igdata/core';
import type { CachedAnswer } from './types';

/**
 * The reuse limit (ms) of the endpoint a request key is for (`profile/stories?handle=nasa`: its
 * path comes first): the registry's maxReuseHours, read when an answer is read, so it holds for
 * answers stored before it changed too. Undefined: the freshness setting alone decides.
 */
export function limitOfRequest(requestKey: string): number | undefined {
  const hours = findEndpoint(requestKey.split('?')[0])?.maxReuseHours;
  return hours === null || hours === undefined ? undefined : hours * 3600000;
}

/**
 * Whether a stored answer may answer now: fetched after `fetchedAfter` (the freshness setting) and within its own life.
 */
export const reusable = (a: CachedAnswer, now: number, fetchedAfter: number, limitMs?: number): boolean =>
  a.at >= fetchedAfter && (limitMs === undefined || a.at + limitMs > now);

export function fromResult(r: ApiResult, at: number): Extract<CachedAnswer, { ok: true }> {
  return { ok: true, data: r.data, next: r.nextCursor, charged: r.creditsCharged, at };
}
