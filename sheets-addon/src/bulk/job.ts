/**
 * A bulk run's state, kept in one small document property so it survives the sidebar closing, an
 * error or a timeout. Each step reads the next rows, skips rows whose output is already filled,
 * fetches (store first), writes, and only then advances `next`: a resume never writes a row twice
 * nor bills a done row again. Three kinds: `rows` (one row out per row in, beside the column or in
 * a new sheet), `list` (many rows per target, appended to a new sheet), `history` (one dated row
 * per distinct target, appended to a history sheet).
 */
import { counted, getEndpoint, noun } from '@igdata/core';
import type { Lost } from '../engine/walk';
import { readJson } from '../engine/json';
import type { PropertyStore } from '../context/context';
import { PROP } from '../context/property-names';

/** Where a job reads and writes (a schedule keeps one for all its runs). */
export interface JobPlace {
  /** Source: sheet name, first row and column, row count (one column). */
  sheet: string;
  row: number;
  col: number;
  rows: number;
  /** Output: sheet and the column of the first field; row r of the source goes to outRow + r. */
  outSheet: string;
  outRow: number;
  outCol: number;
}

interface JobBase extends JobPlace {
  id: string;
  endpoint: string;
  params: Record<string, unknown>;
  fields: string[];
  /**
   * Index (0-based) of the next source row to process, counted from `offset`: the run handles the
   * rows `offset` .. last, then 0 .. `offset` - 1 (see `physical`).
   */
  next: number;
  /**
   * A scheduled run continuing where the last one stopped (its cap, an empty balance): the source
   * row it starts at, so every row is looked up within ceil(rows / rows per run) runs. Absent: 0.
   */
  offset?: number;
  /** Rows written with a value or a message; rows skipped because already written. */
  written: number;
  skipped: number;
  credits: number;
  /** HTTP requests this run sent (counted by the HTTP adapter, retries included). */
  requests: number;
  /** Answers read from the store that were fetched before this run started (not this run's own). */
  cached: number;
  /** Lookups sent again after a lost answer, and what the lost sends may have cost (engine/fetch.ts). Absent: none. */
  lost?: Lost;
  status: 'running' | 'paused' | 'cancelled' | 'done';
  /** Rows written with a message instead of values (errors), for the run's report. */
  errors?: number;
  /** A scheduled run: its schedule's id (its own property); absent = the sidebar's run. */
  slot?: string;
  /** Credits this run may spend at most: the step stops before a unit would pass it. */
  cap?: number;
  /**
   * A scheduled run's reuse limit (half its period): answers older are fetched again. Absent: the freshness setting
   * alone.
   */
  maxAgeMs?: number;
  message?: string;
  /** The service's reference page for the error that paused it (core's docsOf): the sidebar links it after message. */
  docs?: string;
  /**
   * Paused at a platform's daily quota (Google's URL Fetch calls a day): what was reached (the IgQuotaError's words),
   * and once the step saw it, when the run goes on by itself (epoch ms: the hourly trigger resumes it from then).
   */
  quota?: string;
  resumeAt?: number;
  startedAt: string;
  /** When its last step started (epoch ms): a gap of hours is a pause the run crossed (`dates`, `stalled`). */
  stepAt?: number;
  /**
   * A run that crossed a pause (a quota, hourly runs Google did not run): the date each part of it was fetched on, the
   * start first (ISO). A history row carries its part's date, so a chart never moves a value in time. Absent: one date,
   * the start.
   */
  dates?: string[];
  /**
   * What its credits are recorded under in Usage (a tracker's name); absent: "Run" or "Scheduled run" + start +
   * function.
   */
  label?: string;
}

/** One output row per source row, at the same offset: beside the column, or in a new sheet. */
export interface RowsJob extends JobBase {
  kind: 'rows';
  /** New-sheet output: the target is copied to column A of each written row. */
  copyTargets: boolean;
  /** Rewrites the rows (a scheduled refresh of its own columns) instead of skipping filled ones. */
  overwrite?: boolean;
  /** Also writes each written row's outcome as data (outcome.ts) from this column of the output sheet. */
  outcomeCol?: number;
  /** Cells of each outcome there: OUTCOME_WIDTH; absent, 3 (a vet started before the first charge was kept). */
  outcomeWidth?: number;
}

/** A write in progress, saved before the rows are written (append.ts). */
export interface PendingWrite {
  at: number;
  rows: number;
  next: number;
  written: number;
  items: number;
  duplicates: number;
  errors?: number;
  /** Its first row's first two cells (finishPending knows the write as its own by them). */
  first?: string;
}

/** Runs that append rows to their output sheet, each distinct target once. */
interface Appending {
  /** The next free output row. */
  outNext: number;
  /** Rows appended (items and messages); source rows skipped as repeats of an earlier target. */
  items: number;
  duplicates: number;
  /**
   * A write in progress. If the execution dies between saving it and recording it, the next step
   * looks at row `at`: filled = the write happened (record it), empty = it did not (drop it; the
   * answers are stored, so fetching them again is free).
   */
  pending?: PendingWrite;
}

/** A list endpoint: one row per item, the target in column A, into a new sheet. */
export interface ListJob extends JobBase, Appending {
  kind: 'list';
  /** Items per target; absent = the first page. */
  limit?: number;
}

/** One dated row per distinct target appended to a history sheet. */
export interface HistoryJob extends JobBase, Appending {
  kind: 'history';
}

export type BulkJob = RowsJob | ListJob | HistoryJob;

/** The property of a job: the sidebar's run, or a schedule's (`slot` = the schedule's id). */
const jobProp = (slot?: string): string => (slot ? `${PROP.job}:${slot}` : PROP.job);

/** A job saved before jobs had a kind (two booleans told list and history runs apart). */
function withKind(job: Record<string, unknown>): BulkJob {
  if (job.kind) return job as unknown as BulkJob;
  const { list, history, ...rest } = job;
  return { ...rest, kind: list ? 'list' : history ? 'history' : 'rows' } as unknown as BulkJob;
}

/** The job stored in the document's properties. */
export interface JobStore {
  load(slot?: string): BulkJob | null;
  save(job: BulkJob): void;
  delete(slot: string): void;
}

export const jobStore = (props: PropertyStore): JobStore => ({
  load(slot) {
    const job = readJson(props.get(jobProp(slot)));
    return job && typeof job === 'object' ? withKind(job as Record<string, unknown>) : null;
  },
  save: (job) => props.set(jobProp(job.slot), JSON.stringify(job)),
  delete: (slot) => props.delete(jobProp(slot)),
});

/** The source row (0-based, from the job's first) of the run's `i`-th row. */
export const physical = (job: Pick<BulkJob, 'rows' | 'offset'>, i: number): number =>
  job.rows ? (i + (job.offset ?? 0)) % job.rows : 0;

/**
 * Rows a step handles from the run's current row: at most `max`, and only to the run's end on one
 * side of the wrap (a step reads them in one range).
 */
export const windowSize = (job: BulkJob, max: number): number =>
  Math.min(max, job.rows - job.next, job.rows - physical(job, job.next));

/**
 * The rows a stopped run did not reach, in sheet row numbers and run order: "rows 27-61" or, past
 * the wrap, "rows 52-61 and 2-16".
 */
export function waitingRows(job: Pick<BulkJob, 'rows' | 'offset' | 'next' | 'row'>): string {
  const parts: string[] = [];
  let i = job.next;
  while (i < job.rows) {
    const first = physical(job, i);
    const len = Math.min(job.rows - i, job.rows - first);
    const from = job.row + first;
    parts.push(len === 1 ? `${from}` : `${from}-${from + len - 1}`);
    i += len;
  }
  return `${noun(job.rows - job.next, 'row')} ${parts.join(' and ')}`;
}

/**
 * Adds a fetch to the job's counts. `fetchedAt`: when the answers it read from the store were
 * fetched; those fetched before the run started count as cached (not this run's own).
 */
export function countFetch(job: BulkJob, credits: number, requests: number, fetchedAt: number[], lost: Lost): void {
  if (lost.lookups)
    job.lost = { lookups: (job.lost?.lookups ?? 0) + lost.lookups, credits: (job.lost?.credits ?? 0) + lost.credits };
  job.credits += credits;
  job.requests += requests;
  const start = Date.parse(job.startedAt);
  job.cached += fetchedAt.filter((at) => at < start).length;
}

/** Pauses a job with why (saving it is the caller's). */
export function pauseJob<J extends BulkJob>(job: J, message: string, docs?: string): J {
  job.status = 'paused';
  job.message = message;
  if (docs) job.docs = docs;
  else delete job.docs;
  return job;
}

/** Sets a paused or cancelled job going again, forgetting why it stopped (saving it is the caller's). */
export function unpause(job: BulkJob): void {
  job.status = 'running';
  delete job.message;
  delete job.docs;
  delete job.quota;
  delete job.resumeAt;
}

/**
 * A daily quota frees up within 24 hours of being reached (Google: "reset 24 hours after the first request"): how long
 * work that met it waits (bulk runs, schedules, watches).
 */
export const QUOTA_WAIT_MS = 24 * 3600 * 1000;

/**
 * A job a step paused at a daily quota (`quota` set, no `resumeAt` yet): it waits until the quota has surely freed
 * up, saying which limit, what waits and when it goes on. Nothing was sent for the rows waiting: nothing charged.
 */
export function waitForQuota(job: BulkJob, now: number, showTime: (t: number) => string): boolean {
  if (job.status !== 'paused' || !job.quota || job.resumeAt !== undefined) return false;
  job.resumeAt = now + QUOTA_WAIT_MS;
  job.message =
    `${job.quota} (${showTime(now)}): ${waitingRows(job)} wait, not sent and not charged. ` +
    `The run goes on by itself at the first hourly run after ${showTime(job.resumeAt)}, when the limit has freed up.`;
  return true;
}

/** Whether a job waits for a daily quota to free up (the hourly trigger resumes it; a schedule does not start anew). */
export const waitsForQuota = (job: BulkJob | null): boolean => job?.status === 'paused' && job.resumeAt !== undefined;

/**
 * A step this long after the run's last one crossed a pause (hourly runs come about every hour; a run the sidebar
 * steps, every few seconds): what it fetches from here on is dated now.
 */
const PAUSE_GAP_MS = 2 * 3600 * 1000;

/**
 * Records a step starting at `now` (saving the job is the step's): after a pause, a new date for the rows it fetches
 * from here on (a run whose first step came hours after its start: that date alone).
 */
export function markStep(job: BulkJob, now: number): void {
  const last = job.stepAt ?? Date.parse(job.startedAt);
  if (now - last > PAUSE_GAP_MS) {
    const at = new Date(now).toISOString();
    job.dates = job.stepAt === undefined ? [at] : [...(job.dates ?? [job.startedAt]), at];
  }
  job.stepAt = now;
}

/** The date a step's history rows carry: the run's start, or where it went on after its last pause. */
export const rowDate = (job: BulkJob): Date => new Date(job.dates ? job.dates[job.dates.length - 1] : job.startedAt);

/**
 * A running job no step has moved for hours, though the hourly trigger steps a background run every hour: Google did
 * not run the trigger. The likely cause is its daily limit of trigger runtime (90 minutes a day, 6 hours with Google
 * Workspace, shared with the user's other scripts; once used, Google runs no trigger until it frees up): the job as the
 * sidebar shows it, saying so. The run is not changed: it goes on at the next hourly run Google allows.
 */
export function stalled<J extends BulkJob>(job: J, now: number, showTime: (t: number) => string): J {
  const last = job.stepAt ?? Date.parse(job.startedAt);
  if (job.status !== 'running' || !(now - last > PAUSE_GAP_MS)) return job; // (no time known: not said)
  return {
    ...job,
    message:
      `The hourly run has not come since ${showTime(last)}: Google's daily limit of trigger runtime for this ` +
      'account (90 minutes, 6 hours with Google Workspace, shared with your other scripts) is probably used up. ' +
      `${waitingRows(job)} wait, not sent and not charged. The run goes on by itself at the first hourly run Google ` +
      `allows again: the limit frees up 24 hours after the time was spent, by ${showTime(last + QUOTA_WAIT_MS)} ` +
      'unless other scripts spend it again. Keeping this sidebar open goes on now.',
  };
}

/**
 * Why a Resume is refused while the job waits out a daily quota: it would meet the quota again and wait another day.
 * Null when it may go on.
 */
export function resumeRefused(job: BulkJob, now: number, showTime: (t: number) => string): string | null {
  if (!waitsForQuota(job) || (job.resumeAt as number) <= now) return null;
  return (
    `Not resumed: ${job.quota ?? "Google's daily limit for this account is reached"}, until ` +
    `${showTime(job.resumeAt as number)}. Resuming now would meet it again, send nothing and wait another day. The ` +
    'run goes on by itself at the first hourly run after then. (Not charged.)'
  );
}

/**
 * Refuses to replace the document's bulk run while it is running or paused, unless `replace` says
 * the user confirmed it.
 */
export function refuseReplacing(props: PropertyStore, replace: boolean): void {
  const current = jobStore(props).load();
  if (!replace && current && (current.status === 'running' || current.status === 'paused')) {
    throw new Error(
      `Another bulk run is ${current.status === 'paused' ? 'paused' : 'still running'} at ` +
        `${current.next} of ${counted(current.rows, 'row')} ` +
        `(${getEndpoint(current.endpoint).fn}, ${current.outSheet}): ` +
        'resume or cancel it first, or confirm to start this one in its place ' +
        `(its ${waitingRows(current)} would not be looked up). Nothing was started. (Not charged.)`,
    );
  }
}
