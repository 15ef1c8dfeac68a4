/**
 * Menu action "Refresh selected cells": the IG formulas of the selection fetch again on purpose.
 * Their requests are read from the formula text (engine/formula-text.ts), a large selection shows
 * its cost first, the answers are fetched once each (refresh), cached and kept, and each formula
 * is entered again so Sheets recalculates it from the fresh answers (free).
 */
import type { Call } from '@igdata/core';
import { endpoints, estimateCost, getEndpoint } from '@igdata/core';
import { parseArgs } from '../engine/args';
import { parseFormulaText } from '../engine/formula-text';
import { planRow, uniqueCalls } from '../engine/rows';
import { runCalls } from '../engine/run';
import { engineDeps, keepingAnswers } from './deps';
import { withDocumentLock } from './lock';

/** Above this many requests the user confirms the cost first. */
const CONFIRM_OVER = 20;
/** No new batch starts after this (a menu action may run 6 minutes). */
const BUDGET_MS = 240000;

const byFn = new Map(endpoints.map((e) => [e.fn, e]));

interface Planned {
  row: number;
  col: number;
  formula: string;
  endpoint: string;
  calls: Map<string, Call>;
  limit?: number;
}

export interface RefreshReport {
  cells: number;
  requests: number;
  credits: number;
  estimate: number;
  skipped: string[];
  cancelled?: boolean;
}

function readArg(sheet: GoogleAppsScript.Spreadsheet.Sheet, a1: string): unknown {
  const range = a1.includes('!') ? SpreadsheetApp.getActiveSpreadsheet().getRange(a1) : sheet.getRange(a1);
  const values = range.getValues();
  return values.length === 1 && values[0].length === 1 ? values[0][0] : values;
}

function planCells(range: GoogleAppsScript.Spreadsheet.Range, skipped: string[]): Planned[] {
  const sheet = range.getSheet();
  const out: Planned[] = [];
  range.getFormulas().forEach((cols, r) =>
    cols.forEach((text, c) => {
      if (!text) return;
      const cell = range.getCell(r + 1, c + 1).getA1Notation();
      const parsed = parseFormulaText(text, (fn) => byFn.has(fn));
      if (!parsed) return;
      if ('error' in parsed) return void skipped.push(`${cell}: ${parsed.error}`);
      const endpoint = getEndpoint(byFn.get(parsed.fn)!.id);
      const args = parsed.args.map((a) => (a.kind === 'blank' ? '' : a.kind === 'value' ? a.value : readArg(sheet, a.a1)));
      try {
        const p = parseArgs(endpoint, args);
        const calls = uniqueCalls(p.targets.map((t) => planRow(endpoint, p.targetName, p.params, t)));
        out.push({ row: range.getRow() + r, col: range.getColumn() + c, formula: text, endpoint: endpoint.id, calls, limit: p.limit });
      } catch (e) {
        skipped.push(`${cell}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }),
  );
  return out;
}

/** Refreshes the IG formulas of the active range; `confirm` false skips the cost question (sidebar). */
export function refreshSelection(confirm = true): RefreshReport {
  const range = SpreadsheetApp.getActiveRange();
  if (!range) throw new Error('Select the cells whose IG formulas should fetch again.');
  const skipped: string[] = [];
  const planned = planCells(range, skipped).filter((p) => p.endpoint !== 'credits');
  const unique = new Map<string, { call: Call; endpoint: string }>();
  for (const p of planned) for (const [k, call] of p.calls) unique.set(k, { call, endpoint: p.endpoint });
  const estimate = [...unique.values()].reduce((n, u) => n + estimateCost(getEndpoint(u.endpoint), u.call.params as never).credits, 0);
  const report: RefreshReport = { cells: planned.length, requests: 0, credits: 0, estimate, skipped };
  if (!planned.length) return report;
  if (confirm && unique.size > CONFIRM_OVER) {
    const ui = SpreadsheetApp.getUi();
    const answer = ui.alert('Refresh selected cells', `${planned.length} formulas ask ${unique.size} questions: about ${estimate} credits to fetch them again. Continue?`, ui.ButtonSet.YES_NO);
    if (answer !== ui.Button.YES) return { ...report, cancelled: true };
  }
  const started = Date.now();
  withDocumentLock(() =>
    keepingAnswers(() => {
      const deps = engineDeps();
      const done = new Set<string>();
      for (const p of planned) {
        // A question two formulas share is fetched once: the second reads the fresh answer.
        const again = new Map([...p.calls].filter(([k]) => !done.has(k)));
        const known = new Map([...p.calls].filter(([k]) => done.has(k)));
        for (const [calls, refresh] of [[again, true], [known, false]] as const) {
          if (!calls.size) continue;
          const run = runCalls(getEndpoint(p.endpoint), calls, deps, { deadline: started + BUDGET_MS, refresh, limit: p.limit });
          report.requests += run.requests;
          report.credits += run.credits;
        }
        for (const k of again.keys()) done.add(k);
      }
    }),
  );
  // Entering each formula again makes Sheets recalculate it, now from the fresh answers.
  const sheet = range.getSheet();
  for (const p of planned) sheet.getRange(p.row, p.col).setValue('');
  SpreadsheetApp.flush();
  for (const p of planned) sheet.getRange(p.row, p.col).setFormula(p.formula);
  SpreadsheetApp.getActiveSpreadsheet().toast(`${report.cells} formulas fetched again: ${report.credits} credits.${skipped.length ? ` Not refreshed: ${skipped.join('; ')}` : ''}`, 'IG Data');
  return report;
}
