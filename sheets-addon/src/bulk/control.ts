/**
 * Bulk lookup from the sidebar: a column of targets, one endpoint, some fields; plain values
 * written beside the column or to a new sheet (list endpoints: a new sheet only, one row per item).
 * The sidebar drives it in steps, each a short script execution far under the 6-minute limit,
 * one at a time per document (the document lock). Everything comes from the execution's context (context/context.ts).
 */
import type { Context } from '../context/context';
import { selection } from './grid';
import type { BulkJob } from './job';
import { jobStore, refuseReplacing, resumeRefused, unpause } from './job';
import type { BulkRequest } from './plan';
import { plan } from './plan';
import { newJob, placeOutput } from './runs';

/**
 * Starts a job on the selection. Writes the header; fetches nothing. The document has one sidebar
 * run: one still running (here or in the background) or paused is replaced only when `replace` says
 * the user confirmed it (the sidebar asks first), never silently.
 */
export function start(ctx: Context, req: BulkRequest, replace = false): BulkJob {
  const p = plan(req);
  const range = selection(ctx.book);
  return ctx.lock.withLock(() => {
    refuseReplacing(ctx.props, replace);
    const job = newJob(ctx, p, placeOutput(ctx.book, range, p, req.output), req.output);
    jobStore(ctx.props).save(job);
    return job;
  });
}

export function cancel(ctx: Context, jobId: string): BulkJob | null {
  return ctx.lock.withLock(() => {
    const jobs = jobStore(ctx.props);
    const job = jobs.load();
    if (!job || job.id !== jobId) return job;
    if (job.status === 'running' || job.status === 'paused') {
      job.status = 'cancelled';
      job.message = 'Cancelled. Rows already written stay; resume to continue.';
      jobs.save(job);
    }
    return job;
  });
}

/** Continues a paused or cancelled job where it stopped (one waiting out a daily quota: it says what it would meet). */
export function resume(ctx: Context, jobId: string): BulkJob {
  return ctx.lock.withLock(() => {
    const jobs = jobStore(ctx.props);
    const job = jobs.load();
    if (!job || job.id !== jobId) throw new Error('There is no such bulk run to resume.');
    const refused = resumeRefused(job, ctx.now(), (t) => ctx.book.formatTime(t));
    if (refused) throw new Error(refused);
    if (job.status !== 'done') {
      unpause(job);
      jobs.save(job);
    }
    return job;
  });
}
