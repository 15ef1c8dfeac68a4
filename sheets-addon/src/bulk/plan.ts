/** Planning a bulk run: reading the request, what the store already holds, and the cost preview. */
import type { Call, EndpointDef } from '@igdata/core';
import { PageWalk, baseUrlOf, estimateCost, getEndpoint, isIgError } from '@igdata/core';
import { parseArgs } from '../engine/args';
import { readBalance } from '../engine/balance';
import { keyOf } from '../engine/fetch';
import { capFor, pageOf } from '../engine/walk';
import { targetParam } from '../engine/layout';
import { messageOf } from '../engine/messages';
import type { PlannedRow } from '../engine/rows';
import { uniqueCalls } from '../engine/rows';
import type { AnswerStore } from '../engine/types';
import { columnsSeen } from '../engine/values';
import { answersFor } from '../context/answers';
import type { Context } from '../context/context';
import { settingRule } from '../context/reuse';
import { outputLabel, rangeLabel, readColumn, selection } from './grid';
import { bulkRow } from './targets';

export interface BulkRequest {
  endpoint: string;
  /** Non-target parameters by API name (posts, sample, criteria...). */
  params?: Record<string, unknown>;
  /** Comma list; blank = the endpoint's default columns. */
  fields?: string;
  /** beside the column, a new sheet, or dated rows appended to a history sheet (one per target). */
  output: 'beside' | 'sheet' | 'history';
  /** List endpoints: items per target (1-500); blank = the first page, whatever its size. */
  limit?: number | string | null;
}

/** Endpoints a bulk run offers: one target in; one row out (single) or one row per item (list). */
export const bulkEndpoints = (all: readonly EndpointDef[]): EndpointDef[] =>
  all.filter((e) => (e.shape === 'single' || e.shape === 'list') && targetParam(e) !== undefined);

/** Page size used for estimates (the registry's); null when the list is one page (not paged). */
export const pageSizeOf = (e: EndpointDef): number | null => (e.paginated ? (e.pageSize ?? 12) : null);

/** Pages a target needs at most for `limit` items (blank = the first page only). */
export function pagesFor(e: EndpointDef, limit: number | undefined): number {
  const size = pageSizeOf(e);
  return size === null || limit === undefined ? 1 : Math.ceil(limit / size);
}

export interface BulkPlan {
  endpoint: EndpointDef;
  targetName: string;
  params: Record<string, unknown>;
  list: boolean;
  limit?: number;
  fields: string[];
}

/** Reads and checks a bulk request (the custom functions' rules: nothing is sent on a bad argument). */
export function plan(req: BulkRequest): BulkPlan {
  const endpoint = getEndpoint(req.endpoint);
  if (!bulkEndpoints([endpoint]).length)
    throw new Error(`${endpoint.fn} takes no target; bulk runs need a column of targets.`);
  const list = endpoint.shape === 'list';
  if (list && req.output !== 'sheet')
    throw new Error(`${endpoint.fn} returns many rows per target: choose "a new sheet".`);
  if (!['beside', 'sheet', 'history'].includes(req.output))
    throw new Error(`Choose where to write: "beside", "sheet" or "history" (got ${JSON.stringify(req.output)}).`);
  const target = targetParam(endpoint)!;
  // The formula's positional arguments: a blank target cell, the parameters, the fields, and for
  // lists `header` then `limit` (1-500, the same check as the custom functions' argument).
  const args = [
    '',
    ...endpoint.params.filter((p) => p !== target && p.kind !== 'cursor').map((p) => req.params?.[p.name]),
    req.fields ?? '',
  ];
  if (list) args.push(undefined, req.limit ?? undefined);
  try {
    const parsed = parseArgs(endpoint, args);
    return {
      endpoint,
      targetName: target.name,
      params: parsed.params,
      list,
      limit: parsed.limit,
      fields: parsed.fields.length ? parsed.fields : columnsSeen([]),
    };
  } catch (e) {
    if (isIgError(e)) throw new Error(messageOf(e));
    throw e;
  }
}

interface CacheWalkState {
  pages: number;
  /** Every page the run needs is stored (free). */
  complete: boolean;
}

/**
 * How far each target's list is already stored: core's paging rule replayed over stored pages, the
 * way walkCalls would fetch them (same cap, same cursors); a target stops at its first page that is
 * not stored.
 */
export function cacheWalk(
  endpoint: EndpointDef,
  calls: Map<string, Call>,
  limit: number | undefined,
  store: AnswerStore,
  baseUrl: string,
): Map<string, CacheWalkState> {
  const keys = [...calls.keys()];
  const walk = new PageWalk([...calls.values()], capFor(endpoint, limit));
  for (let round = walk.nextRound(); round.length; round = walk.nextRound()) {
    const sk = round.map((p) => store.keyFor(baseUrl, keyOf(p.call)));
    const hits = store.getMany(sk);
    round.forEach((p, i) => {
      const hit = hits.get(sk[i]);
      if (hit) walk.record(p.index, pageOf(endpoint, hit, true));
      else walk.unsent(p.index); // not stored: the run fetches from here
    });
  }
  const state = new Map<string, CacheWalkState>();
  walk.results().forEach((r, i) => state.set(keys[i], { pages: r.pages, complete: r.stoppedBy !== 'time' }));
  return state;
}

/** Pages still to fetch for a target, from its cache walk (at least one when not complete). */
export const pagesLeft = (w: CacheWalkState, each: number): number => (w.complete ? 0 : Math.max(1, each - w.pages));

interface Preview {
  range: string;
  rows: number;
  blank: number;
  invalid: number;
  unique: number;
  cached: number;
  toFetch: number;
  creditsEach: number;
  credits: number;
  exact: boolean;
  balance?: number;
  balanceMessage?: string;
  enough?: boolean;
  fields: string[];
  /** Where the values go, in words. */
  output: string;
  /** Whether a run may write there (the columns beside are empty): the sidebar offers Run by it. */
  outputFree: boolean;
  /** List endpoints: the estimate is in pages (at most `pagesEach` per target at `pageSize` items a page). */
  list?: {
    limit: number | null;
    pageSize: number | null;
    pagesEach: number;
    /** Pages still to fetch: uncached targets times pagesEach, less pages already stored. */
    pages: number;
    duplicates: number;
  };
}

/** What a run would cost: unique targets not in the store times the cost, against the balance. */
export function preview(ctx: Context, req: BulkRequest): Preview {
  const p = plan(req);
  const range = selection(ctx.book);
  const rows = readColumn(ctx.book.sheet(range.sheet)!, range.row, range.col, range.rows).map((cell) =>
    bulkRow(p, cell),
  );
  const calls = uniqueCalls(rows);
  const count = (kind: PlannedRow['kind']) => rows.filter((r) => r.kind === kind).length;
  const store = answersFor(ctx, settingRule(ctx.settings), false).deps.store;
  const client = ctx.client;
  const baseUrl = baseUrlOf(client.config);
  const b = readBalance(client);
  const output = outputLabel(ctx.book, range, p.fields.length, req.output, false);
  /** The preview of `cached` targets in the store, the rest costing `credits` in all. */
  const priced = (cached: number, creditsEach: number, credits: number, exact: boolean) => ({
    range: rangeLabel(range),
    rows: rows.length,
    blank: count('blank'),
    invalid: count('error'),
    unique: calls.size,
    balance: b.ok ? b.balance : undefined,
    balanceMessage: b.ok ? undefined : b.message,
    fields: p.fields,
    cached,
    toFetch: calls.size - cached,
    creditsEach,
    credits,
    exact,
    enough: b.ok ? b.balance >= credits : undefined,
    output: output.label,
    outputFree: output.free,
  });
  if (p.list) {
    const walk = cacheWalk(p.endpoint, calls, p.limit, store, baseUrl);
    const each = pagesFor(p.endpoint, p.limit);
    let cached = 0;
    let pages = 0;
    for (const w of walk.values()) {
      if (w.complete) cached++;
      pages += pagesLeft(w, each);
    }
    const perPage = estimateCost(p.endpoint, p.params as never).credits;
    // "At most": a list that ends early costs fewer pages.
    return {
      ...priced(cached, perPage, pages * perPage, false),
      list: {
        limit: p.limit ?? null,
        pageSize: pageSizeOf(p.endpoint),
        pagesEach: each,
        pages,
        duplicates: count('call') - calls.size,
      },
    };
  }
  const hits = store.getMany([...calls.keys()].map((k) => store.keyFor(baseUrl, k))).size;
  const first = calls.values().next().value as Call | undefined;
  const cost = estimateCost(p.endpoint, first ? first.params : (p.params as never));
  return priced(hits, cost.credits, (calls.size - hits) * cost.credits, cost.exact);
}
