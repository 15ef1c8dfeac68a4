/**
 * Appending rows to an output sheet (list runs, history runs) without writing a row twice: the
 * write is announced in the job (`pending`) before it happens and recorded after. If the execution
 * dies in between, the next step looks at the first announced row: filled = the write happened
 * (record it), empty = it did not (drop it; its answers are stored, so fetching again is free).
 */
import type { SheetValue } from '../engine/values';
import { cellFilled, writeBlock } from './grid';
import type { HistoryJob, ListJob, PendingWrite } from './job';
import type { Step } from './step';

type AppendingJob = ListJob | HistoryJob;

function record(job: AppendingJob, d: PendingWrite): void {
  job.next = d.next;
  job.outNext = d.at + d.rows;
  job.written += d.written;
  job.items += d.items;
  job.duplicates += d.duplicates;
  job.errors = (job.errors ?? 0) + (d.errors ?? 0);
}

/** Settles a write that an earlier step began but did not record. */
export function settlePending(s: Step<AppendingJob>): void {
  const p = s.job.pending;
  if (!p) return;
  if (cellFilled(s.out, p.at, 1)) record(s.job, p);
  delete s.job.pending;
  s.save(s.job);
}

/** Appends `values` at the job's next free row (one write, all or nothing) and records it with `d`. */
export function appendRows(s: Step<AppendingJob>, values: SheetValue[][], d: Omit<PendingWrite, 'at' | 'rows' | 'items'>): void {
  const { job } = s;
  const delta: PendingWrite = { ...d, at: job.outNext, rows: values.length, items: values.length };
  if (values.length) {
    job.pending = delta;
    s.save(job);
    writeBlock(s.out, delta.at, 1, values);
    delete job.pending;
  }
  record(job, delta);
  s.save(job); // only after the rows are written
}
