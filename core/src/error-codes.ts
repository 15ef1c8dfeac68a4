/**
 * The service's error codes, once, as data: status, whether to retry, whether it stops a bulk run
 * and the sentence users read. Everything else is derived from this table: status to code
 * (response.ts), retried statuses (request.ts), the messages (messages.ts). Nothing anywhere
 * decides on an error's message text. What only documents and tests read (where a code comes
 * from, whether it is billed, its docs link and summary, for the OpenAPI error responses and the
 * sandbox's `docs` links) is in error-docs.ts: nothing at run time reads it, so the Sheets bundle
 * leaves it out.
 */
import type { AnyIgError, IgApiError } from './errors';
import type { KnownErrorCode } from './types';
import type { MessageContext } from './words';
import { chargedNote, targetLabel, tries } from './words';

export interface ErrorCodeFacts {
  /**
   * Two codes may share a status (an observed variant of a spec code): the row listed first is
   * the spec's, the code of that status when a body names none (codeForStatus).
   */
  status: number;
  // The two flags are written on the rows where they hold.
  /** Sent again after a backoff (the same request, never billed twice: see each row). */
  retryable?: true;
  /** A bulk run stops at it: every further request would fail the same way. */
  stopsBulk?: true;
  /** The sentence users read in a cell, the sidebar or an n8n item. */
  sentence: (error: IgApiError, ctx: MessageContext) => string;
}

/**
 * The sentence of a key problem: what is wrong, and where the key is set. Refused before any work: never billed (an
 * earlier try whose answer was lost may have been).
 */
const keyProblem = (what: string) => (e: IgApiError, ctx: MessageContext) =>
  `${what} Set it in ${ctx.keyWhere}. ${chargedNote(e, ctx.zoneOffset)}`;

/** The sentence of a transient failure that outlasted the retries. */
const gaveUp = (what: string) => (e: IgApiError, ctx: MessageContext) =>
  `${what} after ${tries(e.details.attempts)}. Try again later. ${chargedNote(e, ctx.zoneOffset)}`;

/**
 * Why a 404 has no data, as precisely as the service said: its `reason` (NOTES.md: `private_account`
 * seen), else the spec's three possibilities (§7).
 */
const NOT_FOUND_REASONS: Record<string, string> = {
  private_account: 'is private: no public data',
};
const notFoundWhy = (reason?: string): string =>
  (reason && Object.prototype.hasOwnProperty.call(NOT_FOUND_REASONS, reason) && NOT_FOUND_REASONS[reason]) ||
  'has no public data: private, deleted or nonexistent';

export const ERROR_CODES = {
  missing_parameter: {
    status: 400,
    sentence: (e, ctx) =>
      `The service rejected the request: ${e.message.replace(/\.$/, '')}. ${chargedNote(e, ctx.zoneOffset)}`,
  },
  invalid_api_key: {
    status: 401,
    stopsBulk: true,
    sentence: keyProblem('Invalid API key.'),
  },
  missing_api_key: {
    status: 401,
    stopsBulk: true,
    sentence: keyProblem('No API key is set.'),
  },
  insufficient_credits: {
    status: 402,
    stopsBulk: true,
    sentence: (e, ctx) =>
      `Out of credits: ${e.details.creditsRemaining ?? 0} left. Top up to continue. ${chargedNote(e, ctx.zoneOffset)}`,
  },
  not_found: {
    status: 404,
    sentence: (e, ctx) =>
      `${targetLabel(ctx.call)} ${notFoundWhy(e.details.reason)}. ${chargedNote(e, ctx.zoneOffset)}`,
  },
  // The spec leaves rate limits and their status unshown (§8); 429 is HTTP's "slow down", so it
  // is retried, honouring Retry-After.
  rate_limited: {
    status: 429,
    retryable: true,
    sentence: (e, ctx) =>
      `Too many requests: the service asked to slow down ` +
      `(${tries(e.details.attempts)}). Try again in a minute. ` +
      `${chargedNote(e, ctx.zoneOffset)}`,
  },
  upstream_error: {
    status: 502,
    retryable: true,
    sentence: gaveUp('The data provider failed'),
  },
  // Not in the spec's table, so the service itself never answers 503: it comes from what stands in
  // front of it (gateway, load balancer) when the request did not reach the service. By the spec's
  // billing rule (§7: only requests that reach the platform are billed) it is not billed, and HTTP
  // defines it as temporary (RFC 9110 §15.6.4), so retrying a GET is safe and cannot bill twice.
  service_unavailable: {
    status: 503,
    retryable: true,
    sentence: gaveUp('The service was unavailable'),
  },
  upstream_timeout: {
    status: 504,
    retryable: true,
    sentence: gaveUp('The data provider timed out'),
  },
} satisfies Record<KnownErrorCode, ErrorCodeFacts>;

/** The code given to an error status the table does not know, and to a body without a code. */
const UNKNOWN_ERROR_CODE = 'http_error';

const rows = Object.entries(ERROR_CODES) as [KnownErrorCode, ErrorCodeFacts][];

/** The facts of a code, or undefined for a code the table does not know. */
export function errorFacts(code: string): ErrorCodeFacts | undefined {
  return Object.prototype.hasOwnProperty.call(ERROR_CODES, code) ? ERROR_CODES[code as KnownErrorCode] : undefined;
}

/** The code of an error status whose body names none: the first row of that status, never an observed variant. */
export function codeForStatus(status: number): string {
  return rows.find(([, f]) => f.status === status)?.[0] ?? UNKNOWN_ERROR_CODE;
}

/** The HTTP statuses worth sending again, from the table. */
export const RETRYABLE_STATUSES: readonly number[] = [
  ...new Set(rows.filter(([, f]) => f.retryable).map(([, f]) => f.status)),
];

/**
 * Whether a bulk run should stop at this error: a bad key or an empty balance fails every later request too, and so
 * does a platform's daily quota (nothing sent: the run waits for it, see IgQuotaError).
 */
export function stopsBulkRun(error: AnyIgError): boolean {
  if (error.name === 'IgQuotaError') return true;
  return error.name === 'IgApiError' && errorFacts(String(error.code))?.stopsBulk === true;
}
