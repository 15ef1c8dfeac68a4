/**
 * One step of a history run: each distinct target of the column gets one dated row (the run's
 * start, the target, the fields) appended to a history sheet, so every run adds one snapshot per
 * target and a growth view can compare them. Units of work as in row-step (unit.ts); rows are
 * appended as append.ts says (never twice), after the unit's answers are in.
 */
import { messageOf, messageRow } from '../engine/messages';
import type { SheetValue } from '../engine/values';
import { cellsOf } from '../engine/values';
import { appendRows, settlePending } from './append';
import { readColumn } from './grid';
import type { HistoryJob } from './job';
import { physical, rowsBeforeWrap, upTo } from './job';
import type { Step } from './step';
import { eachUnit, endStep, settleRows } from './step';
import { distinctRows } from './targets';
import { capRoom, cutUnit, fetchUnit, stopAtCap, storedTargets } from './unit';

/** Rows a history step reads ahead. */
const WINDOW_ROWS = 1000;

export function stepHistory(s: Step<HistoryJob>): HistoryJob {
  settlePending(s);
  const { job, endpoint, targetName, deps: d } = s;
  const n = Math.min(WINDOW_ROWS, job.rows - job.next, rowsBeforeWrap(job));
  if (n <= 0) return endStep(s);
  const base = job.next;
  const at = physical(job, base);
  // A target is written once a run, at its first row in the column: in a rotated run (started past
  // row 0) too, so a repeated target is never paid twice in one pass over the column.
  const rows = distinctRows({ endpoint, targetName, params: job.params }, readColumn(s.src, job.row, job.col, at + n), at, n, upTo(at));
  // Targets answered already (in the store, or fetched by an earlier unit of this step).
  const answered = storedTargets(rows, d);
  // One date for the whole run: a snapshot is "the accounts as of this run".
  const date = new Date(job.startedAt);
  const dated = (label: SheetValue, cells: SheetValue[]): SheetValue[] => [date, label, ...cells];

  eachUnit(s, n, (i) => {
    const { unit, end, capped } = cutUnit(rows, i, n, answered, capRoom(job, endpoint, job.params));
    const run = fetchUnit(job, unit, d, answered);
    const { settled, stopAt } = settleRows(job, rows, i, end, (row) => {
      const o = run.outcomes.get(row.key)!;
      return o.kind === 'late' ? { late: true } : o.kind === 'ok' ? { value: o.value } : { error: o.error };
    });
    const values: SheetValue[][] = [];
    let errors = 0;
    let dups = 0;
    for (const x of settled) {
      if (x.kind === 'dup') dups++;
      else if (x.kind === 'invalid') {
        values.push(dated(x.label, messageRow(x.message, job.fields.length)));
        errors++;
      } else if (x.kind === 'answer') {
        // The target as the service reads it (`@NASA` and a profile URL are `nasa`): one name per account across runs.
        const target = (x.row.call.params[targetName] as SheetValue) ?? x.row.label;
        if (x.value) values.push(dated(target, cellsOf(x.value.data, job.fields, x.value.at)));
        else {
          values.push(dated(target, messageRow(messageOf(x.error!, x.row.call), job.fields.length)));
          errors++;
        }
      }
    }
    appendRows(s, values, { next: base + stopAt, written: values.length, duplicates: dups, errors });
    if (capped && stopAt === end && job.status === 'running') stopAtCap(job);
    return { stopAt, end };
  });
  return endStep(s);
}
