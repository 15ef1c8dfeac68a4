/** Stepping a schedule's run, from the trigger, Run now in the sidebar, or its owner's sidebar. */
import type { BulkJob } from '../bulk/job';
import { step } from '../bulk/runs';
import type { RunContext } from '../run/ports';
import type { RunOwners } from './owner';
import { findSchedule } from './schedules';

/**
 * One step of the run `jobId` of schedule `scheduleId`; when the run leaves `running`, its
 * schedule's owner hears of it (the only place an owner's afterRun is called).
 */
export function stepScheduled(ctx: RunContext, owners: RunOwners, scheduleId: string, jobId: string, budgetMs?: number): BulkJob {
  const job = step(ctx, jobId, budgetMs, scheduleId);
  if (job.status !== 'running') afterRun(ctx, owners, scheduleId);
  return job;
}

function afterRun(ctx: RunContext, owners: RunOwners, scheduleId: string): void {
  const owner = findSchedule(ctx.props, scheduleId)?.owner;
  if (owner) owners[owner.kind]?.afterRun?.(ctx, owner.id);
}
