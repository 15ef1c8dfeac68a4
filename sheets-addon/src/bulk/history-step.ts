/**
 * One step of a history run: each distinct target of the column gets one dated row (the run's
 * start, the target, the fields) appended to a history sheet, so every run adds one snapshot per
 * target and a growth view can compare them. Units of work as in row-step (unit.ts); rows are
 * appended as append.ts says (never twice), after the unit's answers are in.
 */
import type { EndpointDef } from '@igdata/core';
import { stopsBulkRun } from '@igdata/core';
import { messageOf, messageRow } from '../engine/messages';
import type { EngineDeps } from '../engine/ports';
import type { SheetValue } from '../engine/values';
import { cellsOf } from '../engine/values';
import type { Sheet } from '../gas/sheet';
import { readColumn } from '../gas/sheet';
import { appendRows, settlePending } from './append';
import type { BulkJob } from './job';
import { eachUnit, endStep, physical, rowsBeforeWrap, upTo } from './job';
import { distinctRows } from './targets';
import { capRoom, cutUnit, fetchUnit, stopAtCap, storedTargets } from './unit';

/** Rows a history step reads ahead. */
const WINDOW_ROWS = 1000;

export function stepHistory(job: BulkJob, endpoint: EndpointDef, targetName: string, src: Sheet, out: Sheet, deps: () => EngineDeps, started: number, budgetMs: number): BulkJob {
  settlePending(job, out);
  const n = Math.min(WINDOW_ROWS, job.rows - job.next, rowsBeforeWrap(job));
  if (n <= 0) return endStep(job);
  const base = job.next;
  const at = physical(job, base);
  // A target is written once a run, at its first row in the column: in a rotated run (started past
  // row 0) too, so a repeated target is never paid twice in one pass over the column.
  const rows = distinctRows({ endpoint, targetName, params: job.params }, readColumn(src, job.row, job.col, at + n), at, n, upTo(at));
  const d = deps();
  // Targets answered already (in the store, or fetched by an earlier unit of this step).
  const answered = storedTargets(rows, d);
  // One date for the whole run: a snapshot is "the accounts as of this run".
  const date = new Date(job.startedAt);
  const dated = (label: SheetValue, cells: SheetValue[]): SheetValue[] => [date, label, ...cells];

  eachUnit(job, n, started, budgetMs, (i) => {
    const { unit, end, capped } = cutUnit(rows, i, n, answered, capRoom(job, endpoint, job.params));
    const run = fetchUnit(job, unit, d, answered);
    const values: SheetValue[][] = [];
    let errors = 0;
    let dups = 0;
    let stopAt = end;
    for (let r = i; r < end; r++) {
      const row = rows[r];
      if (row.kind === 'blank') continue;
      if (row.kind === 'dup') {
        dups++;
        continue;
      }
      if (row.kind === 'invalid') {
        values.push(dated(row.label, messageRow(row.message, job.fields.length)));
        errors++;
        continue;
      }
      const o = run.outcomes.get(row.key)!;
      if (o.kind === 'late') {
        stopAt = r;
        break;
      }
      if (o.kind === 'error' && stopsBulkRun(o.error)) {
        job.status = 'paused';
        job.message = messageOf(o.error, row.call);
        stopAt = r;
        break;
      }
      // The target as the service reads it (`@NASA` and a profile URL are `nasa`): one name per account across runs.
      const target = (row.call.params[targetName] as SheetValue) ?? row.label;
      if (o.kind === 'ok') values.push(dated(target, cellsOf(o.value.data, job.fields, o.value.at)));
      else {
        values.push(dated(target, messageRow(messageOf(o.error, row.call), job.fields.length)));
        errors++;
      }
    }
    appendRows(job, out, values, { next: base + stopAt, written: values.length, duplicates: dups, errors });
    if (capped && stopAt === end && job.status === 'running') stopAtCap(job);
    return { stopAt, end };
  });
  return endStep(job);
}
