/**
 * Walking the pages of a range's calls against the injected client and store. When to ask for a next page
 * and when to stop is core's rule (`PageWalk`: page N of every target in one round, caps per
 * target); the engine keeps only what is Sheets' own: each round is fetched store first, in
 * fetchAll batches, under the deadline.
 */
import type { AnyIgError, Call, EndpointDef, PageAnswer, PagingCap } from '@igdata/core';
import { PageWalk } from '@igdata/core';
import type { CallOutcome, FetchOptions } from './fetch';
import { errorFromStore, fetchMany, keyOf } from './fetch';
import type { EngineDeps } from './deps';
import type { CachedAnswer } from './types';

/** Everything read for one target: its items, and why it stopped early if it did. */
export interface TargetResult {
  items: Record<string, unknown>[];
  error?: AnyIgError;
  /** A page not sent before the deadline. */
  late?: boolean;
  /** The call that failed (a later page's own request, for the message). */
  failedCall?: Call;
  /** When its oldest page was fetched (epoch ms): the `_fetched_at` field. */
  fetchedAt?: number;
}

/**
 * Lookups whose answer was lost once they may have reached the service (sent again once), and what those sends may have
 * cost.
 */
export interface Lost {
  lookups: number;
  credits: number;
}

interface WalkTotals {
  results: Map<string, TargetResult>;
  credits: number;
  requests: number;
  lost: Lost;
  /** Pages answered from the store, with the time each was fetched (for "from cache" counts). */
  fromStore: number[];
}

/** The walk's cap: `limit` items of a list, else one page (a single answer, or a list's first page). */
export const capFor = (endpoint: EndpointDef, limit: number | undefined): PagingCap =>
  endpoint.shape === 'list' && limit !== undefined ? { maxItems: limit } : { maxPages: 1 };

/** A stored or fetched answer as a page of the walk (a stored page costs nothing now). */
export function pageOf(endpoint: EndpointDef, answer: CachedAnswer, fromStore: boolean): PageAnswer {
  if (!answer.ok) return errorFromStore(answer);
  const items =
    endpoint.shape === 'single'
      ? [answer.data]
      : Array.isArray(answer.data.items)
        ? (answer.data.items as Record<string, unknown>[])
        : [];
  return { items, nextCursor: answer.next, creditsCharged: fromStore ? 0 : answer.charged };
}

export function walkCalls(
  endpoint: EndpointDef,
  calls: Map<string, Call>,
  deps: EngineDeps,
  opts: FetchOptions & { limit?: number },
): WalkTotals {
  const keys = [...calls.keys()];
  const walk = new PageWalk([...calls.values()], capFor(endpoint, opts.limit));
  const totals: WalkTotals = {
    results: new Map(),
    credits: 0,
    requests: 0,
    lost: { lookups: 0, credits: 0 },
    fromStore: [],
  };
  const failed = new Map<number, Call>();
  const fetchedAt = new Map<number, number>();
  for (let round = walk.nextRound(); round.length; round = walk.nextRound()) {
    const roundKeys = round.map((p) => keyOf(p.call));
    const pages = new Map(round.map((p, i) => [roundKeys[i], p.call]));
    // An answer never reused (the balance: maxReuseHours 0) is never stored either.
    const fetched = fetchMany(pages, deps, { ...opts, noCache: endpoint.maxReuseHours === 0 });
    totals.credits += fetched.stats.credits;
    totals.requests += fetched.stats.requests;
    totals.lost.lookups += fetched.stats.lostLookups;
    totals.lost.credits += fetched.stats.lostCredits;
    round.forEach((p, i) => {
      const outcome = fetched.outcomes.get(roundKeys[i]) as CallOutcome;
      if (outcome.kind === 'late') {
        walk.unsent(p.index);
        return;
      }
      if (outcome.cached) totals.fromStore.push(outcome.fetchedAt);
      fetchedAt.set(p.index, Math.min(fetchedAt.get(p.index) ?? Infinity, outcome.fetchedAt));
      if (outcome.kind === 'error') {
        failed.set(p.index, p.call);
        walk.record(p.index, outcome.error);
      } else walk.record(p.index, pageOf(endpoint, outcome.value, outcome.cached));
    });
  }
  walk.results().forEach((r, i) => {
    totals.results.set(keys[i], {
      items: r.items,
      error: r.error,
      late: r.stoppedBy === 'time' || undefined,
      failedCall: failed.get(i),
      fetchedAt: fetchedAt.get(i),
    });
  });
  return totals;
}
