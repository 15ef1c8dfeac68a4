/**
 * Menu action "Refresh selected cells": the IG formulas of the selection fetch again on purpose.
 * The selection is marked (document property IGDATA_REFRESH: sheet, rectangle, time) and its
 * formulas are entered again, so Sheets recalculates them; a formula in a marked cell treats every
 * answer fetched before the mark as a miss (deps.ts). So each question is fetched once however
 * many formulas ask it (the second finds the first one's fresh answer), and the next
 * recalculations are free again. A large selection shows its cost first.
 */
import { endpoints, estimateCost } from '@igdata/core';
import { jsonList } from '../engine/json';
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
  for (const [s, r, c, nr, nc, t] of readMarks(text)) if (s === sheet && row! >= r && row! < r + nr && col! >= c && col! < c + nc) at = Math.max(at, t);
  return at;
}

/** The formulas marked, and the credits they may spend (0 formulas: cancelled, or none selected). */
export function refreshSelection(): { cells: number; estimate: number } {
  // From a menu there is always an active range (at least the cursor's cell).
  const range = SpreadsheetApp.getActiveRange()!;
  const sheet = range.getSheet();
  const top = range.getRow();
  const left = range.getColumn();
  const cells: [number, number, string][] = [];
  let estimate = 0;
  range.getFormulas().forEach((cols, r) =>
    cols.forEach((f, c) => {
      const m = /^=\s*(IG[A-Z]+)\s*\(\s*([^,;)]*)/i.exec(f);
      const e = m && byFn.get(m[1].toUpperCase());
      if (!e) return;
      cells.push([top + r, left + c, f]);
      // At most one question per non-blank target cell (repeats are asked once); not a range: one.
      const target = m[2].trim();
      const ref = /^\$?[A-Z]{1,3}\$?\d+(:\$?[A-Z]{1,3}\$?\d+)?$/i.test(target) && sheet.getRange(target);
      estimate += (ref ? ref.getValues().flat().filter((v) => v !== '').length : 1) * estimateCost(e, {}).credits;
    }),
  );
  const ui = estimate > CONFIRM_OVER && SpreadsheetApp.getUi();
  if (!cells.length || (ui && ui.alert(REFRESH, `${cells.length} formulas fetch again: up to ${estimate} credits.`, ui.ButtonSet.YES_NO) !== ui.Button.YES)) {
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
