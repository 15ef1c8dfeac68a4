/**
 * The owners of runs and schedules by kind, with their hooks (schedule/owner.ts says how an owner
 * plugs in). Put together here, above schedule/ and the owners, so schedule/ never imports one.
 */
import { BENCHMARK_OWNER } from './benchmark/benchmarks';
import type { RunOwners } from './schedule/owner';
import { TRACKER_OWNER } from './tracker/trackers';
import { VET_OWNER } from './vet/vet';
import { WATCH_OWNER } from './watch/watches';

export const OWNERS: RunOwners = {
  tracker: TRACKER_OWNER,
  benchmark: BENCHMARK_OWNER,
  vet: VET_OWNER,
  watch: WATCH_OWNER,
};
