/** Reading a raw HTTP outcome: envelope unwrapping, schema validation, error mapping. */
import { docsUrl, originOfUrl } from './base-url';
import { codeForStatus } from './error-codes';
import { IgApiError, IgConnectionError, IgQuotaError, IgSchemaError } from './errors';
import type { EndpointDef } from './registry/types';
import type { ShapeIssue } from './shape';
import { checkShape } from './shape';
import type { ApiResult, EnvelopeMeta, RawResponse } from './types';

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

/** The envelope's meta; an empty one when the body has none. */
const metaOf = (body: { meta?: unknown } | undefined): EnvelopeMeta =>
  body && typeof body.meta === 'object' && body.meta ? (body.meta as EnvelopeMeta) : {};

/**
 * What an answer, success or error, says of its request: what it cost, the balance after it and
 * its id (the envelope's, else the header's).
 */
const requestFacts = (meta: EnvelopeMeta, res: RawResponse) => ({
  creditsCharged: num(meta.credits_charged) ?? 0,
  creditsRemaining: num(meta.credits_remaining) ?? num(res.headers['x-credits-remaining']),
  requestId: meta.request_id ?? res.headers['x-request-id'],
});

/** Remove a secret from any text that might be shown or logged. */
function redact(text: string, secret: string | undefined): string {
  return secret && secret.length >= 4 ? text.split(secret).join('[redacted]') : text;
}

export function toError(
  res: RawResponse,
  attempts: number,
  apiKey?: string,
  /** Where the request went: the service's `error.docs` link is read against its origin. */
  baseUrl = '',
): IgApiError | IgConnectionError | IgQuotaError {
  if (res.status === 0 && res.quota) return new IgQuotaError(res.quota, attempts);
  if (res.status === 0) {
    return new IgConnectionError(redact(res.error || 'The service could not be reached.', apiKey), attempts, res.cause);
  }
  if (res.status >= 300 && res.status < 400) return redirectRefused(res, attempts, apiKey);
  const body = parseJson(res.body) as { error?: Record<string, unknown>; meta?: unknown } | undefined;
  const err = body && typeof body.error === 'object' && body.error ? body.error : {};
  const meta = metaOf(body);
  const code = typeof err.code === 'string' ? err.code : codeForStatus(res.status);
  const message = typeof err.message === 'string' ? err.message : `HTTP ${res.status}`;
  return new IgApiError(res.status, code, redact(message, apiKey), {
    ...requestFacts(meta, res),
    endpoint: meta.endpoint,
    reason: typeof err.reason === 'string' ? err.reason : undefined,
    docs: docsUrl(baseUrl, err.docs),
    attempts,
  });
}

/**
 * A redirect from the base URL. Every product asks its HTTP client not to follow one (the key would
 * go along to whatever address it names), so it comes here as an answer: an error, never retried,
 * that names where it pointed (its origin only: the rest is the stranger's text).
 */
function redirectRefused(res: RawResponse, attempts: number, apiKey: string | undefined): IgApiError {
  const to = originOfUrl(res.headers.location ?? '');
  const where = to ? ` to ${redact(to, apiKey)}` : '';
  return new IgApiError(
    res.status,
    'redirect_refused',
    `the Base URL redirected the request${where}; the API key goes only to the Base URL, so the redirect was ` +
      `not followed. If that address serves the API, set it as the Base URL`,
    { ...requestFacts({}, res), attempts },
  );
}

function issuesOf(issues: ShapeIssue[], prefix: string): string[] {
  return issues.slice(0, 5).map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join('.')}: ${i.message}`);
}

/** Unwrap and validate a 2xx answer. Unknown fields pass; a broken shape is an IgSchemaError. */
export function parseSuccess(endpoint: EndpointDef, res: RawResponse, attempts: number): ApiResult {
  const body = parseJson(res.body) as { data?: unknown; meta?: unknown } | undefined;
  const meta = metaOf(body);
  const facts = requestFacts(meta, res);
  const fail = (msg: string, issues: string[] = []) =>
    new IgSchemaError(
      `Unexpected response from ${endpoint.id}: ${msg}`,
      issues,
      facts.creditsCharged,
      facts.requestId,
      body?.data,
    );
  if (!body || typeof body !== 'object') throw fail('the body is not JSON');
  const data = body.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw fail('`data` is missing or not an object');
  const base = { meta, ...facts, attempts };
  if (endpoint.shape === 'single') {
    const found = checkShape(endpoint.schema, data);
    if (found.length) throw fail('the data does not match the documented shape', issuesOf(found, 'data'));
    return {
      ...base,
      data: data as Record<string, unknown>,
      items: [data as Record<string, unknown>],
      nextCursor: null,
    };
  }
  const list = data as { items?: unknown; next_cursor?: unknown };
  if (!Array.isArray(list.items)) throw fail('`data.items` is not a list');
  const issues: string[] = [];
  list.items.forEach((item, i) => {
    if (issues.length >= 5) return;
    const found = checkShape(endpoint.schema, item);
    if (found.length) issues.push(...issuesOf(found, `data.items.${i}`));
  });
  if (issues.length) throw fail('an item does not match the documented shape', issues);
  const rawCursor = list.next_cursor ?? meta.next_cursor;
  const nextCursor = rawCursor === undefined || rawCursor === null || rawCursor === '' ? null : String(rawCursor);
  return { ...base, data: data as Record<string, unknown>, items: list.items as Record<string, unknown>[], nextCursor };
}
