/**
 * Fetching many calls at once for Sheets: de-duplicated by request key, cache first, the rest in
 * UrlFetchApp.fetchAll batches of up to 50, inside a time budget. Shared by the custom functions
 * and the sidebar's bulk run. Calls not started before the deadline come back as `late`.
 */
import type { AnyIgError, Call, ClientConfig, SyncIO } from '@igdata/core';
import { IgApiError, baseUrlOf, isIgError, requestKey, runSync, sendAll } from '@igdata/core';
import type { CachedOutcome } from '../cache';
import { cacheKey, fromResult, getMany, putMany } from '../cache';
import type { ClaimStore } from '../claims';
import { runClaimed } from '../claims';

export const BATCH_SIZE = 50;
/** Longest time paid answers wait before being written to the cache. */
export const FLUSH_MS = 5000;

export type Outcome =
  | { kind: 'ok'; value: Extract<CachedOutcome, { ok: true }>; cached: boolean }
  | { kind: 'error'; error: AnyIgError; cached: boolean }
  | { kind: 'late' };

export interface FetchOptions {
  config: ClientConfig;
  io: SyncIO;
  /** Epoch ms after which no new batch starts. */
  deadline: number;
  /** Skip the cache read (results are still written). */
  refresh?: boolean;
  /** Neither read nor write the cache (the credit balance). */
  noCache?: boolean;
  batchSize?: number;
  /** Called after each batch (progress, tests). */
  onBatch?: (done: number, total: number) => void;
  /** Concurrent executions of the document coordinate through claims (claims.ts): nobody pays twice. */
  claims?: ClaimStore | null;
}

export interface FetchStats {
  unique: number;
  cacheHits: number;
  requests: number;
  batches: number;
  /** Credits the service reported charging in this run (cached answers are free). */
  credits: number;
  late: number;
  creditsRemaining?: number;
}

export interface FetchRun {
  outcomes: Map<string, Outcome>;
  stats: FetchStats;
}

/** Rebuilds the error a cached billed failure (a 404) stood for, so its message is the same. */
function cachedError(v: Extract<CachedOutcome, { ok: false }>): IgApiError {
  return new IgApiError(v.status, v.code, v.message, { creditsCharged: v.charged, reason: v.reason });
}

/** The request key of a call: endpoint + normalised params (never the API key). */
export const keyOf = (call: Call): string => requestKey(call.endpoint, call.params);

export function fetchMany(calls: Map<string, Call>, opts: FetchOptions): FetchRun {
  const outcomes = new Map<string, Outcome>();
  const stats: FetchStats = { unique: calls.size, cacheHits: 0, requests: 0, batches: 0, credits: 0, late: 0 };
  const base = baseUrlOf(opts.config);
  const ckey = new Map<string, string>();
  for (const key of calls.keys()) ckey.set(key, cacheKey(base, key));

  const cached = opts.refresh || opts.noCache ? new Map<string, CachedOutcome>() : getMany([...ckey.values()]);
  const todo: string[] = [];
  for (const key of calls.keys()) {
    const hit = cached.get(ckey.get(key) as string);
    if (!hit) todo.push(key);
    else {
      stats.cacheHits++;
      outcomes.set(key, hit.ok ? { kind: 'ok', value: hit, cached: true } : { kind: 'error', error: cachedError(hit), cached: true });
    }
  }

  const size = Math.max(1, Math.min(BATCH_SIZE, opts.batchSize ?? BATCH_SIZE));
  let lastBatchMs = 0;
  // Paid answers are cached every FLUSH_MS and at the end, not after every batch: each write takes
  // the document lock and rewrites buckets, so fewer writes mean less waiting on other formulas
  // recalculating at the same time (and ~5% off a 600-handle range in npm run bench:sheets). The
  // time budget ends the loop 10 s before Apps Script's 30 s limit, so the final flush always runs.
  const unflushed = new Map<string, CachedOutcome>();
  let lastFlush = Date.now();
  const flush = () => {
    if (!opts.noCache && unflushed.size) putMany(unflushed);
    unflushed.clear();
    lastFlush = Date.now();
  };
  /** Sends one batch; returns its answers worth caching (by cache key). */
  const sendBatch = (keys: string[]): Map<string, CachedOutcome> => {
    const t0 = Date.now();
    const answers = runSync(sendAll(opts.config, keys.map((k) => calls.get(k) as Call)), opts.io);
    const toCache = new Map<string, CachedOutcome>();
    answers.forEach((answer, i) => {
      const key = keys[i];
      if (isIgError(answer)) {
        outcomes.set(key, { kind: 'error', error: answer, cached: false });
        stats.credits += answer.charged;
        if (answer.name === 'IgApiError') {
          if (answer.details.creditsRemaining !== undefined) stats.creditsRemaining = answer.details.creditsRemaining;
          // Billed "no public data": cache it, so recalculating never bills it again.
          if (answer.status === 404 && answer.charged > 0) {
            toCache.set(ckey.get(key) as string, {
              ok: false, status: 404, code: String(answer.code), message: answer.message, charged: answer.charged, reason: answer.details.reason, at: Date.now(),
            });
          }
        }
      } else {
        const value = fromResult(answer) as Extract<CachedOutcome, { ok: true }>;
        outcomes.set(key, { kind: 'ok', value, cached: false });
        stats.credits += answer.creditsCharged;
        if (answer.creditsRemaining !== undefined) stats.creditsRemaining = answer.creditsRemaining;
        toCache.set(ckey.get(key) as string, value);
      }
    });
    stats.batches++;
    lastBatchMs = Date.now() - t0;
    return toCache;
  };
  const canStart = () => Date.now() + lastBatchMs <= opts.deadline;
  if (opts.claims && !opts.noCache && todo.length) {
    // Claimed answers are published at the next claim round, so other executions wait one batch at most.
    const byCacheKey = new Map(todo.map((k) => [ckey.get(k) as string, k]));
    const run = runClaimed([...byCacheKey.keys()], { store: opts.claims, batchSize: size, canStart, send: (ck) => sendBatch(ck.map((c) => byCacheKey.get(c) as string)) });
    for (const [ck, hit] of run.fromOthers) {
      stats.cacheHits++;
      outcomes.set(byCacheKey.get(ck) as string, hit.ok ? { kind: 'ok', value: hit, cached: true } : { kind: 'error', error: cachedError(hit), cached: true });
    }
    for (const ck of run.late) outcomes.set(byCacheKey.get(ck) as string, { kind: 'late' });
    stats.late = run.late.length;
    stats.requests = (opts.io as { stats?: { requests: number } }).stats?.requests ?? stats.requests;
    return { outcomes, stats };
  }
  for (let start = 0; start < todo.length; start += size) {
    if (!canStart()) {
      for (const key of todo.slice(start)) outcomes.set(key, { kind: 'late' });
      stats.late = todo.length - start;
      break;
    }
    for (const [k, v] of sendBatch(todo.slice(start, start + size))) unflushed.set(k, v);
    if (Date.now() - lastFlush >= FLUSH_MS) flush();
    opts.onBatch?.(Math.min(todo.length, start + size), todo.length);
  }
  flush();
  stats.requests = (opts.io as { stats?: { requests: number } }).stats?.requests ?? stats.requests;
  return { outcomes, stats };
}
