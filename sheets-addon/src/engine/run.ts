/**
 * Running the calls of a range against the injected client and store. Single endpoints: one round.
 * List endpoints: page by page, page N of every target in the same fetchAll batches, until each
 * target has `limit` items or its list ends. The engine decides only what is Sheets' own (the
 * store, the deadline); when to ask for a next page is `nextPage`'s rule.
 */
import type { AnyIgError, Call, EndpointDef, Params } from '@igdata/core';
import type { CallOutcome } from './fetch';
import { fetchMany, keyOf } from './fetch';
import type { EngineDeps } from './ports';

/** Everything read for one target: its items, and why it stopped early if it did. */
export interface TargetResult {
  items: Record<string, unknown>[];
  error?: AnyIgError;
  /** The first page this run could not start before the deadline. */
  late?: boolean;
  /** The call that failed (a later page's own request, for the message). */
  failedCall?: Call;
}

interface RunTotals {
  results: Map<string, TargetResult>;
  credits: number;
  requests: number;
  /** Pages answered from the store, with the time each was fetched (for "from cache" counts). */
  fromStore: number[];
}

/** The next page's call after `page`, or null when the target is done (adapter point for core's rule). */
function nextPage(endpoint: EndpointDef, call: Call, page: Record<string, unknown>, next: string | null, have: number, limit?: number): Call | null {
  const items = Array.isArray(page.items) ? page.items.length : 0;
  const cursor = endpoint.paginated ? next : null;
  if (!cursor || limit === undefined || have >= limit || !items) return null;
  return { endpoint: call.endpoint, params: { ...call.params, cursor } as Params };
}

export function runCalls(
  endpoint: EndpointDef,
  calls: Map<string, Call>,
  deps: EngineDeps,
  opts: { deadline: number; refresh: boolean; limit?: number; claims?: boolean },
): RunTotals {
  const results = new Map<string, TargetResult>();
  const totals: RunTotals = { results, credits: 0, requests: 0, fromStore: [] };
  let pending = new Map(calls); // key of the original call -> call of the next page
  while (pending.size) {
    const byPageKey = new Map<string, Call>();
    const owner = new Map<string, string>();
    for (const [key, call] of pending) {
      const pk = keyOf(call);
      byPageKey.set(pk, call);
      owner.set(key, pk);
    }
    // The balance changes with every paid call and costs nothing: never stored.
    const run = fetchMany(byPageKey, deps, { deadline: opts.deadline, refresh: opts.refresh, noCache: endpoint.id === 'credits', claims: opts.claims });
    totals.credits += run.stats.credits;
    totals.requests += run.stats.requests;
    const next = new Map<string, Call>();
    for (const [key, call] of pending) {
      const outcome = run.outcomes.get(owner.get(key) as string) as CallOutcome;
      const acc = results.get(key) ?? { items: [] };
      results.set(key, acc);
      if (outcome.kind !== 'late' && outcome.cached) totals.fromStore.push(outcome.fetchedAt);
      if (outcome.kind === 'late') acc.late = true;
      else if (outcome.kind === 'error') {
        acc.error = outcome.error;
        acc.failedCall = call;
      } else if (endpoint.shape === 'single') acc.items = [outcome.value.data];
      else {
        const items = (outcome.value.data.items as Record<string, unknown>[]) ?? [];
        acc.items.push(...items);
        if (opts.limit !== undefined && acc.items.length > opts.limit) acc.items.length = opts.limit;
        const following = nextPage(endpoint, call, outcome.value.data, outcome.value.next, acc.items.length, opts.limit);
        if (following) next.set(key, following);
      }
    }
    pending = next;
  }
  return totals;
}
