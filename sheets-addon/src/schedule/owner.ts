/**
 * Who a schedule belongs to, and what its owner does when one of its runs ends. A schedule made by
 * the user alone has no owner; one made as part of something bigger (a tracker's history
 * schedules) carries `owner`, saved with it, so nothing is recovered from its usage label.
 *
 * How an owner plugs in:
 * 1. its schedules are saved with `owner: { kind, id, name }` (kind: a word of its own, like
 *    'tracker'; id: its own id; name: what the sidebar calls it). Schedules with an owner are
 *    deleted with their owner, not alone;
 * 2. it exports a `ScheduleOwner` (its hooks) and adds it under its kind to OWNERS in
 *    `sheets-addon/src/owners.ts`, the one table the trigger and the sidebar pass down;
 * 3. its runs are stepped through `stepScheduled` (schedule/step.ts), the one place that calls
 *    `afterRun` once a run of one of its schedules ended.
 * schedule/ never imports an owner's module: owners import schedule/, and the table is put
 * together above both.
 */
import type { RunContext } from '../run/ports';

/** An owner as a schedule stores it. */
export interface OwnerRef {
  kind: string;
  id: string;
  /** What the sidebar calls the owner (its messages say "the <kind> "<name>""). */
  name?: string;
}

/** An owner's hooks. */
export interface ScheduleOwner {
  /** Called once a run of one of its schedules ended (done or paused), under no lock. */
  afterRun(ctx: RunContext, ownerId: string): void;
}

/** The owners' hooks by kind. */
export type ScheduleOwners = Readonly<Record<string, ScheduleOwner>>;

/** How messages name an owner: `the tracker "Weekly"`. */
export const ownerTitle = (o: OwnerRef): string => (o.name ? `the ${o.kind} "${o.name}"` : `a ${o.kind}`);
