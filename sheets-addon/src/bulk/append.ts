/**
 * Appending rows to an output sheet (list runs, history runs) without writing a row twice: the
 * write is announced in the job (`pending`) before it happens and recorded after. If the execution
 * dies in between, the next step looks at the first announced row: filled = the write happened
 * (record it), empty = it did not (drop it; its answers are stored, so fetching again is free).
 */
import type { SheetValue } from '../engine/values';
import { cellFilled, readColumn, writeBlock } from './grid';
import type { HistoryJob, ListJob, PendingWrite } from './job';
import { physical, windowSize } from './job';
import type { Step } from './step';
import type { TargetRow } from './targets';
import { distinctRows } from './targets';

type AppendingJob = ListJob | HistoryJob;

function record(job: AppendingJob, d: PendingWrite): void {
  job.next = d.next;
  job.outNext = d.at + d.rows;
  job.written += d.written;
  job.items += d.items;
  job.duplicates += d.duplicates;
  job.errors = (job.errors ?? 0) + (d.errors ?? 0);
}

/** The first two cells of a row as text: what an announced write looks for to know it is its own. */
const fingerprint = (cells: unknown[]): string =>
  cells
    .slice(0, 2)
    .map((c) => (c instanceof Date ? c.toISOString() : String(c ?? '')))
    .join('\u0000');

/**
 * Finishes a write that an earlier step began but did not record: it happened if its first row is there, and is its
 * own.
 */
function finishPending(s: Step<AppendingJob>): void {
  const p = s.job.pending;
  if (!p) return;
  const ours =
    cellFilled(s.out, p.at, 1) && (p.first === undefined || fingerprint(s.out.read(p.at, 1, 1, 2)[0]) === p.first);
  if (ours) record(s.job, p);
  delete s.job.pending;
  s.save(s.job);
}

/**
 * The start of an appending step: an unfinished write finished, then the rows of its window (at
 * most `max`; null when none are left). A target is written once a run, at its first row in the
 * column: in a rotated run (started past row 0) too, so a repeated target is never paid twice in
 * one pass over the column.
 */
export function appendWindow(s: Step<AppendingJob>, max: number): TargetRow[] | null {
  finishPending(s);
  const { job } = s;
  const n = windowSize(job, max);
  if (n <= 0) return null;
  const at = physical(job, job.next);
  return distinctRows(s, readColumn(s.src, job.row, job.col, at + n), at, n);
}

/**
 * Appends `values` below the sheet's last row (one write, all or nothing) and records it with `d`.
 * Below the last row, not at the job's own next row: another run may append to the same sheet
 * (a history sheet shared by two lookups of one function), and neither may write over the other.
 */
export function appendRows(
  s: Step<AppendingJob>,
  values: SheetValue[][],
  d: Omit<PendingWrite, 'at' | 'rows' | 'items' | 'first'>,
): void {
  const { job } = s;
  const at = Math.max(job.outNext, s.out.lastRow() + 1);
  const delta: PendingWrite = { ...d, at, rows: values.length, items: values.length };
  if (values.length) {
    job.pending = { ...delta, first: fingerprint(values[0]) };
    s.save(job);
    writeBlock(s.out, at, 1, values);
    delete job.pending;
  }
  record(job, delta);
  s.save(job); // only after the rows are written
}
