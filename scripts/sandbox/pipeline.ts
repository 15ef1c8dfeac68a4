/**
 * One API request, in the order the real service checks it: latency, authentication, parameters,
 * balance, injected faults, then the handler, billing and the answer. Only answers from the
 * platform (data or 404) are billed (§7).
 */
import type * as http from 'node:http';
import { docsLink, estimateCost, isValidationError, normalizeParams, requestKey, type Params } from '@igdata/core';
import { type FaultStatus, pickFault } from './faults';
import { HttpFailure } from './errors';
import { Raw } from './json';
import { keyOf, send } from './http';
import type { Route } from './routes';
import type { Runtime } from './runtime';
import type { AbortSignalLike } from './timers';

export async function serveApi(rt: Runtime, req: http.IncomingMessage, res: http.ServerResponse, url: URL, route: Route) {
  const { billing, stats } = rt;
  const t0 = Date.now();
  const { endpoint } = route;
  const requestId = rt.nextRequestId();
  let key: string | undefined;
  const fail = (status: number, code: string, message: string, extra: Record<string, unknown> = {}, charged = 0) => {
    stats.countStatus(status);
    const known = key !== undefined && billing.knows(key);
    const remaining = known ? billing.balance(key as string) : undefined;
    const meta: Record<string, unknown> = { request_id: requestId, endpoint: endpoint.id, credits_charged: charged };
    if (remaining !== undefined) meta.credits_remaining = remaining;
    meta.ms = Date.now() - t0;
    const headers: Record<string, string> = { 'x-request-id': requestId };
    if (remaining !== undefined) headers['x-credits-remaining'] = String(remaining);
    send(res, status, JSON.stringify({ error: { code, message, docs: docsLink(code), ...extra }, meta }), headers);
  };

  // 1. latency (sandbox-wide, or per request)
  const latency = Number(req.headers['x-sandbox-latency'] ?? url.searchParams.get('sandbox_latency') ?? rt.faults.latencyMs);
  const aborted: AbortSignalLike = { aborted: false, onAbort: undefined };
  res.on('close', () => {
    aborted.aborted = true;
    aborted.onAbort?.();
  });
  if (Number.isFinite(latency) && latency > 0) await rt.timers.sleep(Math.min(latency, 600000), aborted);
  if (aborted.aborted) return stats.countStatus(499);

  // 2. authentication (never billed)
  key = keyOf(req);
  if (!billing.knows(key)) {
    const msg = key ? 'The API key is malformed, unknown or revoked.' : 'No API key: send Authorization: Bearer <key> or x-api-key: <key>.';
    key = undefined;
    return fail(401, 'invalid_api_key', msg);
  }

  // 3. parameters, through core's own validation (never billed)
  const input: Record<string, unknown> = {};
  for (const def of endpoint.params) {
    const v = url.searchParams.get(def.name);
    if (v !== null) input[def.name] = v;
  }
  if (input.post === undefined && endpoint.params.some((p) => p.name === 'post') && url.searchParams.has('url')) {
    input.post = url.searchParams.get('url');
  }
  let params: Params;
  try {
    params = normalizeParams(endpoint, input);
  } catch (e) {
    if (isValidationError(e)) return fail(400, 'missing_parameter', e.message, { parameter: e.argument });
    throw e;
  }
  stats.countRequestKey(requestKey(endpoint, params));

  // 4. balance (never billed)
  const cost = estimateCost(endpoint, params).credits;
  const balance = billing.balance(key);
  if (balance < cost) {
    return fail(402, 'insufficient_credits', `Out of credits: ${balance} left, this request costs ${cost}. Top up to continue.`, { credits_needed: cost });
  }

  // 5. injected upstream faults (never billed)
  const override = (req.headers['x-sandbox-fault'] as string | undefined) ?? url.searchParams.get('sandbox_fault') ?? undefined;
  const fault = pickFault(override, rt.faults, rt.dice);
  if (fault !== null) {
    stats.countFault();
    if (fault === 'timeout') {
      await rt.timers.sleep(rt.faults.slowMs, aborted);
      if (aborted.aborted) return stats.countStatus(499);
      return fail(504, 'upstream_timeout', 'The data provider took too long. Safe to retry (not charged).');
    }
    const status: FaultStatus = fault;
    return status === 502
      ? fail(502, 'upstream_error', 'The data provider failed. Safe to retry (not charged).')
      : fail(504, 'upstream_timeout', 'The data provider took too long. Safe to retry (not charged).');
  }

  // 6. the platform: data or 404, both billed
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
  const meta = JSON.stringify({ endpoint: endpoint.id, request_id: requestId, credits_charged: cost, credits_remaining: remaining, ms: Date.now() - t0 });
  const dataJson = data instanceof Raw ? data.json : JSON.stringify(data);
  send(res, 200, `{"data":${dataJson},"meta":${meta}}`, { 'x-request-id': requestId, 'x-credits-remaining': String(remaining) });
}
