/**
 * Facts about the service's error codes that bulk runs and the key settings act on.
 * Adapter point: these become core's error table (one place for every error fact) once it lands.
 */
import type { AnyIgError } from '@igdata/core';

/** Codes after which nothing more can succeed until the user acts: a bulk run pauses. */
const STOPS_BULK_RUN = new Set(['invalid_api_key', 'missing_api_key', 'insufficient_credits']);
/** Codes that mean the key itself was refused: it is not saved. */
const KEY_REFUSED = new Set(['invalid_api_key', 'missing_api_key']);

export const stopsBulkRun = (e: AnyIgError | undefined): boolean => !!e && e.name === 'IgApiError' && STOPS_BULK_RUN.has(String(e.code));
export const keyRefused = (code: string | undefined): boolean => code !== undefined && KEY_REFUSED.has(code);
