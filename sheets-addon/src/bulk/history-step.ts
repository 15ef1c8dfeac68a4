/**
 * One step of a history run: each distinct target of the column gets one dated row (the run's
 * start or, after a pause, when it went on; the target, the fields) appended to a history sheet,
 * so every run adds one snapshot per target and a growth view can compare them. Units of work as
 * in row-step (unit.ts); rows are appended as append.ts says (never twice), after the unit's
 * answers are in.
 */
import type { SheetValue } from '../engine/values';
import { appendRows, appendWindow } from './append';
import type { HistoryJob } from './job';
import { rowDate } from './job';
import type { Step } from './step';
import { endStep, writesCells } from './step';
import { cellsFor, failed, fetchUnits } from './unit';

/** Rows a history step reads ahead. */
const WINDOW_ROWS = 1000;

export function stepHistory(s: Step<HistoryJob>): HistoryJob {
  const { job, targetName } = s;
  const rows = appendWindow(s, WINDOW_ROWS);
  if (!rows) return endStep(s);
  const base = job.next;
  // One date for the run (a snapshot is "the accounts as of this run"), or for each part of a run that crossed a pause:
  // a row is dated when its values were fetched (job.ts markStep).
  const date = rowDate(job);

  fetchUnits(s, rows, (_, outcomes, stopAt) => {
    const values: SheetValue[][] = [];
    let errors = 0;
    let dups = 0;
    for (const x of outcomes) {
      if (x.kind === 'dup') dups++;
      if (failed(x)) errors++;
      // An answer's target as the service reads it (`@NASA` and a profile URL are `nasa`): one name per account across
      // runs.
      if (writesCells(x))
        values.push([
          date,
          x.kind === 'answer' ? ((x.row.call.params[targetName] as SheetValue) ?? x.row.label) : x.label,
          ...cellsFor(job, x, s.deps.zoneOffset),
        ]);
    }
    appendRows(s, values, { next: base + stopAt, written: values.length, duplicates: dups, errors });
  });
  return endStep(s);
}
