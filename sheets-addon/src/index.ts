/**
 * The bundle's entry: everything the generated Code.js stubs call, under the global `IGDATA`.
 * Built by scripts/build/sheets.mjs as a minified IIFE (dist/bundle.js). Each entry point builds
 * its one context (gas/context.ts) and passes it down.
 */
import { evaluateFormula } from './engine/formula';
import { gasBook } from './gas/book';
import { formulaContext, gasContext } from './gas/context';
import { keepFromCache } from './gas/keep-trigger';
import { FORMULA_AT_PAUSE, pauseSentence, underPause } from './gas/quota-pause';
import { OWNERS } from './owners';
import { background } from './schedule/background';
import { SIDEBAR_API } from './sidebar-api';
export { onOpen, showSidebar } from './gas/ui';

/**
 * The hourly trigger (igKeepAnswers): keep the cache's answers, then scheduled and background runs; returns how many
 * answers it kept.
 */
export function hourly(): number {
  const ctx = gasContext(false); // every editor's trigger runs the whole document's work: the shared key only
  // At Google's daily quota of Properties calls, the hour's work waits (its state cannot be read): gas/quota-pause.ts.
  return underPause(
    ctx.now,
    () => {
      try {
        return keepFromCache(ctx);
      } finally {
        background(ctx, OWNERS); // schedules run even when keeping failed this hour
      }
    },
    () => 0,
  );
}

/** Entry of every IG... custom function: `IGDATA.fn('profile', [handle, fields, header, refresh])`. */
export function fn(endpointId: string, args: unknown[]) {
  const f = formulaContext();
  return underPause(
    f.ctx.now,
    () => evaluateFormula(endpointId, args, f.deps, f.ctx.now, f.spent),
    () => FORMULA_AT_PAUSE,
  );
}

/** A sidebar call at Google's daily quota of Properties calls: the sentence saying which limit and when it goes on. */
const atPause =
  <A extends unknown[], R>(f: (...args: A) => R) =>
  (...args: A): R =>
    underPause(
      Date.now,
      () => f(...args),
      (p) => {
        throw new Error(pauseSentence(p, gasBook().formatTime));
      },
    );

/** The sidebar's server functions, by their name in Code.js. */
export const sidebar = Object.fromEntries(
  Object.entries(SIDEBAR_API).map(([name, f]) => [name, atPause(f as (...args: unknown[]) => unknown)]),
) as typeof SIDEBAR_API;
