/**
 * Our errors as the classes Zapier acts on, each with the same sentence as in Sheets and n8n
 * (core's userMessage: what happened, what to do, whether it was charged):
 * - a wrong or revoked key: ExpiredAuthError (Zapier asks the user to reconnect);
 * - 429: ThrottledError with the Retry-After (Zapier tries the step again later);
 * - an empty balance, input the API or our check refuses: HaltedError (trying again cannot help);
 * - anything else (a provider failure after our retries): Zapier's plain error, so it may retry.
 */
import type { ZObject } from 'zapier-platform-core';
import type { Call } from '@igdata/core';
import { docsNote, errorCode, isIgError, userMessage } from '@igdata/core';

/** Where a Zapier user sets the key, for the sentences. */
export const KEY_WHERE = "the IG Data connection (Zapier's My Apps)";

const HALTS = new Set(['insufficient_credits', 'missing_parameter', 'invalid_input', 'not_found']);
const EXPIRED = new Set(['invalid_api_key', 'missing_api_key']);

/** Seconds of a Retry-After given in seconds or as an HTTP date; 60 when absent or unreadable. */
function retrySeconds(value: string | undefined, now: number): number {
  const v = value?.trim();
  if (v && /^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v));
  const at = v ? Date.parse(v) : NaN;
  return Number.isFinite(at) ? Math.max(1, Math.ceil((at - now) / 1000)) : 60;
}

export function asZapierError(z: ZObject, e: unknown, call: Call | undefined, retryAfter?: string): Error {
  if (!isIgError(e)) return e instanceof Error ? e : new Error(String(e));
  // The service's page for the error (on the base URL's origin), where Zapier shows a step's error: its message.
  const message = [userMessage(e, { keyWhere: KEY_WHERE, call }), docsNote(e)].filter(Boolean).join(' ');
  const code = errorCode(e);
  if (EXPIRED.has(code)) return new z.errors.ExpiredAuthError(message);
  if (code === 'rate_limited') return new z.errors.ThrottledError(message, retrySeconds(retryAfter, Date.now()));
  if (HALTS.has(code)) return new z.errors.HaltedError(message);
  return new z.errors.Error(message, code, 'status' in e ? e.status : undefined);
}
