/**
 * The work of the hourly trigger beyond keeping answers: starting scheduled lookups that came due,
 * and continuing every running bulk job (a schedule's, or the sidebar's after the sidebar closed)
 * in locked steps, until the execution's time budget is used (the limit is 6 minutes; what is left
 * goes on at the next hourly run). Steps release the document lock between them, so an open
 * sidebar stepping the same job interleaves with the trigger; each step re-reads the job, so no row
 * is written or billed twice.
 */
import { resumeAfterQuota } from '../bulk/runs';
import type { Context } from '../context/context';
import { isPropertiesQuota } from '../context/store-quota';
import type { RunOwners } from './owner';
import { loadSchedules } from './schedules';
import { startDue } from './start';
import { stepScheduled, stepSidebarRun } from './step';

/** Time the trigger spends on jobs (of its 6 minutes; keeping answers comes first). */
const BACKGROUND_MS = 270000;
/** One background step holds the lock at most about this long (a sidebar step waits up to 30 s). */
const STEP_MS = 15000;

/**
 * The hourly trigger's work on jobs: what came due starts (schedules, owners' own work), then everything running goes
 * on (`owners`: owners.ts).
 */
export function background(ctx: Context, owners: RunOwners, budgetMs = BACKGROUND_MS): void {
  startDue(ctx);
  for (const owner of Object.values(owners)) owner.due?.(ctx);
  continueJobs(ctx, owners, budgetMs);
}

/** Continues every running job until the budget is used; the sidebar's first, then schedules' in order. */
function continueJobs(ctx: Context, owners: RunOwners, budgetMs: number): void {
  const until = ctx.now() + budgetMs;
  const slots = [undefined, ...loadSchedules(ctx.props).map((s) => s.id)];
  for (const slot of slots) {
    try {
      let job = resumeAfterQuota(ctx, slot);
      while (job?.status === 'running' && ctx.now() < until) {
        const budget = Math.min(STEP_MS, until - ctx.now());
        job = slot ? stepScheduled(ctx, owners, slot, job.id, budget) : stepSidebarRun(ctx, owners, job.id, budget);
      }
    } catch (e) {
      if (isPropertiesQuota(e)) throw e; // no job can be read or saved now: the hour's work waits (gas/quota-pause.ts)
      console.warn(e); // a job replaced meanwhile, a busy lock: the others go on; this one at the next hour
    }
  }
}
