/**
 * The work of the hourly trigger beyond keeping answers: starting scheduled lookups that came due,
 * and continuing every running bulk job (a schedule's, or the sidebar's after the sidebar closed)
 * in locked steps, until the execution's time budget is used (the limit is 6 minutes; what is left
 * goes on at the next hourly run). Steps release the document lock between them, so an open
 * sidebar stepping the same job interleaves with the trigger; each step re-reads the job, so no row
 * is written or billed twice.
 */
import { newJob, step } from '../bulk/control';
import type { BulkJob } from '../bulk/job';
import { jobStore, physical } from '../bulk/job';
import { plan } from '../bulk/plan';
import type { RunContext } from '../run/ports';
import type { Schedule } from './schedules';
import { loadSchedules, nextRun, saveSchedules } from './schedules';
import { reuseLimitMs } from './when';

/** Time the trigger spends on jobs (of its 6 minutes; keeping answers comes first). */
const BACKGROUND_MS = 270000;
/** One background step holds the lock at most about this long (a sidebar step waits up to 30 s). */
const STEP_MS = 15000;

/**
 * Where a schedule's new run starts: where the last one stopped when it did not reach its last row
 * (its cap, an empty balance), so a capped schedule refreshes every row in turn instead of the
 * first rows every time; else at the first row.
 */
function startRow(last: BulkJob | null, rows: number): number {
  return !last || last.status === 'done' || last.rows !== rows ? 0 : physical(last, last.next);
}

/** A new run of a schedule, or why it cannot start (saved as the schedule's job either way). `last`: its previous run. */
function scheduledJob(ctx: RunContext, s: Schedule, last: BulkJob | null): BulkJob {
  const p = plan(s.request);
  const job = newJob(ctx, p, s.place, s.request.output);
  job.slot = s.id;
  job.cap = s.cap;
  const offset = startRow(last, job.rows);
  if (offset) job.offset = offset;
  job.maxAgeMs = reuseLimitMs(s.repeat);
  const out = ctx.book.sheet(s.place.outSheet);
  if (job.kind === 'rows') job.overwrite = true;
  if (!ctx.book.sheet(s.place.sheet) || !out) {
    job.status = 'paused';
    job.message = `The sheet "${!out ? s.place.outSheet : s.place.sheet}" is gone: delete this schedule and make a new one.`;
  } else if (job.kind === 'history') job.outNext = out.lastRow() + 1;
  else if (s.place.row > 1 && out.read(s.place.row - 1, s.place.outCol, 1, p.fields.length)[0].join(',') !== p.fields.join(',')) {
    // The header over the schedule's columns changed: those columns are someone else's now.
    job.status = 'paused';
    job.message = `The header over the schedule's columns is no longer "${p.fields.join(', ')}": nothing was written. Restore it, or delete the schedule and make a new one.`;
  }
  return job;
}

/** Starts the schedules that came due (a schedule whose last run is still going skips this time). */
export function startDue(ctx: RunContext): void {
  const now = ctx.now();
  if (!loadSchedules(ctx.props).some((s) => s.nextAt <= now)) return; // most hours: nothing due, no lock taken
  ctx.lock.withLock(() => {
    const jobs = jobStore(ctx.props);
    const list = loadSchedules(ctx.props);
    let changed = false;
    for (const s of list) {
      if (s.nextAt > now) continue;
      const last = jobs.load(s.id);
      if (last?.status === 'running') s.skippedAt = new Date(now).toISOString();
      else {
        delete s.skippedAt;
        jobs.save(scheduledJob(ctx, s, last));
      }
      s.nextAt = nextRun(ctx.book, s.repeat, now);
      changed = true;
    }
    if (changed) saveSchedules(ctx.props, list);
  });
}

/** "Run now" from the sidebar: a new run of the schedule (the sidebar steps it), or the one still going. */
export function runNow(ctx: RunContext, id: string): BulkJob {
  return ctx.lock.withLock(() => {
    const s = loadSchedules(ctx.props).find((x) => x.id === id);
    if (!s) throw new Error('This schedule was deleted; reopen the sidebar.');
    const jobs = jobStore(ctx.props);
    const going = jobs.load(s.id);
    if (going?.status === 'running') return going;
    const job = scheduledJob(ctx, s, going);
    jobs.save(job);
    return job;
  });
}

/** The hourly trigger's work on jobs: what came due starts, then everything running goes on. */
export function background(ctx: RunContext, budgetMs = BACKGROUND_MS): void {
  startDue(ctx);
  continueJobs(ctx, budgetMs);
}

/** Continues every running job until the budget is used; the sidebar's first, then schedules' in order. */
export function continueJobs(ctx: RunContext, budgetMs = BACKGROUND_MS): void {
  const until = ctx.now() + budgetMs;
  const jobs = jobStore(ctx.props);
  const slots = [undefined, ...loadSchedules(ctx.props).map((s) => s.id)];
  for (const slot of slots) {
    try {
      let job = jobs.load(slot);
      while (job?.status === 'running' && ctx.now() < until) job = step(ctx, job.id, Math.min(STEP_MS, until - ctx.now()), slot);
    } catch (e) {
      console.warn(e); // a job replaced meanwhile, a busy lock: the others go on; this one at the next hour
    }
  }
}
