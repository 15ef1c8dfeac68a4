/**
 * Stepping a schedule's run (from the trigger, Run now in the sidebar, or its owner's sidebar) and
 * the sidebar's run (from the sidebar or the trigger).
 */
import type { BulkJob } from '../bulk/job';
import { step } from '../bulk/runs';
import type { Context } from '../context/context';
import type { RunOwners } from './owner';
import { findSchedule } from './schedules';

/**
 * One step of the run `jobId` of schedule `scheduleId`; when the run leaves `running`, its
 * schedule's owner hears of it (the only place an owner's afterRun is called).
 */
export function stepScheduled(
  ctx: Context,
  owners: RunOwners,
  scheduleId: string,
  jobId: string,
  budgetMs?: number,
): BulkJob {
  const job = step(ctx, jobId, budgetMs, scheduleId);
  if (job.status !== 'running') afterRun(ctx, owners, scheduleId);
  return job;
}

function afterRun(ctx: Context, owners: RunOwners, scheduleId: string): void {
  const owner = findSchedule(ctx.props, scheduleId)?.owner;
  if (owner) owners[owner.kind]?.afterRun?.(ctx, owner.id);
}

/** One step of the sidebar's run, then its owners' hooks (a vet's next check): the job to go on with. */
export const stepSidebarRun = (ctx: Context, owners: RunOwners, jobId: string, budgetMs?: number): BulkJob =>
  Object.values(owners).reduce((j, o) => o.afterSidebarStep?.(ctx, j) ?? j, step(ctx, jobId, budgetMs));
