/**
 * Who a schedule belongs to, and what the features built on schedules and bulk runs (trackers,
 * and any later one) do when the hourly trigger runs or one of their runs ends. A schedule made by
 * the user alone has no owner; one made as part of something bigger (a tracker's history
 * schedules) carries `owner`, saved with it, so nothing is recovered from its usage label.
 *
 * How an owner plugs in:
 * 1. it exports a `RunOwner` (the hooks it needs, all optional) and adds it under its kind to
 *    OWNERS in `sheets-addon/src/owners.ts`, the one table the trigger and the sidebar pass down;
 * 2. schedules it makes are saved with `owner: { kind, id, name }` (kind: its key in OWNERS; id:
 *    its own id; name: what the sidebar calls it); such schedules are deleted with their owner,
 *    not alone, and are stepped through `stepScheduled` (schedule/step.ts), the one place that
 *    calls `afterRun` once one of their runs ended;
 * 3. work of its own the hourly trigger should do (reads that came due) goes in `due`; what it
 *    does after each background step of the sidebar's run (the run it started there) in
 *    `afterSidebarStep`.
 * schedule/ never imports an owner's module (a dependency-cruiser rule): owners import schedule/,
 * and the table is put together above both.
 */
import type { BulkJob } from '../bulk/job';
import type { Context } from '../context/context';

/** An owner as a schedule stores it. */
export interface OwnerRef {
  kind: string;
  id: string;
  /** What the sidebar calls the owner (its messages say "the <kind> "<name>""). */
  name?: string;
}

/** An owner's hooks. */
export interface RunOwner {
  /** The hourly trigger's work of its own, before the runs go on (called under no lock). */
  due?(ctx: Context): void;
  /** After each background step of the sidebar's run: the job to go on with (the one given, or one it started next). */
  afterSidebarStep?(ctx: Context, job: BulkJob): BulkJob;
  /** Once a run of one of its schedules ended (done or paused), under no lock. */
  afterRun?(ctx: Context, ownerId: string): void;
}

/** The owners' hooks by kind. */
export type RunOwners = Readonly<Record<string, RunOwner>>;

/** How messages name an owner: `the tracker "Weekly"`. */
export const ownerTitle = (o: OwnerRef): string => (o.name ? `the ${o.kind} "${o.name}"` : `a ${o.kind}`);
