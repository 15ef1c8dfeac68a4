/**
 * The owners of schedules, by the kind their schedules carry (schedule/owner.ts says how an owner
 * plugs in). Put together here, above schedule/ and the owners, so schedule/ never imports one.
 */
import type { ScheduleOwners } from './schedule/owner';
import { TRACKER_OWNER } from './tracker/trackers';

export const OWNERS: ScheduleOwners = { tracker: TRACKER_OWNER };
