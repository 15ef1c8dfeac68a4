/**
 * The error family of the core. Guards check `name` rather than `instanceof`, so that two copies
 * of the core in one process (the n8n package bundles its own) still recognise each other's errors.
 */

import type { KnownErrorCode } from './types';
import type { FirstCharge, MessageContext } from './words';
import { plural } from './plural';
import { NOT_CHARGED } from './words';

/** A code of the error table (error-codes.ts), or whatever else the service sends. */
export type ApiErrorCode = KnownErrorCode | 'http_error';

type IgErrorName =
  'IgApiError' | 'IgConnectionError' | 'IgSchemaError' | 'IgValidationError' | 'IgCreditCapError' | 'IgQuotaError';

abstract class IgError extends Error {
  abstract readonly name: IgErrorName;
  /** Whether the service charged credits for the request that failed. */
  abstract readonly charged: number;
  /**
   * Sends of the request whose answer was lost after it may have reached the service, which bills
   * what reaches it (call.ts sets it): each may have been billed, and nobody can say.
   */
  lostSends = 0;
  /** Set on an answer served again (servedAgain): what it cost when first looked up; `charged` is then 0. */
  first?: FirstCharge;
}

/** The service answered with an error status. */
export class IgApiError extends IgError {
  readonly name = 'IgApiError' as const;
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode | string,
    message: string,
    readonly details: {
      requestId?: string;
      endpoint?: string;
      creditsCharged?: number;
      creditsRemaining?: number;
      reason?: string;
      attempts?: number;
      /** The service's reference page for this error, on the base URL's origin (base-url.ts docsUrl). */
      docs?: string;
    } = {},
  ) {
    super(message);
  }
  get charged(): number {
    return this.details.creditsCharged ?? 0;
  }
}

/**
 * The request never got an HTTP answer (DNS, refused, reset, timeout on our side). Billed only if
 * it reached the service before the answer was lost: `lostSends` says whether it may have.
 * `cause` is what the HTTP client threw on the last attempt (fetch's TypeError, whose own cause
 * says ECONNREFUSED or ENOTFOUND; Apps Script's exception), kept as openai-node's
 * APIConnectionError keeps it, for whoever debugs. Like a native cause it is not enumerable (out of
 * JSON and spreads), but it is not redacted as the message is: an HTTP client's error may hold the
 * request, headers and key included, so never show or log it whole.
 */
export class IgConnectionError extends IgError {
  readonly name = 'IgConnectionError' as const;
  readonly charged = 0;
  declare readonly cause?: unknown;
  constructor(
    message: string,
    readonly attempts = 1,
    cause?: unknown,
  ) {
    super(message);
    // Set by hand, not with super's `{ cause }`: Apps Script's V8 and ES2020 do not know that option.
    if (cause !== undefined)
      Object.defineProperty(this, 'cause', { value: cause, writable: true, enumerable: false, configurable: true });
  }
}

/**
 * The request succeeded (and was billed) but the body is not what the service documents.
 * Kept apart from IgApiError, as ky keeps SchemaValidationError apart: the call itself worked.
 */
export class IgSchemaError extends IgError {
  readonly name = 'IgSchemaError' as const;
  constructor(
    message: string,
    readonly issues: string[],
    readonly charged = 0,
    readonly requestId?: string,
    /** The answer's `data` as it came (it was paid for): a product may still hand it on, with the issue beside it. */
    readonly received?: unknown,
  ) {
    super(message);
  }
}

/** Our own input check failed before any request was made: never billed. */
export class IgValidationError extends IgError {
  readonly name = 'IgValidationError' as const;
  readonly charged = 0;
  constructor(
    /** The argument at fault, by its API name (`handle`, `posts`, ...). */
    readonly argument: string,
    /** What was expected, as a phrase: "a whole number from 1 to 50". */
    readonly expected: string,
    /** What was given, shortened for display. */
    readonly got: string,
  ) {
    super(`${argument} must be ${expected}; got ${got}.`);
  }
}

/**
 * A credit cap (an n8n execution's Credit Cap) stopped a request before it was sent: never billed.
 * `spent` is what the capped run really spent, counted when its error is reported, not when the
 * request was refused: requests still in flight then were paid for too.
 */
export class IgCreditCapError extends IgError {
  readonly name = 'IgCreditCapError' as const;
  readonly charged = 0;
  constructor(
    readonly cap: number,
    readonly spent: number,
    /** Estimated cost of the request that was not sent. */
    readonly cost: number,
  ) {
    super(`Credit cap of ${cap} reached: ${plural(spent, 'credit')} spent, this request costs ~${cost}.`);
  }

  /**
   * The sentence users read (core's userMessage hands it on). It lives with the class, not in
   * messages.ts, because only the n8n node's engine makes this error: the Sheets bundle, which
   * never constructs the class, leaves the sentence out with it.
   */
  sentence(ctx: MessageContext): string {
    return (
      `Credit cap of ${this.cap} reached: ${plural(this.spent, 'credit')} spent in this execution and this ` +
      `request costs ~${this.cost}. Raise ${ctx.capWhere ?? 'the credit cap'} to continue. ${NOT_CHARGED}`
    );
  }
}

/**
 * A billed error answer served again (a stored "no public data", an n8n item that asked what an
 * earlier item asked): a copy that cost nothing now and remembers its first charge and when
 * (`at`, epoch ms), so every sentence and count says it was free. An error that cost nothing is
 * returned as it is.
 */
export function servedAgain<E extends AnyIgError>(e: E, at?: number): E {
  if (!(e.charged > 0)) return e;
  const copy =
    e.name === 'IgApiError'
      ? new IgApiError(e.status, e.code, e.message, { ...e.details, creditsCharged: 0 })
      : e.name === 'IgSchemaError'
        ? new IgSchemaError(e.message, e.issues, 0, e.requestId, e.received)
        : e;
  copy.first = { charged: e.charged, at };
  return copy as E;
}

/** What users read for each quota a platform names (Apps Script's own word for it, as its exception says it). */
const QUOTA_WORDS: Record<string, string> = {
  urlfetch: 'URL Fetch calls',
  properties: 'Properties reads and writes',
};

/**
 * The platform's daily quota refused the request before it was sent (Apps Script's URL Fetch calls a day): never
 * sent, never billed, not retried. Work that meets it waits for the quota to free up (within 24 hours) and goes on.
 */
export class IgQuotaError extends IgError {
  readonly name = 'IgQuotaError' as const;
  readonly charged = 0;
  constructor(
    /** The quota as the platform names it (`urlfetch`). */
    readonly quota: string,
    readonly attempts = 1,
  ) {
    super(`Google's daily limit of ${QUOTA_WORDS[quota] ?? `${quota} calls`} for this account is reached`);
  }
}

export type AnyIgError =
  IgApiError | IgConnectionError | IgSchemaError | IgValidationError | IgCreditCapError | IgQuotaError;

/** The codes of the errors that happen on this side of the wire (the service names its own). */
const LOCAL_CODES: Record<Exclude<AnyIgError['name'], 'IgApiError'>, string> = {
  IgValidationError: 'invalid_input',
  IgConnectionError: 'connection_error',
  IgSchemaError: 'unexpected_response',
  IgCreditCapError: 'credit_cap',
  IgQuotaError: 'platform_quota',
};

/**
 * An error's code, what programs decide by (the sentence is for people and may change): the
 * service's own for an API error, else one of LOCAL_CODES. n8n's error items and the Sheets
 * history rows carry it.
 */
export const errorCode = (e: AnyIgError): string => (e.name === 'IgApiError' ? String(e.code) : LOCAL_CODES[e.name]);

const NAMES = new Set<string>([
  'IgApiError',
  'IgConnectionError',
  'IgSchemaError',
  'IgValidationError',
  'IgCreditCapError',
  'IgQuotaError',
]);

export function isIgError(e: unknown): e is AnyIgError {
  return typeof e === 'object' && e !== null && NAMES.has((e as { name?: string }).name ?? '');
}
export const isValidationError = (e: unknown): e is IgValidationError => isIgError(e) && e.name === 'IgValidationError';
export const isCreditCapError = (e: unknown): e is IgCreditCapError => isIgError(e) && e.name === 'IgCreditCapError';
export const isQuotaError = (e: unknown): e is IgQuotaError => isIgError(e) && e.name === 'IgQuotaError';

/** Shorten any user-supplied value for an error message without leaking a huge cell. */
export function showValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') {
    if (v.trim() === '') return 'an empty value';
    const s = v.length > 60 ? v.slice(0, 57) + '...' : v;
    // Line and paragraph separators survive JSON.stringify; escape them so a message stays one line.
    return JSON.stringify(s).replace(
      /[\u2028\u2029\u0085]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return 'a date';
  if (Array.isArray(v)) return 'a list';
  return 'an object';
}
