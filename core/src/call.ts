/** One call and a batch of calls, with retries. Generators: run them with driveSync or driveAsync. */
import type { AnyIgError } from './errors';
import { isIgError } from './errors';
import { getEndpoint } from './registry/endpoints';
import type { EndpointDef } from './registry/types';
import { DEFAULT_RETRY, baseUrlOf, buildRequest, normalizeParams } from './request';
import { parseSuccess, toError } from './response';
import type { ApiResult, Call, ClientConfig, Effect, HttpRequest, Op, RawResponse, RetryPolicy } from './types';

/**
 * Retry-After in milliseconds, given as seconds or as an HTTP date (RFC 9110 §10.2.3); undefined when absent or
 * unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** Exponential backoff with full jitter, bounded; a server's Retry-After wins when it is sane. */
export function backoffMs(
  policy: RetryPolicy,
  attempt: number,
  res?: RawResponse,
  random: () => number = Math.random,
  now: number = Date.now(),
): number {
  const asked = retryAfterMs(res?.headers['retry-after'], now);
  if (asked !== undefined && asked <= policy.maxRetryAfterMs) return asked;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Validate the input of a call (throws IgValidationError, nothing is sent). */
export function prepare(endpointId: string | EndpointDef, input: Record<string, unknown>): Call {
  const endpoint = typeof endpointId === 'string' ? getEndpoint(endpointId) : endpointId;
  return { endpoint, params: normalizeParams(endpoint, input) };
}

/** Send one prepared call, retrying transient failures. Returns the result or throws an Ig error. */
export function* send(config: ClientConfig, call: Call): Op<ApiResult> {
  const [outcome] = yield* sendAll(config, [call]);
  if (isIgError(outcome)) throw outcome;
  return outcome as ApiResult;
}

/** Validate and send: the one-liner for most callers. */
export function* request(config: ClientConfig, endpointId: string, input: Record<string, unknown>): Op<ApiResult> {
  return yield* send(config, prepare(endpointId, input));
}

/**
 * Send several calls at once (one `httpAll` effect per round, i.e. one UrlFetchApp.fetchAll), then
 * retry only the transient failures, together, after one backoff. Outcomes come back in order,
 * each an ApiResult or an Ig error; nothing throws for a single bad call.
 *
 * The one rule of a lost answer, for both products: a send whose answer never came may still have
 * reached the service, which bills what reaches it (a timeout, a dropped connection, an answer
 * lost with its batch). Such a request is sent again at most `lostResends` times (once), so it is
 * billed at most twice, and its outcome counts those sends (`lostSends`: its message says it may
 * have been charged, the caller can record what they may have cost). A request that failed on its
 * own is sent again apart from those only lost with it, so one request that keeps failing cannot
 * take its batch down twice.
 */
export function* sendAll(config: ClientConfig, calls: Call[]): Op<(ApiResult | AnyIgError)[]> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...config.retry };
  const outcomes: (ApiResult | AnyIgError | undefined)[] = new Array(calls.length);
  const requests: (HttpRequest | undefined)[] = calls.map((c, i) => {
    try {
      return buildRequest(c.endpoint, c.params, config);
    } catch (e) {
      outcomes[i] = e as AnyIgError; // e.g. no API key: fails before any request
      return undefined;
    }
  });
  const lost: number[] = calls.map(() => 0);
  const withBatch = new Set<number>();
  let pending = calls.map((_, i) => i).filter((i) => requests[i]);
  for (let attempt = 1; pending.length; attempt++) {
    const responses = new Map<number, RawResponse>();
    const groups = [pending.filter((i) => withBatch.has(i)), pending.filter((i) => !withBatch.has(i))];
    for (const group of groups.filter((g) => g.length)) {
      const batch = group.map((i) => requests[i] as HttpRequest);
      // One request is sent as one (UrlFetchApp.fetch), several at once (fetchAll).
      const single = batch.length === 1;
      const effect: Effect = single ? { kind: 'http', request: batch[0] } : { kind: 'httpAll', requests: batch };
      const answer = yield effect;
      ((single ? [answer] : answer) as RawResponse[]).forEach((res, k) => responses.set(group[k], res));
    }
    withBatch.clear();
    const retry: number[] = [];
    let lastRetryable: RawResponse | undefined;
    for (const index of pending) {
      const res = responses.get(index) as RawResponse;
      if (res.status === 0 && !res.neverSent) lost[index]++;
      if (res.status >= 200 && res.status < 300) {
        try {
          outcomes[index] = {
            ...parseSuccess(calls[index].endpoint, res, attempt),
            ...(lost[index] ? { lostSends: lost[index] } : {}),
          };
        } catch (e) {
          outcomes[index] = e as AnyIgError;
        }
      } else if (
        !res.quota && // a platform quota refuses every retry the same way
        policy.statuses.includes(res.status) &&
        attempt < policy.attempts &&
        lost[index] <= policy.lostResends
      ) {
        retry.push(index);
        if (res.lostWithBatch) withBatch.add(index);
        lastRetryable = res;
      } else {
        outcomes[index] = toError(res, attempt, config.apiKey, baseUrlOf(config));
      }
      const outcome = outcomes[index];
      if (isIgError(outcome)) outcome.lostSends = lost[index];
    }
    if (retry.length) yield { kind: 'sleep', ms: backoffMs(policy, attempt, lastRetryable) };
    pending = retry;
  }
  return outcomes as (ApiResult | AnyIgError)[];
}
