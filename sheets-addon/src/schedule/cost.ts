/** What a schedule's (or a tracker's) runs cost, for the sidebar's previews (nothing is saved). */
import type { Repeat } from './when';
import { describeRepeat, runsPerMonth } from './when';

/**
 * The costs of runs over `targets` targets at `each` credits a target, capped at `cap` credits a
 * run and repeated as `repeat` says: a run spends every target's credits, never more than the cap;
 * a capped run continues where the last stopped, so refreshing every target once may take several.
 */
export function runCosts(targets: number, each: number, cap: number, repeat: Repeat) {
  const uncapped = targets * each;
  const perRun = Math.min(uncapped, cap);
  const runs = runsPerMonth(repeat);
  const targetsPerRun = each > 0 ? Math.floor(cap / each) : targets;
  return {
    uncapped,
    perRun,
    runsForAll: targets ? Math.ceil(targets / targetsPerRun) : 0,
    runsPerMonth: runs,
    perMonth: Math.ceil(perRun * runs),
    when: describeRepeat(repeat),
  };
}
