/**
 * How old a stored answer may be for a call: the rule as a value, built by the entry point and read
 * in its type, never changed by wrappers around a call. Each endpoint's own limit (the registry's
 * maxReuseHours: stories 1 hour...) is applied on top by the store, from the request key it reads.
 */
import { freshMs } from '../engine/keep';

export interface ReuseRule {
  /** The document's freshness setting, in hours (1-720). */
  freshHours: number;
  /** A scheduled run's own limit (half its period: schedule/when.ts reuseLimitMs); absent for other runs. */
  runLimitMs?: number;
  /** A cell marked by "Refresh selected cells": answers fetched before the mark (epoch ms) are misses. */
  markedAt?: number;
}

/** The longest age an answer may have at `now` under the rule (ms). */
export const maxAgeMs = (r: ReuseRule, now: number): number =>
  Math.min(freshMs(r.freshHours), r.runLimitMs ?? Infinity, r.markedAt ? now - r.markedAt : Infinity);

/** The rule of a script run (sidebar, menu, trigger): the freshness setting alone. */
export const settingRule = (settings: { freshHours: number }): ReuseRule => ({ freshHours: settings.freshHours });
