/**
 * Menu action "Refresh selected cells": the IG formulas of the selection fetch again on purpose.
 * The selection is marked (document property IGDATA_REFRESH: sheet, rectangle, time) and its
 * formulas are entered again, so Sheets recalculates them; a formula in a marked cell treats every
 * answer fetched before the mark as a miss (deps.ts). So each question is fetched once however
 * many formulas ask it (the second finds the first one's fresh answer), and the next
 * recalculations are free again. A large selection shows its cost first.
 */
import { endpoints, estimateCost } from '@igdata/core';
import { PROP, props } from './settings';

/** Above this many credits (estimated) the user confirms first. */
const CONFIRM_OVER = 20;
/** Marks kept (newest first): older ones have been recalculated long ago. */
const MAX_MARKS = 20;
const DAY_MS = 86400000;

/** A marked rectangle: [sheet, row, column, rows, columns, marked at (ms)]. */
type Mark = [string, number, number, number, number, number];

const byFn = new Map(endpoints.map((e) => [e.fn, e]));

export function readMarks(text: string | undefined): Mark[] {
  try {
    const v = JSON.parse(text || '[]') as Mark[];
    return Array.isArray(v) ? v.filter((m) => Array.isArray(m) && m.length === 6) : [];
  } catch {
    return [];
  }
}

/** When the calling cell was last marked for refresh (0: never): answers older than that are misses. */
export function refreshedSince(marks: Mark[], sheet: string, row: number, col: number): number {
  let at = 0;
  for (const [s, r, c, nr, nc, t] of marks) if (s === sheet && row >= r && row < r + nr && col >= c && col < c + nc) at = Math.max(at, t);
  return at;
}

export function refreshSelection(): { cells: number; estimate: number; cancelled?: boolean } {
  const range = SpreadsheetApp.getActiveRange();
  if (!range) throw new Error('Select the cells whose IG formulas should fetch again.');
  const sheet = range.getSheet();
  const cells: [number, number, string][] = [];
  let estimate = 0;
  range.getFormulas().forEach((cols, r) =>
    cols.forEach((f, c) => {
      const m = /^=\s*(IG[A-Z]+)\s*\(\s*([^,;)]*)/i.exec(f);
      const e = m && byFn.get(m[1].toUpperCase());
      if (!e) return;
      cells.push([range.getRow() + r, range.getColumn() + c, f]);
      // At most one question per non-blank target cell (repeats are asked once).
      let n = 1;
      try {
        if (/^\$?[A-Z]{1,3}\$?\d*(:\$?[A-Z]{1,3}\$?\d*)?$/i.test(m[2].trim())) n = sheet.getRange(m[2].trim()).getValues().flat().filter((v) => v !== '').length;
      } catch {
        /* not a plain range: count one */
      }
      estimate += n * estimateCost(e, {}).credits;
    }),
  );
  if (!cells.length) return { cells: 0, estimate: 0 };
  if (estimate > CONFIRM_OVER) {
    const ui = SpreadsheetApp.getUi();
    const ok = ui.alert('Refresh selected cells', `${cells.length} IG formulas will fetch again: up to ~${estimate} credits. Continue?`, ui.ButtonSet.YES_NO);
    if (ok !== ui.Button.YES) return { cells: cells.length, estimate, cancelled: true };
  }
  const now = Date.now();
  const p = props();
  const marks = readMarks(p.getProperty(PROP.refresh) ?? undefined).filter((m) => m[5] > now - DAY_MS);
  marks.unshift([sheet.getName(), range.getRow(), range.getColumn(), range.getNumRows(), range.getNumColumns(), now]);
  p.setProperty(PROP.refresh, JSON.stringify(marks.slice(0, MAX_MARKS)));
  // Entering a formula again makes Sheets recalculate it.
  for (const [r, c] of cells) sheet.getRange(r, c).setValue('');
  SpreadsheetApp.flush();
  for (const [r, c, f] of cells) sheet.getRange(r, c).setFormula(f);
  return { cells: cells.length, estimate };
}
