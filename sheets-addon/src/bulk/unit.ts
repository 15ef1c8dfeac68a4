/**
 * What the row and history steps share: which targets the store holds, and one unit of work (up
 * to 50 targets not answered yet, within the run's credit cap) cut, fetched into the job's counts
 * and turned into the cells written for each row, stopping a run at its cap before it is passed.
 */
import type { Call, ZoneOffset } from '@igdata/core';
import { baseUrlOf, counted, errorCode, estimateCost } from '@igdata/core';
import type { CallOutcome } from '../engine/fetch';
import { fetchMany } from '../engine/fetch';
import { messageOf } from '../engine/messages';
import type { EngineDeps } from '../engine/deps';
import { uniqueCalls } from '../engine/rows';
import type { SheetValue } from '../engine/values';
import { cellsOf, failedCells } from '../engine/values';
import type { BulkJob } from './job';
import type { Failure } from './outcome';
import { countFetch, pauseJob, waitingRows } from './job';
import type { RowOutcome, Step } from './step';
import { eachUnit, rowOutcomes } from './step';
import type { TargetRow } from './targets';

/** Distinct targets not in the store that one unit fetches (one full fetchAll). */
export const UNIT_TARGETS = 50;

/** What a row of a rows or history unit became (its answer: the fetch's value). */
type UnitOutcome = RowOutcome<Extract<CallOutcome, { kind: 'ok' }>['value']>;

/** The targets of `rows` the store already holds (one read): the step's units fetch only the others. */
function storedTargets(rows: TargetRow[], d: EngineDeps): Set<string> {
  const baseUrl = baseUrlOf(d.client.config);
  const keys = [...uniqueCalls(rows).keys()];
  const storeKeys = keys.map((k) => d.store.keyFor(baseUrl, k));
  const stored = d.store.getMany(storeKeys);
  return new Set(keys.filter((_, i) => stored.has(storeKeys[i])));
}

/** New targets the cap leaves room for (each costing the endpoint's estimate); unlimited without a cap. */
function capRoom(job: BulkJob, each: number): number {
  return job.cap === undefined || each <= 0 ? Infinity : Math.max(0, Math.floor((job.cap - job.credits) / each));
}

/**
 * Rows from `i` while the unit holds at most 50 targets not answered yet and no more than the cap
 * allows; `capped` when the cap, not the window or the batch size, ended it.
 */
function cutUnit(
  rows: TargetRow[],
  i: number,
  n: number,
  answered: Set<string>,
  room: number,
): { unit: Map<string, Call>; end: number; capped: boolean } {
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
function stopAtCap(job: BulkJob): void {
  const left = job.rows - job.next;
  const waiting = `${counted(left, 'row')} ${left === 1 ? 'was' : 'were'} not looked up (${waitingRows(job)})`;
  const next = job.slot ? `; the next run starts with them, so every row is refreshed in turn` : '';
  pauseJob(
    job,
    `Stopped at this run's cap of ${counted(job.cap ?? 0, 'credit')} (${job.credits} spent): ${waiting}${next}.`,
  );
}

/**
 * The units of a rows or history step over the window `rows`, each cut from row `i`, fetched
 * (store first) and decided row by row; `write` writes what its rows became and advances the job. A unit
 * the cap ended pauses the run after it is written.
 */
export function fetchUnits(
  s: Step,
  rows: TargetRow[],
  write: (i: number, outcomes: UnitOutcome[], stopAt: number) => void,
): void {
  // Targets answered already (in the store, or fetched by an earlier unit of this step).
  const answered = storedTargets(rows, s.deps);
  eachUnit(s, rows.length, (i) => fetchUnit(s, rows, i, answered, write));
}

function fetchUnit(
  s: Step,
  rows: TargetRow[],
  i: number,
  answered: Set<string>,
  write: (i: number, outcomes: UnitOutcome[], stopAt: number) => void,
): { stopAt: number; end: number } {
  const { job, deps: d } = s;
  const n = rows.length;
  const { unit, end, capped } = cutUnit(
    rows,
    i,
    n,
    answered,
    capRoom(job, estimateCost(s.endpoint, job.params as never).credits),
  );
  // With claims: a formula recalculating meanwhile waits for this unit's answers instead of paying
  // for them again (the step holds the lock its claim round would take), and the other way round.
  const run = fetchMany(unit, d, { deadline: Number.MAX_SAFE_INTEGER, refresh: false, claims: true });
  const fromStore: number[] = [];
  for (const [k, o] of run.outcomes) {
    if (o.kind === 'late') continue;
    answered.add(k);
    if (o.cached) fromStore.push(o.fetchedAt);
  }
  countFetch(job, run.stats.credits, run.stats.requests, fromStore, {
    lookups: run.stats.lostLookups,
    credits: run.stats.lostCredits,
  });
  const { outcomes, stopAt } = rowOutcomes(job, rows, i, end, (row) => {
    const o = run.outcomes.get(row.key)!;
    return o.kind === 'late' ? { late: true } : o.kind === 'ok' ? { value: o.value } : { error: o.error };
  });
  write(i, outcomes, stopAt);
  if (capped && stopAt === end && job.status === 'running') stopAtCap(job);
  return { stopAt, end };
}

/**
 * Why a row was written with a message instead of values (a bad target, or an answer that is an error); null: it
 * was not.
 */
export function failureOf(x: UnitOutcome): Failure | null {
  if (x.kind === 'invalid') return { code: x.code, charged: 0, lost: 0 };
  if (x.kind !== 'answer' || x.value) return null;
  const e = x.error!;
  return { code: errorCode(e), charged: e.charged, lost: e.lostSends, ...(e.first && { first: e.first }) };
}

export const failed = (x: UnitOutcome): boolean => failureOf(x) !== null;

/**
 * The cells written for a bad target (its message and code) or an answer (its fields, or the error's message and code).
 */
export function cellsFor(
  job: BulkJob,
  x: Extract<UnitOutcome, { kind: 'invalid' | 'answer' }>,
  zoneOffset?: ZoneOffset,
): SheetValue[] {
  if (x.kind === 'invalid') return failedCells(x.message, x.code, job.fields);
  return x.value
    ? cellsOf(x.value.data, job.fields, x.value.at)
    : failedCells(messageOf(x.error!, x.row.call, zoneOffset), errorCode(x.error!), job.fields);
}
