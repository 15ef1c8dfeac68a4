/**
 * One step of a bulk run of single endpoints: one output row per source row, beside the column or
 * in a new sheet. Units of work: unit.ts (up to 50 targets not in the store, within the run's cap).
 */
import type { EndpointDef } from '@igdata/core';
import { stopsBulkRun } from '@igdata/core';
import { messageOf, messageRow } from '../engine/messages';
import type { EngineDeps } from '../engine/ports';
import type { PlannedRow } from '../engine/rows';
import type { SheetValue } from '../engine/values';
import { cellsOf } from '../engine/values';
import type { Sheet } from '../gas/sheet';
import { filledRows, readColumn, writeRuns } from '../gas/sheet';
import type { BulkJob } from './job';
import { eachUnit, endStep, physical, rowsBeforeWrap, saveJob } from './job';
import { bulkRow } from './plan';
import { capRoom, cutUnit, fetchUnit, stopAtCap, storedTargets } from './unit';

/** Rows one step reads ahead. */
const WINDOW_ROWS = 1000;

export function stepRows(job: BulkJob, endpoint: EndpointDef, targetName: string, src: Sheet, out: Sheet, deps: () => EngineDeps, started: number, budgetMs: number): BulkJob {
  const base = job.next;
  const n = Math.min(WINDOW_ROWS, job.rows - job.next, rowsBeforeWrap(job));
  if (n <= 0) return endStep(job);
  // The source rows of this window (a rotated scheduled run starts past row 0, job.ts).
  const at = physical(job, base);
  const cells = readColumn(src, job.row + at, job.col, n);
  // A scheduled refresh rewrites its own columns; any other run never writes a filled row.
  const filled = job.overwrite ? cells.map(() => false) : filledRows(out, job.outRow + at, job.outCol, n, job.fields.length);
  const rows: (PlannedRow | null)[] = cells.map((c, i) => (filled[i] ? null : bulkRow({ endpoint, targetName, params: job.params }, c)));
  const d = deps();
  // Targets answered already (in the store, or fetched by an earlier unit of this step).
  const answered = storedTargets(rows, d);

  eachUnit(job, n, started, budgetMs, (i) => {
    const { unit, end, capped } = cutUnit(rows, i, n, answered, capRoom(job, endpoint, job.params));
    const run = fetchUnit(job, unit, d, answered);
    // Rows to write, in order; a blocking error stops the run before its row.
    const values: (SheetValue[] | null)[] = [];
    let stopAt = end;
    for (let r = i; r < end; r++) {
      const row = rows[r];
      if (row === null) {
        values.push(null);
        job.skipped++;
      } else if (row.kind === 'blank') values.push(null); // blank target: nothing to write
      else if (row.kind === 'error') {
        values.push(messageRow(row.message, job.fields.length));
        job.errors = (job.errors ?? 0) + 1;
      }
      else {
        const o = run.outcomes.get(row.key)!;
        if (o.kind === 'error' && stopsBulkRun(o.error)) {
          job.status = 'paused';
          job.message = messageOf(o.error, row.call);
          stopAt = r;
          break;
        }
        if (o.kind === 'ok') values.push(cellsOf(o.value.data, job.fields, o.value.at));
        else if (o.kind === 'error') {
          values.push(messageRow(messageOf(o.error, row.call), job.fields.length));
          job.errors = (job.errors ?? 0) + 1;
        }
        else values.push(null);
      }
    }
    writeRuns(out, job.outRow + at + i, job.outCol, values, job.copyTargets ? cells.slice(i, i + values.length) : null);
    job.written += values.filter((v) => v !== null).length;
    job.next = base + stopAt;
    if (capped && stopAt === end && job.status === 'running') stopAtCap(job);
    saveJob(job); // only after the rows are written
    return { stopAt, end };
  });
  return endStep(job);
}
