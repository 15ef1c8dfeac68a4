/**
 * The plain types of core: what a call, a request, an effect, a raw answer and a result are. The
 * bottom layer: this file imports types from the registry's own leaf (registry/types.ts) and
 * nothing else, so every module above can name these types without importing each other, and
 * imports go one way (`npm run lint:cycles` fails on any circle, type-only imports included).
 */
import type { EndpointDef } from './registry/types';

// ---- Requests (built by request.ts)

export type AuthStyle = 'bearer' | 'x-api-key';

interface ClientOptions {
  baseUrl?: string;
  /** Both forms are equivalent (the spec's §5); bearer is the default. */
  authStyle?: AuthStyle;
  retry?: Partial<RetryPolicy>;
}

/**
 * Who adds the key to a request. Usually core: `apiKey`, sent as `authStyle` says (a blank key fails
 * every call before any request, `missing_api_key`). Or the caller's HTTP layer, which authenticates
 * each request itself (n8n adds the credential's header in `httpRequestWithAuthentication`):
 * `callerAuthenticates: true`, no `apiKey`, and requests are built with no key header at all.
 */
export type ClientConfig = ClientOptions &
  ({ apiKey: string; callerAuthenticates?: false } | { apiKey?: undefined; callerAuthenticates: true });

/** Retry policy as plain data (as ky's): which answers are sent again, how often, how long to wait. */
export interface RetryPolicy {
  /** Total attempts, first one included. */
  attempts: number;
  /** HTTP statuses sent again; 0 stands for no HTTP answer at all (a network failure). */
  statuses: readonly number[];
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After we honour; a longer one fails fast instead of hanging a cell. */
  maxRetryAfterMs: number;
  /**
   * How many times a request is sent again after a send whose answer was lost once it may have
   * reached the service (and been billed): so a request is billed at most this many times + 1.
   */
  lostResends: number;
}

export interface HttpRequest {
  method: 'GET';
  url: string;
  headers: Record<string, string>;
}

export type Params = Record<string, string | number>;

/** A validated call (call.ts `prepare`): the endpoint and its normalised parameters. */
export interface Call {
  endpoint: EndpointDef;
  params: Params;
}

// ---- Effects (run by effects.ts)

/** A raw HTTP outcome. `status: 0` means no HTTP answer at all (network failure), with `error`. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
  error?: string;
  /** With `status: 0`: what the HTTP client threw, kept as the IgConnectionError's `cause`. */
  cause?: unknown;
  /**
   * With `status: 0`: the request is known never to have left (nothing listening, no such host), so
   * the service cannot have billed it. Absent: it may have reached the service (a timeout, a dropped
   * connection, an answer lost with its batch) and been billed.
   */
  neverSent?: boolean;
  /**
   * With `status: 0`: nothing failed for this request itself as far as anyone knows; its answer was
   * lost because another request of its batch failed (UrlFetchApp.fetchAll throws for all of them).
   */
  lostWithBatch?: boolean;
  /**
   * With `status: 0` and `neverSent`: the platform's daily quota refused the request before it was sent (Apps Script's
   * `Service invoked too many times for one day: urlfetch.`): the quota's name as the platform says it. Not billed,
   * never retried (every retry would meet the same quota); an IgQuotaError.
   */
  quota?: string;
}

export type Effect =
  | { kind: 'http'; request: HttpRequest }
  /** Several requests at once (UrlFetchApp.fetchAll); answers come back in the same order. */
  | { kind: 'httpAll'; requests: HttpRequest[] }
  | { kind: 'sleep'; ms: number };

export type Op<T> = Generator<Effect, T, unknown>;

export interface SyncIO {
  fetch(request: HttpRequest): RawResponse;
  fetchAll(requests: HttpRequest[]): RawResponse[];
  sleep(ms: number): void;
}

export interface AsyncIO {
  fetch(request: HttpRequest): Promise<RawResponse>;
  /** Optional: defaults to fetching all at once with Promise.all. */
  fetchAll?(requests: HttpRequest[]): Promise<RawResponse[]>;
  sleep(ms: number): Promise<void>;
}

// ---- Answers (read by response.ts)

/** The `meta` object of the service's envelope (§2.1). */
export interface EnvelopeMeta {
  endpoint?: string;
  request_id?: string;
  credits_charged?: number;
  credits_remaining?: number;
  ms?: number;
  [extra: string]: unknown;
}

export interface ApiResult<T = Record<string, unknown>> {
  /** `data` of the envelope: the object (single) or `{items, next_cursor}` (list). */
  data: T;
  meta: EnvelopeMeta;
  /** For lists: the items; for singles: `[data]`, so tables treat both alike. */
  items: Record<string, unknown>[];
  /** From data.next_cursor, falling back to meta.next_cursor (../shared/spec/NOTES.md); null at the end. */
  nextCursor: string | null;
  creditsCharged: number;
  /** From meta.credits_remaining, else the x-credits-remaining header. */
  creditsRemaining?: number;
  requestId?: string;
  attempts: number;
  /** Earlier sends whose answer was lost after they may have reached the service: each may have been billed too. */
  lostSends?: number;
}

// ---- Errors (the table is error-codes.ts, the family errors.ts)

/** The codes of the error table (error-codes.ts checks that its rows are exactly these). */
export type KnownErrorCode =
  | 'missing_parameter'
  | 'invalid_api_key'
  | 'missing_api_key'
  | 'insufficient_credits'
  | 'not_found'
  | 'rate_limited'
  | 'upstream_error'
  | 'service_unavailable'
  | 'upstream_timeout';
