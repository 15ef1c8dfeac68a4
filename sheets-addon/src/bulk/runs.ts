/**
 * The public surface of bulk runs for the modules that own runs of their own (schedule/, tracker/,
 * and any later owner): prepare a run's output, make a run, step it. The step machinery behind
 * (step.ts, the *-step.ts kinds, unit.ts, targets.ts, append.ts) and the sidebar's own run
 * (control.ts) stay inside bulk/: `.dependency-cruiser.cjs` fails on a reach past this file.
 */
import { getEndpoint } from '@igdata/core';
import { targetParam } from '../engine/layout';
import { keeping } from '../context/answers';
import type { Book, Rect, Context } from '../context/context';
import type { ReuseRule } from '../context/reuse';
import { settingRule } from '../context/reuse';
import { recordUsage } from '../context/usage-log';
import { historySheet, newOutputSheet, outputLabel } from './grid';
import type { BulkJob, JobPlace } from './job';
import { jobStore, markStep, pauseJob, unpause, waitForQuota, waitsForQuota } from './job';
import { stepHistory } from './history-step';
import { stepList } from './list-step';
import type { BulkPlan, BulkRequest } from './plan';
import { stepRows } from './row-step';
import type { Step } from './step';

/** Time one step may spend fetching before it reports progress (the limit is 6 minutes). */
const STEP_BUDGET_MS = 3000;

/** Where a job writes, and for appending jobs the first free row. */
export type OutputPlace = JobPlace & { outNext?: number };

/**
 * Prepares the output of a run on `range` (writes the header; fetches nothing): a new sheet, the
 * history sheet of the lookup ("IG Data history <fn>"; with `own`, a new "IG Data history <own>" of
 * its own, numbered when taken), or the empty columns beside (refused when not empty).
 */
export function placeOutput(
  book: Book,
  range: Rect,
  p: BulkPlan,
  output: BulkRequest['output'],
  own?: string,
): OutputPlace {
  const at = { sheet: range.sheet, row: range.row, col: range.col, rows: range.rows };
  if (output === 'history') {
    const h = historySheet(book, own ?? p.endpoint.fn, ['date', p.targetName, ...p.fields], own !== undefined);
    return { ...at, outSheet: h.name, outRow: 2, outCol: 3, outNext: h.next };
  }
  if (output === 'sheet') {
    // Row r of the source goes to row r + 2 (list rows are added as they come).
    const name = newOutputSheet(book, p.endpoint.fn, [p.targetName, ...p.fields], p.list ? 0 : range.rows + 1);
    return { ...at, outSheet: name, outRow: 2, outCol: 2, outNext: p.list ? 2 : undefined };
  }
  // Beside: the empty columns right of the source (refused when not empty), the header above.
  outputLabel(book, range, p.fields.length, output, true);
  if (range.row > 1) book.sheet(range.sheet)!.write(range.row - 1, range.col + 1, [p.fields]);
  return { ...at, outSheet: range.sheet, outRow: range.row, outCol: range.col + 1 };
}

/** A new job (not saved) writing to `place`. */
export function newJob(
  ctx: Pick<Context, 'newId' | 'now'>,
  p: BulkPlan,
  place: OutputPlace,
  output: BulkRequest['output'],
): BulkJob {
  const { outNext, ...where } = place;
  const base = {
    ...where,
    id: ctx.newId(),
    endpoint: p.endpoint.id,
    params: p.params,
    fields: p.fields,
    next: 0,
    written: 0,
    skipped: 0,
    credits: 0,
    requests: 0,
    cached: 0,
    errors: 0,
    status: 'running' as const,
    startedAt: new Date(ctx.now()).toISOString(),
  };
  // List and history rows are appended from the first free row: the target then the fields.
  const appending = { outNext: outNext ?? 2, items: 0, duplicates: 0 };
  if (p.list) return { ...base, ...appending, kind: 'list', ...(p.limit !== undefined ? { limit: p.limit } : {}) };
  if (output === 'history') return { ...base, ...appending, kind: 'history' };
  return { ...base, kind: 'rows', copyTargets: output === 'sheet' };
}

/** The step of each kind of job. */
const STEPS: { [K in BulkJob['kind']]: (s: Step<Extract<BulkJob, { kind: K }>>) => BulkJob } = {
  rows: stepRows,
  list: stepList,
  history: stepHistory,
};
const takeStep = (s: Step): BulkJob => STEPS[s.job.kind](s as never);

/** Pauses a job that cannot go on, with why. */
function pause(ctx: Context, job: BulkJob, message: string): BulkJob {
  jobStore(ctx.props).save(pauseJob(job, message));
  return job;
}

/**
 * A finished history run that crossed a pause says so: its snapshot's rows carry the dates they were fetched on.
 * Whether it set that message.
 */
function datesSaid(ctx: Context, job: BulkJob): boolean {
  const dates = job.dates ?? [];
  if (job.kind !== 'history' || job.status !== 'done' || dates.length < 2 || job.message) return false;
  job.message =
    `Its rows are dated when their values were fetched: the run waited on the way, so this snapshot has ` +
    `${dates.length} dates (${dates.map((d) => ctx.book.formatTime(Date.parse(d))).join(', ')}).`;
  return true;
}

/** The reuse rule of a job's steps: the setting, and a scheduled run's own limit. */
const jobRule = (ctx: Context, job: BulkJob): ReuseRule =>
  job.maxAgeMs === undefined ? settingRule(ctx.settings) : { ...settingRule(ctx.settings), runLimitMs: job.maxAgeMs };

/** One step: rows from `next` until the window ends or the step's time budget is used. */
export function step(ctx: Context, jobId: string, budgetMs = STEP_BUDGET_MS, slot?: string): BulkJob {
  return ctx.lock.withLock(() => {
    const jobs = jobStore(ctx.props);
    const job = jobs.load(slot);
    if (!job || job.id !== jobId) throw new Error('This bulk run was replaced by another one.');
    if (job.status !== 'running') return job;
    const started = ctx.now();
    markStep(job, started);
    const endpoint = getEndpoint(job.endpoint);
    const src = ctx.book.sheet(job.sheet);
    const out = ctx.book.sheet(job.outSheet);
    if (!src || !out)
      return pause(ctx, job, `The sheet "${!src ? job.sheet : job.outSheet}" is gone; start a new run.`);
    if (job.row + job.rows - 1 > src.maxRows()) {
      return pause(
        ctx,
        job,
        `The targets go past the last row of "${job.sheet}" (were rows ` +
          `deleted?). Select the column again and start a new run.`,
      );
    }
    // Its answers are kept in the hidden sheet too (engine/keep.ts), written at the step's end.
    const before = { credits: job.credits, lost: job.lost ?? { lookups: 0, credits: 0 } };
    const after = keeping(ctx, jobRule(ctx, job), (a) =>
      takeStep({
        job,
        endpoint,
        targetName: targetParam(endpoint)!.name,
        params: job.params,
        src,
        out,
        deps: a.deps,
        save: jobs.save,
        started,
        budgetMs,
      }),
    );
    if (waitForQuota(after, ctx.now(), (t) => ctx.book.formatTime(t)) || datesSaid(ctx, after)) jobs.save(after);
    const lost = after.lost ?? before.lost;
    recordUsage(
      ctx,
      job.label ?? `${job.slot ? 'Scheduled run' : 'Run'} ${job.startedAt.slice(0, 16)} ${endpoint.fn}`,
      after.credits - before.credits,
      {
        lookups: lost.lookups - before.lost.lookups,
        credits: lost.credits - before.lost.credits,
      },
    );
    return after;
  });
}

/**
 * The job of `slot` going again if it waited for a daily quota that has freed up by now (the hourly trigger, before it
 * steps the job); the job as it is now.
 */
export function resumeAfterQuota(ctx: Context, slot?: string): BulkJob | null {
  const jobs = jobStore(ctx.props);
  const job = jobs.load(slot);
  if (!job || !waitsForQuota(job) || (job.resumeAt as number) > ctx.now()) return job;
  return ctx.lock.withLock(() => {
    const now = jobs.load(slot);
    if (!now || now.id !== job.id || !waitsForQuota(now)) return now;
    unpause(now);
    jobs.save(now);
    return now;
  });
}
