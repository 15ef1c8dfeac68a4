/**
 * One API request, in the order the real service checks it: the rate limit, authentication, parameters, balance,
 * injected faults, then the handler, billing and the answer, which leaves when the request's
 * latency has passed since it arrived. Only answers from the platform (data or 404) are billed
 * (§7). REST routes (serveApi) and MCP tool calls (mcp.ts) both go through callApi, so they are
 * validated, faulted, billed and counted alike.
 */
import type * as http from 'node:http';
import { docsLink, estimateCost, isValidationError, normalizeParams, requestKey, type Params } from '@igdata/core';
import { type FaultStatus, pickFault } from './faults';
import { HttpFailure } from './errors';
import { Raw } from './json';
import { keyOf, originOf, send } from './http';
import type { Route } from './routes';
import type { Runtime } from './runtime';
import type { AbortSignalLike } from './timers';

/** One call of an endpoint, whichever way it came in. */
export interface ApiCall {
  /** The key as presented: undefined if none, '' if an Authorization header is not a Bearer token. */
  key: string | undefined;
  /** Inputs by name: a REST call's query parameters, an MCP tool call's arguments. */
  input: Record<string, unknown>;
  /** Headers of the HTTP request, for the per-request switches x-sandbox-fault and x-sandbox-latency. */
  headers: http.IncomingHttpHeaders;
  /** Where the client reaches the sandbox (http://host:port): media links in the answer point there. */
  origin: string;
  /** Set when the client goes away, so that waits on its behalf end early. */
  aborted: AbortSignalLike;
  /** When the request reached the sandbox (epoch ms; default: when callApi starts on it). */
  arrivedAt?: number;
}

export interface ApiAnswer {
  status: number;
  /** JSON: `{data, meta}` or `{error, meta}`. */
  body: string;
  headers: Record<string, string>;
}

/** A call counted in the stats and answered; null when the client went away before the answer. */
export async function callApi(rt: Runtime, route: Route, call: ApiCall): Promise<ApiAnswer | null> {
  rt.stats.countRequest(route.endpoint.id);
  rt.stats.enter();
  try {
    // The latency is the time the client waits for an answer, the service's own work included, as
    // with a service whose many servers work in parallel: the work is done on arrival and the
    // answer held for the rest of the latency. Holding before the work instead would make the last
    // of 50 simultaneous requests wait for the other 49 to be served by this one thread after it.
    const arrived = call.arrivedAt ?? Date.now();
    if (!rt.rateLimit.admit(rt.faults, arrived)) return refused(rt, route);
    try {
      const latency = latencyOf(rt, call);
      const out = await answer(rt, route, call, arrived, latency);
      const rest = arrived + latency - Date.now();
      if (out && rest > 0) await rt.timers.sleep(rest, call.aborted);
      // Gone while held: the service did the work (and billed it); the answer is lost on the way.
      return call.aborted.aborted ? null : out;
    } finally {
      rt.rateLimit.leave();
    }
  } finally {
    rt.stats.leave();
  }
}

/** A request past the rate limit (rate-limit.ts): 429 at once, with Retry-After; never billed. */
function refused(rt: Runtime, route: Route): ApiAnswer {
  rt.stats.countStatus(429);
  const requestId = rt.nextRequestId();
  const code = 'rate_limited';
  const message = `Too many requests: slow down and retry after ${rt.faults.retryAfterSeconds} s (not charged).`;
  return {
    status: 429,
    body: JSON.stringify({
      error: { code, message, docs: docsLink(code) },
      meta: { request_id: requestId, endpoint: route.endpoint.id, credits_charged: 0 },
    }),
    headers: { 'x-request-id': requestId, 'retry-after': String(rt.faults.retryAfterSeconds) },
  };
}

/** The request's latency in ms: its x-sandbox-latency header, its sandbox_latency input, or the sandbox's. */
function latencyOf(rt: Runtime, call: ApiCall): number {
  const { headers, input } = call;
  const ms = Number(
    headers['x-sandbox-latency'] ?? (given(input.sandbox_latency) ? input.sandbox_latency : rt.faults.latencyMs),
  );
  return Number.isFinite(ms) && ms > 0 ? Math.min(ms, 600000) : 0;
}

/** A REST request to an endpoint's route (GET /v1/<id>?...). */
export async function serveApi(
  rt: Runtime,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  route: Route,
  baseUrl: string,
) {
  const arrivedAt = Date.now();
  const aborted: AbortSignalLike = { aborted: false, onAbort: undefined };
  res.on('close', () => {
    aborted.aborted = true;
    aborted.onAbort?.();
  });
  // Requests that arrived together are all stamped before any is worked on: their latencies run
  // from when each reached the sandbox, not from when this one thread got to it.
  await new Promise((resolve) => setImmediate(resolve));
  const input: Record<string, unknown> = {};
  for (const name of url.searchParams.keys()) input[name] ??= url.searchParams.get(name);
  const out = await callApi(rt, route, {
    key: keyOf(req),
    input,
    headers: req.headers,
    origin: originOf(req, baseUrl),
    aborted,
    arrivedAt,
  });
  if (out) send(res, out.status, out.body, out.headers);
}

const given = (v: unknown): v is string | number | boolean => v !== undefined && v !== null && typeof v !== 'object';

async function answer(
  rt: Runtime,
  route: Route,
  call: ApiCall,
  t0: number,
  latency: number,
): Promise<ApiAnswer | null> {
  const { billing, stats } = rt;
  /** The service's time as its answer reports it: the latency, or the work when longer. */
  const took = () => Math.max(Date.now() - t0, latency);
  const { endpoint } = route;
  const { input, headers, aborted } = call;
  const requestId = rt.nextRequestId();
  let key: string | undefined;
  const fail = (
    status: number,
    code: string,
    message: string,
    extra: Record<string, unknown> = {},
    charged = 0,
  ): ApiAnswer => {
    stats.countStatus(status);
    const known = key !== undefined && billing.knows(key);
    const remaining = known ? billing.balance(key as string) : undefined;
    const meta: Record<string, unknown> = { request_id: requestId, endpoint: endpoint.id, credits_charged: charged };
    if (remaining !== undefined) meta.credits_remaining = remaining;
    meta.ms = took();
    const out: Record<string, string> = { 'x-request-id': requestId };
    if (remaining !== undefined) out['x-credits-remaining'] = String(remaining);
    return {
      status,
      body: JSON.stringify({ error: { code, message, docs: docsLink(code), ...extra }, meta }),
      headers: out,
    };
  };
  const gone = () => {
    stats.countStatus(499);
    return null;
  };

  // 1. authentication (never billed)
  key = call.key;
  if (!billing.knows(key)) {
    const msg = key
      ? 'The API key is malformed, unknown or revoked.'
      : 'No API key: send Authorization: Bearer <key> or x-api-key: <key>.';
    key = undefined;
    return fail(401, 'invalid_api_key', msg);
  }

  // 2. parameters, through core's own validation (never billed)
  const values: Record<string, unknown> = {};
  for (const def of endpoint.params) {
    if (input[def.name] !== undefined && input[def.name] !== null) values[def.name] = input[def.name];
  }
  if (values.post === undefined && endpoint.params.some((p) => p.name === 'post') && given(input.url))
    values.post = input.url;
  let params: Params;
  try {
    params = normalizeParams(endpoint, values);
  } catch (e) {
    if (isValidationError(e)) return fail(400, 'missing_parameter', e.message, { parameter: e.argument });
    throw e;
  }
  stats.countRequestKey(requestKey(endpoint, params));

  // 3. balance (never billed)
  const cost = estimateCost(endpoint, params).credits;
  const balance = billing.balance(key);
  if (balance < cost) {
    return fail(
      402,
      'insufficient_credits',
      `Out of credits: ${balance} left, this request costs ${cost}. Top up to continue.`,
      { credits_needed: cost },
    );
  }

  // 4. injected upstream faults (never billed)
  const override =
    (headers['x-sandbox-fault'] as string | undefined) ??
    (given(input.sandbox_fault) ? String(input.sandbox_fault) : undefined);
  const fault = pickFault(override, rt.faults, rt.dice);
  if (fault !== null) {
    stats.countFault();
    if (fault === 'timeout') {
      await rt.timers.sleep(rt.faults.slowMs, aborted);
      if (aborted.aborted) return gone();
      return fail(504, 'upstream_timeout', 'The data provider took too long. Safe to retry (not charged).');
    }
    const status: FaultStatus = fault;
    return status === 502
      ? fail(502, 'upstream_error', 'The data provider failed. Safe to retry (not charged).')
      : fail(504, 'upstream_timeout', 'The data provider took too long. Safe to retry (not charged).');
  }

  // 5. the platform: data or 404, both billed
  let data: unknown;
  try {
    data = endpoint.id === 'credits' ? undefined : route.handler({ endpoint, params });
  } catch (e) {
    if (e instanceof HttpFailure) {
      if (e.status === 404) {
        billing.charge(key, cost);
        stats.countBilled(cost);
        return fail(404, e.code, e.message, e.extra, cost);
      }
      return fail(e.status, e.code, e.message, e.extra);
    }
    throw e;
  }
  const remaining = billing.charge(key, cost);
  stats.countBilled(cost);
  if (endpoint.id === 'credits') data = { credits_remaining: remaining };
  stats.countStatus(200);
  const meta = JSON.stringify({
    endpoint: endpoint.id,
    request_id: requestId,
    credits_charged: cost,
    credits_remaining: remaining,
    ms: took(),
  });
  const dataJson = rt.media.signAll(
    data instanceof Raw ? data.json : JSON.stringify(data),
    call.origin,
    rt.clock.now(),
    rt.faults.mediaTtlSeconds,
  );
  return {
    status: 200,
    body: `{"data":${dataJson},"meta":${meta}}`,
    headers: { 'x-request-id': requestId, 'x-credits-remaining': String(remaining) },
  };
}
