/**
 * Fetching many calls at once for Sheets: de-duplicated by request key, store first, the rest in
 * fetchAll batches of up to 50, inside a time budget. Shared by the custom functions and the
 * sidebar's bulk run. Calls not started before the deadline come back as `late`.
 */
import type { AnyIgError, Call } from '@igdata/core';
import {
  IgApiError,
  IgSchemaError,
  baseUrlOf,
  estimateCost,
  isIgError,
  isQuotaError,
  requestKey,
  driveSync,
  sendAll,
  servedAgain,
} from '@igdata/core';
import type { EngineDeps } from './deps';
import { fromResult } from './reuse';
import type { CachedAnswer } from './types';
import { fetchClaimed } from './claims';

const BATCH_SIZE = 50;
/** Longest time paid answers wait before being written to the store. */
const FLUSH_MS = 5000;

type Answered = Extract<CachedAnswer, { ok: true }>;

/** What became of one call in a fetch: answered, failed, or not started in time. */
export type CallOutcome =
  | { kind: 'ok'; value: Answered; cached: boolean; fetchedAt: number }
  | { kind: 'error'; error: AnyIgError; cached: boolean; fetchedAt: number }
  | { kind: 'late' };

export interface FetchOptions {
  /** Epoch ms after which no new batch starts. */
  deadline: number;
  /** Skip the store read (results are still written). */
  refresh?: boolean;
  /** Neither read nor write the store (the credit balance). */
  noCache?: boolean;
  /** Coordinate with other executions through deps.claims (custom functions): nobody pays twice. */
  claims?: boolean;
}

/** Counted, never inferred: each number is incremented where the thing happens. */
export interface FetchStats {
  unique: number;
  /** Calls answered from the store (read from it in this fetch). */
  cacheHits: number;
  /** HTTP requests sent in this fetch (each request of a batch and each retry counts). */
  requests: number;
  /** Credits the service reported charging in this fetch (stored answers are free). */
  credits: number;
  late: number;
  /** Calls sent again after an answer was lost once the request may have reached the service (core's rule, sendAll). */
  lostLookups: number;
  /** What those lost sends may have cost, by the registry's prices: billed or not, nobody can tell. */
  lostCredits: number;
}

export interface FetchResult {
  outcomes: Map<string, CallOutcome>;
  stats: FetchStats;
}

/** The stored code of a paid answer that was not in the documented shape (not one of the service's codes). */
const SCHEMA_CODE = 'unexpected_shape';

/**
 * Rebuilds the error a stored billed failure stood for, served again: its sentence is the same but
 * for what it cost, nothing now and its first charge when it was fetched (`at`). An entry without a
 * charge reads as not charged.
 */
export function errorFromStore(v: Extract<CachedAnswer, { ok: false }>): IgApiError | IgSchemaError {
  const charged = Number(v.charged) || 0;
  const e =
    v.code === SCHEMA_CODE
      ? new IgSchemaError(v.message, [v.message], charged, v.requestId)
      : new IgApiError(v.status, v.code, v.message, { creditsCharged: charged, reason: v.reason });
  return servedAgain(e, v.at);
}

/**
 * A billed failure as stored, so recalculating within the answer's reuse limit never bills it again:
 * a "no public data" (404), and a paid answer not in the documented shape (the service would most
 * likely answer the same again, and charge again). Other failures are not stored.
 */
function storedFailure(e: AnyIgError, at: number): CachedAnswer | undefined {
  if (e.name === 'IgApiError' && e.status === 404 && e.charged > 0) {
    return {
      ok: false,
      status: 404,
      code: String(e.code),
      message: e.message,
      charged: e.charged,
      reason: e.details.reason,
      at,
    };
  }
  if (e.name === 'IgSchemaError' && e.charged > 0) {
    return {
      ok: false,
      status: 200,
      code: SCHEMA_CODE,
      message: e.issues[0] ?? e.message,
      charged: e.charged,
      requestId: e.requestId,
      at,
    };
  }
  return undefined;
}

/** What became of a call that was answered (fetched at `at`), from the store or not. */
const outcomeOf = (answer: Answered | AnyIgError, cached: boolean, at: number): CallOutcome =>
  isIgError(answer)
    ? { kind: 'error', error: answer, cached, fetchedAt: at }
    : { kind: 'ok', value: answer, cached, fetchedAt: at };

/** The request key of a call: endpoint + normalised params (never the API key). */
export const keyOf = (call: Call): string => requestKey(call.endpoint, call.params);

export function fetchMany(calls: Map<string, Call>, deps: EngineDeps, opts: FetchOptions): FetchResult {
  const { client, store, now } = deps;
  const outcomes = new Map<string, CallOutcome>();
  const stats: FetchStats = {
    unique: calls.size,
    cacheHits: 0,
    requests: 0,
    credits: 0,
    late: 0,
    lostLookups: 0,
    lostCredits: 0,
  };
  const requestsBefore = client.io.stats.requests;
  const base = baseUrlOf(client.config);
  const skey = new Map([...calls.keys()].map((key) => [key, store.keyFor(base, key)]));

  /** A call answered by a stored answer (read now, or published by another execution). */
  const answeredFromStore = (key: string, hit: CachedAnswer) => {
    stats.cacheHits++;
    outcomes.set(key, outcomeOf(hit.ok ? hit : errorFromStore(hit), true, hit.at));
  };
  const notReached = (keys: string[]) => {
    for (const key of keys) outcomes.set(key, { kind: 'late' });
    stats.late = keys.length;
  };

  const stored = opts.refresh || opts.noCache ? new Map<string, CachedAnswer>() : store.getMany([...skey.values()]);
  const todo: string[] = [];
  for (const key of calls.keys()) {
    const hit = stored.get(skey.get(key)!);
    if (hit) answeredFromStore(key, hit);
    else todo.push(key);
  }

  let lastBatchMs = 0;
  /**
   * The platform's daily quota, once a batch met it: later batches (claimed or not) would meet it too, so they are not
   * sent and get the same answer.
   */
  let quota: AnyIgError | undefined;
  // Paid answers are stored every FLUSH_MS and at the end, not after every batch: each write takes
  // the document lock and rewrites buckets, so fewer writes mean less waiting on other formulas
  // recalculating at the same time, and a long range spends less of its time writing. The
  // time budget ends the loop 10 s before Apps Script's 30 s limit, so the final flush always runs.
  const unflushed = new Map<string, CachedAnswer>();
  let lastFlush = now();
  const flush = () => {
    if (!opts.noCache && unflushed.size) store.putMany(unflushed);
    unflushed.clear();
    lastFlush = now();
  };
  /** Sends one batch; returns its answers worth storing (by store key). */
  const sendBatch = (keys: string[]): Map<string, CachedAnswer> => {
    const t0 = now();
    const toStore = new Map<string, CachedAnswer>();
    if (quota) {
      for (const key of keys) outcomes.set(key, outcomeOf(quota, false, t0));
      return toStore;
    }
    const answers = driveSync(
      sendAll(
        client.config,
        keys.map((k) => calls.get(k)!),
      ),
      client.io,
    );
    answers.forEach((answer, i) => {
      const at = now();
      const result = isIgError(answer) ? answer : fromResult(answer, at);
      outcomes.set(keys[i], outcomeOf(result, false, at));
      stats.credits += result.charged;
      const lost = answer.lostSends ?? 0;
      if (lost) {
        const call = calls.get(keys[i])!;
        stats.lostLookups++;
        stats.lostCredits += lost * estimateCost(call.endpoint, call.params).credits;
      }
      if (isQuotaError(result)) quota = result;
      const value = isIgError(result) ? storedFailure(result, at) : result;
      if (value) toStore.set(skey.get(keys[i])!, value);
    });
    lastBatchMs = now() - t0;
    return toStore;
  };
  const inTime = () => now() + lastBatchMs <= opts.deadline;
  if (opts.claims && deps.claims && !opts.noCache && todo.length) {
    // Cells recalculating at once: each request is paid by one execution, the others use its answer.
    const byStoreKey = new Map(todo.map((k) => [skey.get(k) as string, k]));
    const claimed = fetchClaimed([...byStoreKey.keys()], {
      store: deps.claims,
      batchSize: BATCH_SIZE,
      inTime,
      send: (sk) => sendBatch(sk.map((k) => byStoreKey.get(k) as string)),
    });
    for (const [sk, hit] of claimed.fromOthers) answeredFromStore(byStoreKey.get(sk)!, hit);
    notReached(claimed.late.map((sk) => byStoreKey.get(sk)!));
    todo.length = 0; // claims published every answer
  }
  for (let start = 0; start < todo.length; start += BATCH_SIZE) {
    if (!inTime()) {
      notReached(todo.slice(start));
      break;
    }
    for (const [k, v] of sendBatch(todo.slice(start, start + BATCH_SIZE))) unflushed.set(k, v);
    if (now() - lastFlush >= FLUSH_MS) flush();
  }
  flush();
  stats.requests = client.io.stats.requests - requestsBefore;
  return { outcomes, stats };
}
