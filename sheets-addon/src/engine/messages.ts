/** The sentences and settings shared by cells, the sidebar and bulk runs. */
import type { AnyIgError, Call, ClientConfig, ZoneOffset } from '@igdata/core';
import { userMessage } from '@igdata/core';
import type { SheetValue } from './values';

/** Where a user sets the key (named in every key message). */
export const KEY_WHERE = 'Extensions > IG Data > Settings';
export const NOT_REACHED = 'Not reached in time: recalculate to continue (already fetched rows are cached)';
/** Retries kept short in Sheets (cells and bulk steps alike): at most ~4 s of backoff in all. */
const SHEETS_RETRY = { attempts: 3, baseDelayMs: 500, maxDelayMs: 2000, maxRetryAfterMs: 4000 };

/** The one client configuration of the add-on, from the stored key and base URL. */
export const clientConfig = (s: { apiKey: string; baseUrl: string }): ClientConfig => ({
  apiKey: s.apiKey,
  baseUrl: s.baseUrl,
  retry: SHEETS_RETRY,
});

/**
 * The sentence a user reads for an error, naming the call's own target when there is one; an answer
 * served again says the day of its first lookup in `zoneOffset` (the sheet's time zone).
 */
export const messageOf = (error: AnyIgError, call?: Call, zoneOffset?: ZoneOffset): string =>
  userMessage(error, { keyWhere: KEY_WHERE, call, zoneOffset });

/** A row of `width` cells: a message in the first, the rest blank. */
export const messageRow = (message: SheetValue, width: number): SheetValue[] => [
  message,
  ...new Array(Math.max(0, width - 1)).fill(''),
];
