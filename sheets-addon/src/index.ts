/**
 * The bundle's entry: everything the generated Code.js stubs call, under the global `IGDATA`.
 * Built by scripts/build/sheets.mjs as a minified IIFE (dist/bundle.js). Each entry point builds
 * its one context (gas/context.ts) and passes it down.
 */
import { evaluateFormula } from './engine/formula';
import { formulaContext, gasContext } from './gas/context';
import { keepFromCache } from './gas/keep-trigger';
import { OWNERS } from './owners';
import { background } from './schedule/background';
import { SIDEBAR_API } from './sidebar-api';
export { onOpen, showSidebar } from './gas/ui';

/**
 * The hourly trigger (igKeepAnswers): keep the cache's answers, then scheduled and background runs; returns how many
 * answers it kept.
 */
export function hourly(): number {
  const ctx = gasContext();
  try {
    return keepFromCache(ctx);
  } finally {
    background(ctx, OWNERS); // schedules run even when keeping failed this hour
  }
}

/** Entry of every IG... custom function: `IGDATA.fn('profile', [handle, fields, header, refresh])`. */
export function fn(endpointId: string, args: unknown[]) {
  const f = formulaContext();
  return evaluateFormula(endpointId, args, f.deps, f.ctx.now, f.spent);
}

/** The sidebar's server functions, by their name in Code.js. */
export const sidebar = SIDEBAR_API;
