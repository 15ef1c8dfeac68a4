/**
 * What the row and history steps share: which targets the store holds, cutting a unit of work
 * (up to 50 targets not answered yet, within the run's credit cap), fetching it into the job's
 * counts, and stopping a run at its cap before it is passed.
 */
import type { Call, EndpointDef } from '@igdata/core';
import { baseUrlOf, estimateCost } from '@igdata/core';
import type { FetchRun } from '../engine/fetch';
import { fetchMany } from '../engine/fetch';
import type { EngineDeps } from '../engine/ports';
import type { BulkJob } from './job';
import { fromEarlierRuns, waitingRows } from './job';
import type { TargetRow } from './targets';

/** Distinct targets not in the store that one unit fetches (one full fetchAll). */
export const UNIT_TARGETS = 50;

type UnitRow = TargetRow;

/** The targets of `rows` the store already holds (one read): the step's units fetch only the others. */
export function storedTargets(rows: UnitRow[], d: EngineDeps): Set<string> {
  const baseUrl = baseUrlOf(d.client.config);
  const keys = [...new Set(rows.flatMap((r) => (r.kind === 'call' ? [r.key] : [])))];
  const stored = d.store.getMany(keys.map((k) => d.store.keyFor(baseUrl, k)));
  return new Set(keys.filter((k) => stored.has(d.store.keyFor(baseUrl, k))));
}

/** Fetches a unit (store first), adds it to the job's counts and marks its targets answered. */
export function fetchUnit(job: BulkJob, unit: Map<string, Call>, d: EngineDeps, answered: Set<string>): FetchRun {
  const run = fetchMany(unit, d, { deadline: Number.MAX_SAFE_INTEGER, refresh: false });
  job.credits += run.stats.credits;
  job.requests += run.stats.requests;
  job.cached += fromEarlierRuns(job, [...run.outcomes.values()].flatMap((o) => (o.kind !== 'late' && o.cached ? [o.fetchedAt] : [])));
  for (const [k, o] of run.outcomes) if (o.kind !== 'late') answered.add(k);
  return run;
}

/** New targets the cap leaves room for (each costing the endpoint's estimate); unlimited without a cap. */
export function capRoom(job: BulkJob, endpoint: EndpointDef, params: Record<string, unknown>): number {
  const each = estimateCost(endpoint, params as never).credits;
  return job.cap === undefined || each <= 0 ? Infinity : Math.max(0, Math.floor((job.cap - job.credits) / each));
}

/**
 * Rows from `i` while the unit holds at most 50 targets not answered yet and no more than the cap
 * allows; `capped` when the cap, not the window or the batch size, ended it.
 */
export function cutUnit(rows: UnitRow[], i: number, n: number, answered: Set<string>, room: number): { unit: Map<string, Call>; end: number; capped: boolean } {
  const unit = new Map<string, Call>();
  const fresh = new Set<string>();
  let end = i;
  for (; end < n; end++) {
    const r = rows[end];
    if (r.kind !== 'call') continue;
    const key = r.key;
    if (!answered.has(key) && !fresh.has(key)) {
      if (fresh.size >= UNIT_TARGETS) break;
      if (fresh.size >= room) return { unit, end, capped: true };
      fresh.add(key);
    }
    unit.set(key, r.call);
  }
  return { unit, end, capped: false };
}

/** Pauses the run at its cap: what it spent, which rows wait and where a schedule's next run starts. */
export function stopAtCap(job: BulkJob): void {
  job.status = 'paused';
  const waiting = `${job.rows - job.next} rows were not looked up (${waitingRows(job)})`;
  const next = job.slot ? `; the next run starts with them, so every row is refreshed in turn` : '';
  job.message = `Stopped at this run's cap of ${job.cap} credits (${job.credits} spent): ${waiting}${next}.`;
}
