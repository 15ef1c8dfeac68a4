/**
 * A written row's outcome as data, for an owner that decides by it (a vet's notes) and never by the
 * sentence written for people, which may change and sits among text from the service (a bio, a
 * niche label) that may read like one. A rows run writes it from its job's `outcomeCol`.
 */
import type { SheetValue } from '../engine/values';

/**
 * A failed row: its error's code (core's errorCode), the credits charged, and the sends whose answer
 * was lost (each may have been charged).
 */
export interface Failure {
  code: string;
  charged: number;
  lost: number;
}

/** The cells of an outcome: code, charged, lost. */
export const OUTCOME_WIDTH = 3;

/** The outcome cells of a written row: a failure's, or blanks for a row of values. */
export const outcomeCells = (f: Failure | null): SheetValue[] => (f ? [f.code, f.charged, f.lost] : ['', '', '']);

/** The failure the outcome cells `cells` hold (null: the row has values, or was not written). */
export function readOutcome(cells: unknown[]): Failure | null {
  const [code, charged, lost] = cells;
  if (typeof code !== 'string' || !code) return null;
  return { code, charged: Number(charged) || 0, lost: Number(lost) || 0 };
}
