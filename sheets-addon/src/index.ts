/**
 * The bundle's entry: everything the generated Code.js stubs call, under the global `IGDATA`.
 * Built by scripts/build/sheets.mjs as a minified IIFE (dist/bundle.js). The only place where the
 * engine meets its Apps Script dependencies for custom functions.
 */
import { evaluateFormula } from './engine/formula';
import { engineDeps } from './gas/deps';
import { keepFromCache } from './gas/keep-trigger';
import { background } from './schedule/background';
import { formulaSpent } from './gas/usage';
import { SIDEBAR_API } from './sidebar-api';
export { onOpen, showSidebar } from './gas/ui';

/** The hourly trigger (igKeepAnswers): keep the cache's answers, then scheduled and background runs. */
/** Returns how many answers it kept (what the keep step wrote). */
export function hourly(): number {
  try {
    return keepFromCache();
  } finally {
    background(); // schedules run even when keeping failed this hour
  }
}

/** Entry of every IG... custom function: `IGDATA.fn('profile', [handle, fields, header, refresh])`. */
export const fn = (endpointId: string, args: unknown[]) => evaluateFormula(endpointId, args, () => engineDeps(true), Date.now, formulaSpent);
/** The sidebar's server functions, by their name in Code.js. */
export const sidebar = SIDEBAR_API;
