/**
 * One step of a rows run (single endpoints): one output row per source row, beside the column or
 * in a new sheet. Units of work: unit.ts (up to 50 targets not in the store, within the run's cap).
 */
import type { SheetValue } from '../engine/values';
import { filledRows, readColumn, writeSpans } from './grid';
import type { RowsJob } from './job';
import { physical, windowSize } from './job';
import type { Step } from './step';
import { endStep, writesCells } from './step';
import { eachRow } from './targets';
import { OLD_OUTCOME_WIDTH, outcomeCells } from './outcome';
import { cellsFor, failed, failureOf, fetchUnits } from './unit';

/** Rows one step reads ahead. */
const WINDOW_ROWS = 1000;

export function stepRows(s: Step<RowsJob>): RowsJob {
  const { job, out } = s;
  const base = job.next;
  const n = windowSize(job, WINDOW_ROWS);
  if (n <= 0) return endStep(s);
  // The source rows of this window (a rotated scheduled run starts past row 0, job.ts).
  const at = physical(job, base);
  const cells = readColumn(s.src, job.row + at, job.col, n);
  // A scheduled refresh rewrites its own columns; any other run never writes a filled row.
  const filled = job.overwrite
    ? cells.map(() => false)
    : filledRows(out, job.outRow + at, job.outCol, n, job.fields.length);
  fetchUnits(s, eachRow(s, cells, filled), (i, outcomes, stopAt) => {
    // Rows to write, in order: null leaves a row as it is.
    const values: (SheetValue[] | null)[] = outcomes.map((x) => {
      if (x.kind === 'filled') job.skipped++;
      if (failed(x)) job.errors = (job.errors ?? 0) + 1;
      return writesCells(x) ? cellsFor(job, x, s.deps.zoneOffset) : null;
    });
    // The outcomes first: a row whose fields are written is skipped on a resume, so its outcome must be there already.
    if (job.outcomeCol)
      writeSpans(
        out,
        job.outRow + at + i,
        job.outcomeCol,
        outcomes.map((x) =>
          writesCells(x) ? outcomeCells(failureOf(x), job.outcomeWidth ?? OLD_OUTCOME_WIDTH) : null,
        ),
        null,
      );
    writeSpans(
      out,
      job.outRow + at + i,
      job.outCol,
      values,
      job.copyTargets ? cells.slice(i, i + values.length) : null,
    );
    job.written += values.filter((v) => v !== null).length;
    job.next = base + stopAt;
    s.save(job); // only after the rows are written
  });
  return endStep(s);
}
