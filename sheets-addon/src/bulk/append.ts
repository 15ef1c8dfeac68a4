/**
 * Appending rows to an output sheet (list runs, history runs) without writing a row twice: the
 * write is announced in the job (`pending`) before it happens and recorded after. If the execution
 * dies in between, the next step looks at the first announced row: filled = the write happened
 * (record it), empty = it did not (drop it; its answers are stored, so fetching again is free).
 */
import type { SheetValue } from '../engine/values';
import type { Sheet } from '../gas/sheet';
import { cellFilled, writeBlock } from '../gas/sheet';
import type { BulkJob } from './job';
import { saveJob } from './job';

/** What a write adds to the job's counters once it happened. */
type Delta = NonNullable<BulkJob['pending']>;

function record(job: BulkJob, d: Delta): void {
  job.next = d.next;
  job.outNext = d.at + d.rows;
  job.written += d.written;
  job.items = (job.items ?? 0) + d.items;
  job.duplicates = (job.duplicates ?? 0) + d.duplicates;
  job.errors = (job.errors ?? 0) + (d.errors ?? 0);
}

/** Settles a write that an earlier step began but did not record. */
export function settlePending(job: BulkJob, out: Sheet): void {
  const p = job.pending;
  if (!p) return;
  if (cellFilled(out, p.at, 1)) record(job, p);
  delete job.pending;
  saveJob(job);
}

/** Appends `values` at the job's next free row (one write, all or nothing) and records it with `d`. */
export function appendRows(job: BulkJob, out: Sheet, values: SheetValue[][], d: Omit<Delta, 'at' | 'rows' | 'items'>): void {
  const delta: Delta = { ...d, at: job.outNext as number, rows: values.length, items: values.length };
  if (values.length) {
    job.pending = delta;
    saveJob(job);
    writeBlock(out, delta.at, 1, values);
    delete job.pending;
  }
  record(job, delta);
  saveJob(job); // only after the rows are written
}
