/**
 * A written row's outcome as data, for an owner that decides by it (a vet's notes) and never by the
 * sentence written for people, which may change and sits among text from the service (a bio, a
 * niche label) that may read like one. A rows run writes it from its job's `outcomeCol`.
 */
import type { FirstCharge } from '@igdata/core';
import type { SheetValue } from '../engine/values';

/**
 * A failed row: its error's code (core's errorCode), the credits charged now, the sends whose answer
 * was lost (each may have been charged), and for an answer served again what it cost when first
 * looked up, and when.
 */
export interface Failure {
  code: string;
  charged: number;
  lost: number;
  first?: FirstCharge;
}

/** The cells of an outcome: code, charged, lost, first charge, its time (epoch ms). */
export const OUTCOME_WIDTH = 5;
/** The cells of an outcome written by the version before the first charge was kept (a vet running since). */
export const OLD_OUTCOME_WIDTH = 3;

/** The outcome cells of a written row (the first `width` of them): a failure's, or blanks for a row of values. */
export const outcomeCells = (f: Failure | null, width = OUTCOME_WIDTH): SheetValue[] =>
  (f ? [f.code, f.charged, f.lost, f.first?.charged ?? '', f.first?.at ?? ''] : ['', '', '', '', '']).slice(0, width);

/** The failure the outcome cells `cells` hold (null: the row has values, or was not written); 3 cells read too. */
export function readOutcome(cells: unknown[]): Failure | null {
  const [code, charged, lost, firstCharged, firstAt] = cells;
  if (typeof code !== 'string' || !code) return null;
  const f: Failure = { code, charged: Number(charged) || 0, lost: Number(lost) || 0 };
  const first = Number(firstCharged) || 0;
  if (first > 0) f.first = { charged: first, at: typeof firstAt === 'number' && firstAt > 0 ? firstAt : undefined };
  return f;
}
