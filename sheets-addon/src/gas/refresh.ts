/**
 * Menu action "Refresh selected cells": the IG formulas of the selection fetch again on purpose.
 * The selection is marked (document property IGDATA_REFRESH: sheet, rectangle, time) and its
 * formulas are entered again, so Sheets recalculates them; a formula in a marked cell treats every
 * answer fetched before the mark as a miss (deps.ts). So each question is fetched once however
 * many formulas ask it (the second finds the first one's fresh answer), and the next
 * recalculations are free again. A large selection shows its cost first.
 */
import type { EndpointDef, Params } from '@igdata/core';
import { counted, endpoints, estimateCost, isIgError } from '@igdata/core';
import { pagesFor } from '../bulk/plan';
import { parseArgs } from '../engine/args';
import type { ArgText } from '../engine/formula-text';
import { readFormula } from '../engine/formula-text';
import { jsonList } from '../engine/json';
import { MAX_LIMIT, argLayout } from '../engine/layout';
import { planRow, uniqueCalls } from '../engine/rows';
import { PROP, props } from './settings';
import { REFRESH } from './ui';

/** Above this many credits (estimated) the user confirms first. */
const CONFIRM_OVER = 20;

/** A marked rectangle: [sheet, row, column, rows, columns, marked at (ms)]. */
type Mark = [string, number, number, number, number, number];

const byFn = new Map(endpoints.map((e) => [e.fn, e]));

/** The marks (JSON written by this module only). */
const readMarks = (text: string | null | undefined): Mark[] => jsonList(text) as Mark[];

/** When the calling cell was last marked for refresh (0: never): answers older than that are misses. */
export function refreshedSince(text: string, cell: GoogleAppsScript.Spreadsheet.Range | null): number {
  let at = 0;
  const [sheet, row, col] = cell ? [cell.getSheet().getName(), cell.getRow(), cell.getColumn()] : [];
  for (const [s, r, c, nr, nc, t] of readMarks(text))
    if (s === sheet && row! >= r && row! < r + nr && col! >= c && col! < c + nc) at = Math.max(at, t);
  return at;
}

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/**
 * What an argument is when the formula runs: a value written in it, the cells of a reference (on
 * the formula's sheet unless it names another; a named range; an open range like A2:A reaches the
 * sheet's last row, blank cells included), or, for what only Sheets computes, the dearest the
 * argument allows (a window parameter's largest value, the largest limit).
 */
function argValue(arg: ArgText | undefined, sheet: Sheet, dearest: unknown): unknown {
  if (!arg) return undefined;
  try {
    const range =
      arg.kind === 'ref'
        ? arg.qualified
          ? sheet.getParent().getRange(arg.ref)
          : sheet.getRange(arg.ref)
        : arg.kind === 'name'
          ? sheet.getParent().getRangeByName(arg.name)
          : null;
    if (range) {
      const values = range.getValues();
      return values.length === 1 && values[0].length === 1 ? values[0][0] : values;
    }
  } catch {
    // A reference Sheets cannot read either (the formula shows #REF!): priced as unknown.
  }
  return arg.kind === 'value' ? arg.value : dearest;
}

/**
 * Adds to `asked` (request key -> credits) what a formula will ask when it runs again: each distinct
 * non-blank target once, at the price of the formula's own parameters (posts, sample...) by the
 * registry's rules, times the pages its limit needs. A formula that fails its own argument check
 * asks nothing.
 */
function price(endpoint: EndpointDef, text: ArgText[], sheet: Sheet, asked: Map<string, number>): void {
  const layout = argLayout(endpoint);
  if (text.length > layout.length) return; // fails its argument check
  const args = layout.map((spec, i) => {
    const p = spec.param;
    // A computed text parameter is some text (a computed target is counted below).
    const dearest = spec.role === 'limit' ? MAX_LIMIT : spec.role === 'param' ? (p?.max ?? p?.default ?? '_') : '';
    return argValue(text[i], sheet, dearest);
  });
  try {
    const parsed = parseArgs(endpoint, args);
    const pages = pagesFor(endpoint, parsed.limit);
    const each = (params: Record<string, unknown>) => estimateCost(endpoint, params as Params).credits * pages;
    // A target only Sheets computes is one target.
    if (layout[0]?.role === 'target' && text[0]?.kind === 'unknown')
      asked.set(`${endpoint.id}#${asked.size}`, each(parsed.params));
    const rows = parsed.targets.map((cell) => planRow(endpoint, parsed.targetName, parsed.params, cell));
    for (const [key, call] of uniqueCalls(rows)) asked.set(key, Math.max(asked.get(key) ?? 0, each(call.params)));
  } catch (e) {
    if (!isIgError(e)) throw e;
  }
}

/** The formulas marked, and the credits they may spend (0 formulas: cancelled, or none selected). */
export function refreshSelection(): { cells: number; estimate: number } {
  // From a menu there is always an active range (at least the cursor's cell).
  const range = SpreadsheetApp.getActiveRange()!;
  const sheet = range.getSheet();
  const top = range.getRow();
  const left = range.getColumn();
  const cells: [number, number, string][] = [];
  // A question asked by several formulas is fetched once (the second finds the first one's answer).
  const asked = new Map<string, number>();
  range.getFormulas().forEach((cols, r) =>
    cols.forEach((f, c) => {
      const read = readFormula(f);
      const e = read && byFn.get(read.fn);
      if (!e) return;
      cells.push([top + r, left + c, f]);
      price(e, read.args, sheet, asked);
    }),
  );
  let estimate = 0;
  for (const credits of asked.values()) estimate += credits;
  const ui = estimate > CONFIRM_OVER && SpreadsheetApp.getUi();
  if (
    !cells.length ||
    (ui &&
      ui.alert(
        REFRESH,
        `${cells.length === 1 ? '1 formula fetches' : `${cells.length} formulas fetch`} ` +
          `again: up to ${counted(estimate, 'credit')}.`,
        ui.ButtonSet.YES_NO,
      ) !== ui.Button.YES)
  ) {
    return { cells: 0, estimate };
  }
  // The last 20 marks (9 KB a property). An old mark is harmless: every answer its cells use was
  // fetched after it (by the recalculation it caused).
  const p = props();
  const marks = readMarks(p.getProperty(PROP.refresh));
  marks.unshift([sheet.getName(), top, left, range.getNumRows(), range.getNumColumns(), Date.now()]);
  p.setProperty(PROP.refresh, JSON.stringify(marks.slice(0, 20)));
  // Entering a formula again makes Sheets recalculate it.
  for (const [r, c] of cells) sheet.getRange(r, c).setValue('');
  SpreadsheetApp.flush();
  for (const [r, c, f] of cells) sheet.getRange(r, c).setFormula(f);
  return { cells: cells.length, estimate };
}
