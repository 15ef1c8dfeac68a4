/** Validating parameters and building the HTTP request for one call. Pure: no I/O. */
import { RETRYABLE_STATUSES } from './error-codes';
import { IgApiError, IgValidationError, showValue } from './errors';
import { expectedFor, isBlank, resolveParam } from './resolve';
import { pathOf } from './registry/endpoints';
import type { EndpointDef } from './registry/types';
import type { ClientConfig, HttpRequest, Params, RetryPolicy } from './types';

import { DEFAULT_BASE_URL } from './constants';
import { BASE_URL_EXPECTED, baseUrlRefusal } from './base-url';

/** The retried statuses come from the error table; network failures are retried as well. */
export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 3,
  statuses: [0, ...RETRYABLE_STATUSES],
  baseDelayMs: 500,
  maxDelayMs: 4000,
  maxRetryAfterMs: 10000,
  lostResends: 1,
};

const EXTRA_NAME = /^[A-Za-z0-9_.\-[\]]{1,64}$/;

/** A value that was not given at all: a cursor left out (the first page), an extra parameter left out. */
const notGiven = (value: unknown): boolean => value === undefined || value === null || value === '';

/**
 * Validate and normalise every parameter of a call, fill documented defaults (so that `posts`
 * omitted and `posts=12` are the same request, for billing and for caching), and pass extra
 * parameters through unchanged. Throws IgValidationError before anything is sent.
 */
export function normalizeParams(endpoint: EndpointDef, input: Record<string, unknown>): Params {
  const out: Params = {};
  for (const def of endpoint.params) {
    const value = input[def.name];
    if (isBlank(value) && def.kind !== 'cursor') {
      if (def.required) {
        throw new IgValidationError(def.name, expectedFor(def), showValue(value));
      }
      if (def.default !== undefined) out[def.name] = def.default;
      continue;
    }
    if (notGiven(value)) continue; // no cursor: first page
    out[def.name] = resolveParam(def, value);
  }
  for (const [name, value] of Object.entries(input)) {
    if (endpoint.params.some((p) => p.name === name) || notGiven(value)) continue;
    if (!EXTRA_NAME.test(name))
      throw new IgValidationError('extra parameter name', 'letters, digits, _ . - [ ] (at most 64)', showValue(name));
    if (typeof value === 'object') throw new IgValidationError(name, 'a text or number value', showValue(value));
    out[name] = typeof value === 'boolean' ? String(value) : (value as string | number);
  }
  return out;
}

/** The query string, in a stable order; every value percent-encoded (cursors may hold anything). */
function queryString(params: Params): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(params[k]))}`)
    .join('&');
}

export function baseUrlOf(config: ClientConfig): string {
  return (config.baseUrl?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, '');
}

function authHeaders(config: ClientConfig): Record<string, string> {
  if (config.callerAuthenticates) return {};
  const key = config.apiKey?.trim();
  if (!key) {
    throw new IgApiError(401, 'missing_api_key', 'No API key is set.', {});
  }
  return config.authStyle === 'x-api-key' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
}

export function buildRequest(endpoint: EndpointDef, params: Params, config: ClientConfig): HttpRequest {
  const qs = queryString(params);
  const base = baseUrlOf(config);
  // Before any request, key or no key (n8n and Zapier add it on the way out): base-url.ts.
  if (baseUrlRefusal(base)) throw new IgValidationError('Base URL', BASE_URL_EXPECTED, showValue(base));
  return {
    method: 'GET',
    url: `${base}${pathOf(endpoint)}${qs ? `?${qs}` : ''}`,
    headers: { accept: 'application/json', ...authHeaders(config) },
  };
}

/** A key for caches and de-duplication: endpoint + normalised params. Never holds the API key. */
export function requestKey(endpoint: EndpointDef, params: Params): string {
  return `${endpoint.id}?${queryString(params)}`;
}
