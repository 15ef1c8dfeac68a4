/**
 * One step of a rows run (single endpoints): one output row per source row, beside the column or
 * in a new sheet. Units of work: unit.ts (up to 50 targets not in the store, within the run's cap).
 */
import { messageOf, messageRow } from '../engine/messages';
import type { SheetValue } from '../engine/values';
import { cellsOf } from '../engine/values';
import { filledRows, readColumn, writeRuns } from './grid';
import type { RowsJob } from './job';
import { physical, rowsBeforeWrap } from './job';
import type { Step } from './step';
import { eachUnit, endStep, settleRows } from './step';
import { eachRow } from './targets';
import { capRoom, cutUnit, fetchUnit, stopAtCap, storedTargets } from './unit';

/** Rows one step reads ahead. */
const WINDOW_ROWS = 1000;

export function stepRows(s: Step<RowsJob>): RowsJob {
  const { job, endpoint, out, deps: d } = s;
  const base = job.next;
  const n = Math.min(WINDOW_ROWS, job.rows - job.next, rowsBeforeWrap(job));
  if (n <= 0) return endStep(s);
  // The source rows of this window (a rotated scheduled run starts past row 0, job.ts).
  const at = physical(job, base);
  const cells = readColumn(s.src, job.row + at, job.col, n);
  // A scheduled refresh rewrites its own columns; any other run never writes a filled row.
  const filled = job.overwrite ? cells.map(() => false) : filledRows(out, job.outRow + at, job.outCol, n, job.fields.length);
  const rows = eachRow({ endpoint, targetName: s.targetName, params: job.params }, cells, filled);
  // Targets answered already (in the store, or fetched by an earlier unit of this step).
  const answered = storedTargets(rows, d);

  eachUnit(s, n, (i) => {
    const { unit, end, capped } = cutUnit(rows, i, n, answered, capRoom(job, endpoint, job.params));
    const run = fetchUnit(job, unit, d, answered);
    const { settled, stopAt } = settleRows(job, rows, i, end, (row) => {
      const o = run.outcomes.get(row.key)!;
      return o.kind === 'late' ? { late: true } : o.kind === 'ok' ? { value: o.value } : { error: o.error };
    });
    // Rows to write, in order: null leaves a row as it is.
    const values: (SheetValue[] | null)[] = settled.map((x) => {
      if (x.kind === 'filled') job.skipped++;
      if (x.kind === 'invalid' || (x.kind === 'answer' && x.error)) job.errors = (job.errors ?? 0) + 1;
      if (x.kind === 'invalid') return messageRow(x.message, job.fields.length);
      if (x.kind !== 'answer') return null;
      return x.value ? cellsOf(x.value.data, job.fields, x.value.at) : messageRow(messageOf(x.error!, x.row.call), job.fields.length);
    });
    writeRuns(out, job.outRow + at + i, job.outCol, values, job.copyTargets ? cells.slice(i, i + values.length) : null);
    job.written += values.filter((v) => v !== null).length;
    job.next = base + stopAt;
    if (capped && stopAt === end && job.status === 'running') stopAtCap(job);
    s.save(job); // only after the rows are written
    return { stopAt, end };
  });
  return endStep(s);
}
