/**
 * What every kind of bulk step shares: its one argument (the job and everything it works with),
 * the loop over units of work, and the one row loop that decides what each row of a unit became
 * once the unit was fetched (the kinds differ only in the rows they write for it).
 */
import type { AnyIgError, Call } from '@igdata/core';
import { docsOf, isQuotaError, stopsBulkRun } from '@igdata/core';
import { messageOf } from '../engine/messages';
import type { EngineDeps } from '../engine/deps';
import type { Grid } from '../context/context';
import type { BulkJob } from './job';
import { pauseJob } from './job';
import type { BulkPlanned, TargetRow } from './targets';

/**
 * One step of a job of kind J: everything it reads, writes and spends (its calls: the job's endpoint, target parameter
 * and params).
 */
export interface Step<J extends BulkJob = BulkJob> extends BulkPlanned {
  job: J;
  src: Grid;
  out: Grid;
  deps: EngineDeps;
  /** Saves the job (after rows are written; before, for an announced append). */
  save(job: J): void;
  /** When the step started, and how long it may fetch before reporting progress (epoch ms, ms). */
  started: number;
  budgetMs: number;
}

/** The end of every step: done when the pointer passed the last row; the state saved either way. */
export function endStep<J extends BulkJob>(s: Step<J>): J {
  if (s.job.status === 'running' && s.job.next >= s.job.rows) s.job.status = 'done';
  s.save(s.job);
  return s.job;
}

/**
 * Runs a step's units of work from row 0 of its window: each unit handles rows from `from` and
 * says where it stopped and where its rows ended; a unit that stopped short, the window's end, the
 * job leaving `running` or the step's time budget ends the step.
 */
export function eachUnit(s: Step, rows: number, unit: (from: number) => { stopAt: number; end: number }): void {
  let i = 0;
  while (i < rows && s.job.status === 'running') {
    if (i > 0 && s.deps.now() - s.started > s.budgetMs) break;
    const { stopAt, end } = unit(i);
    i = stopAt;
    if (stopAt < end) break;
  }
}

/** What a unit's fetch gave a target: not reached in time, or its answer and/or the error that ended it. */
export type Answer<A> = { late: true } | { late?: false; value?: A; error?: AnyIgError; failedCall?: Call };

/**
 * What one row of a unit became: a row that needs no fetch as it was planned (a blank target, an
 * output already written, a repeat of an earlier target, a bad target), or a call's answer.
 */
export type RowOutcome<A> =
  | Exclude<TargetRow, { kind: 'call' }>
  | { kind: 'answer'; row: Extract<TargetRow, { kind: 'call' }>; value?: A; error?: AnyIgError; failedCall?: Call };

/**
 * A row outcome that writes cells: a bad target (its message) or an answer; blanks, repeats and filled rows write none.
 */
export const writesCells = <T extends { kind: string }>(x: T): x is Extract<T, { kind: 'invalid' | 'answer' }> =>
  x.kind === 'invalid' || x.kind === 'answer';

/**
 * The one row loop: the rows from..end of a unit, in order. It stops before a row whose target was
 * not reached in time, or whose error stops the whole run (a bad key, an empty balance: the job is
 * paused with the error's sentence; a daily quota: it waits for the quota, job.ts waitForQuota). Returns what each
 * row before the stop became, and the stop.
 */
export function rowOutcomes<A>(
  job: BulkJob,
  rows: TargetRow[],
  from: number,
  end: number,
  answerOf: (row: Extract<TargetRow, { kind: 'call' }>) => Answer<A>,
): { outcomes: RowOutcome<A>[]; stopAt: number } {
  const outcomes: RowOutcome<A>[] = [];
  for (let r = from; r < end; r++) {
    const row = rows[r];
    if (row.kind !== 'call') outcomes.push(row);
    else {
      const a = answerOf(row);
      if (a.late) return { outcomes, stopAt: r };
      if (a.error && stopsBulkRun(a.error)) {
        pauseJob(job, messageOf(a.error, a.failedCall ?? row.call), docsOf(a.error));
        if (isQuotaError(a.error)) job.quota = a.error.message; // the step says when it goes on (runs.ts)
        return { outcomes, stopAt: r };
      }
      outcomes.push({ ...a, kind: 'answer', row });
    }
  }
  return { outcomes, stopAt: end };
}
