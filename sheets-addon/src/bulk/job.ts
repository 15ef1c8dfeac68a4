/**
 * A bulk run's state, kept in one small document property so it survives the sidebar closing, an
 * error or a timeout. Each step reads the next rows, skips rows whose output is already filled,
 * fetches (store first), writes, and only then advances `next`: a resume never writes a row twice
 * nor bills a done row again.
 */
import { PROP, props } from '../gas/settings';

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

export interface BulkJob extends JobPlace {
  id: string;
  endpoint: string;
  params: Record<string, unknown>;
  fields: string[];
  /** New-sheet output: the target is copied to column A of each written row. */
  copyTargets: boolean;
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
  status: 'running' | 'paused' | 'cancelled' | 'done';
  /** Rows written with a message instead of values (errors), for the run's report. */
  errors?: number;
  /** A scheduled run: its schedule's id (its own property); absent = the sidebar's run. */
  slot?: string;
  /** Credits this run may spend at most: the step stops before a unit would pass it. */
  cap?: number;
  /** Beside output rewrites the rows (a scheduled refresh of its own columns) instead of skipping filled ones. */
  overwrite?: boolean;
  /** History output: one dated row per distinct target appended to `outSheet` from `outNext`. */
  history?: boolean;
  /** Answers older than this are fetched again (a scheduled run: below its period); absent = the freshness setting. */
  maxAgeMs?: number;
  message?: string;
  startedAt: string;
  /** List endpoints (new sheet only): rows are appended, one per item, the target in column A. */
  list?: boolean;
  /** Items per target; absent = the first page. */
  limit?: number;
  /** List jobs: the next free output row. */
  outNext?: number;
  /** List jobs: rows written to the output sheet (items and messages); source rows skipped as repeats of an earlier target. */
  items?: number;
  duplicates?: number;
  /**
   * List jobs: a write in progress. Saved before the rows are written and applied after; if the
   * execution dies in between, the next step looks at row `at`: filled = the write happened (apply
   * it), empty = it did not (drop it; the pages are stored, so fetching them again is free).
   */
  pending?: { at: number; rows: number; next: number; written: number; items: number; duplicates: number; errors?: number };
}

/** The source row (0-based, from the job's first) of the run's `i`-th row. */
export const physical = (job: Pick<BulkJob, 'rows' | 'offset'>, i: number): number => (job.rows ? (i + (job.offset ?? 0)) % job.rows : 0);

/** Rows from the run's current row to its end that stay on one side of the wrap (a step reads them in one range). */
export const rowsBeforeWrap = (job: Pick<BulkJob, 'rows' | 'offset' | 'next'>): number => job.rows - physical(job, job.next);

/** 0 .. n - 1. */
export const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

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
    parts.push(len === 1 ? `${job.row + first}` : `${job.row + first}-${job.row + first + len - 1}`);
    i += len;
  }
  return `${parts.length === 1 && !parts[0].includes('-') ? 'row' : 'rows'} ${parts.join(' and ')}`;
}

/** The property of a job: the sidebar's run, or a schedule's (`slot` = the schedule's id). */
const jobProp = (slot?: string): string => (slot ? `${PROP.job}:${slot}` : PROP.job);

export function loadJob(slot?: string): BulkJob | null {
  const text = props().getProperty(jobProp(slot));
  if (!text) return null;
  try {
    return JSON.parse(text) as BulkJob;
  } catch {
    return null;
  }
}

export const saveJob = (job: BulkJob): void => {
  props().setProperty(jobProp(job.slot), JSON.stringify(job));
};

export const deleteJob = (slot: string): void => {
  props().deleteProperty(jobProp(slot));
};

/** The end of every step: done when the pointer passed the last row; the state saved either way. */
export function endStep(job: BulkJob): BulkJob {
  if (job.status === 'running' && job.next >= job.rows) job.status = 'done';
  saveJob(job);
  return job;
}

/** Answers fetched before the run started, among the fetch times of answers read from the store. */
export const fromEarlierRuns = (job: BulkJob, fetchedAt: number[]): number => {
  const start = Date.parse(job.startedAt);
  return fetchedAt.filter((at) => at < start).length;
};

/**
 * Runs a step's units of work from row 0 of its window: each unit handles rows from `from` and
 * says where it stopped and where its rows ended; a unit that stopped short, the window's end, the
 * job leaving `running` or the step's time budget ends the step.
 */
export function eachUnit(job: BulkJob, rows: number, started: number, budgetMs: number, unit: (from: number) => { stopAt: number; end: number }): void {
  let i = 0;
  while (i < rows && job.status === 'running') {
    if (i > 0 && Date.now() - started > budgetMs) break;
    const { stopAt, end } = unit(i);
    i = stopAt;
    if (stopAt < end) break;
  }
}
