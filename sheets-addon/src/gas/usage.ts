/**
 * Recording usage (engine/usage.ts). Custom functions may not write properties, so a formula adds
 * its credits to a cache item under the document lock; script executions holding the document lock
 * (the hourly trigger, the sidebar, a bulk step) move it into the property IGDATA_USAGE.
 */
import type { Usage } from '../engine/usage';
import { addUsage, mergeUsage, parseUsage } from '../engine/usage';
import { cacheStore, documentKeyValues } from './deps';
import { PROP, props } from './settings';

const ITEM = 'igd1:usage';
const USAGE_SHEET = 'IG Data usage';
const today = () => new Date().toISOString().slice(0, 10);
const pending = () => parseUsage(documentKeyValues.getAll([ITEM])[ITEM]);

/** A formula spent credits (not recorded when the lock stays busy: a known undercount). */
export function formulaSpent(fn: string, credits: number): void {
  const r = SpreadsheetApp.getActiveRange();
  const label = r ? `${fn} ${r.getA1Notation()}` : fn; // its cell
  cacheStore().withLock(() => documentKeyValues.putAll({ [ITEM]: JSON.stringify(addUsage(pending(), label, credits, today())) }, 21600));
}

/** Under the document lock: the formulas' usage, and a run's credits, into the property; all of it. */
export function recordUsage(label?: string, credits = 0): Usage {
  const p = props();
  const u = mergeUsage(parseUsage(p.getProperty(PROP.usage)), credits ? addUsage(pending(), label!, credits, today()) : pending());
  p.setProperty(PROP.usage, JSON.stringify(u));
  documentKeyValues.removeAll([ITEM]);
  return u;
}

/** Writes the rows the sidebar made of the usage (Day, What, Credits) to the sheet "IG Data usage", replacing it. */
export function exportUsage(rows: unknown[][]): void {
  const ss = SpreadsheetApp.getActiveSpreadsheet();
  (ss.getSheetByName(USAGE_SHEET) ?? ss.insertSheet(USAGE_SHEET)).clearContents().getRange(1, 1, rows.length, 3).setValues(rows);
}
