/**
 * Starting a schedule's runs: the ones that came due (the hourly trigger), and Run now (the
 * sidebar). Each run is a bulk job in the schedule's own property, resumable like any bulk run.
 */
import { isFilled, readColumn } from '../bulk/grid';
import type { BulkJob } from '../bulk/job';
import { jobStore, pauseJob, physical, waitsForQuota } from '../bulk/job';
import { plan } from '../bulk/plan';
import { newJob } from '../bulk/runs';
import type { Context } from '../context/context';
import type { Schedule } from './schedules';
import { findSchedule, loadSchedules, nextRun, saveSchedules } from './schedules';
import { reuseLimitMs } from './when';

/**
 * Where a schedule's new run starts: where the last one stopped when it did not reach its last row
 * (its cap, an empty balance), so a capped schedule refreshes every row in turn instead of the
 * first rows every time; else at the first row.
 */
function startRow(last: BulkJob | null, rows: number): number {
  // A growing column (a tracker's) changes its row count between runs: the place is kept anyway
  // (within the `rows` rows of the new run, at least one: rowsNow).
  return !last || last.status === 'done' ? 0 : Math.min(physical(last, last.next), rows - 1);
}

/**
 * The rows a run covers: the schedule's, or for a growing one (a tracker's column) every row from
 * its first down to the column's last filled cell, so accounts added below join the next run.
 */
function rowsNow(ctx: Context, { grow, place }: Schedule): number {
  const src = grow ? ctx.book.sheet(place.sheet) : null;
  if (!src) return place.rows;
  const below = Math.max(0, src.lastRow() - place.row + 1);
  const cells = below ? readColumn(src, place.row, place.col, below) : [];
  let n = cells.length;
  while (n > 0 && !isFilled(cells[n - 1])) n--;
  return Math.max(1, n);
}

/**
 * A new run of a schedule, or why it cannot start (saved as the schedule's job either way). `last`: its previous run.
 */
export function scheduledJob(ctx: Context, s: Schedule, last: BulkJob | null): BulkJob {
  const { place } = s;
  const p = plan(s.request);
  const job = newJob(ctx, p, { ...place, rows: rowsNow(ctx, s) }, s.request.output);
  if (s.label) job.label = s.label;
  job.slot = s.id;
  job.cap = s.cap;
  const offset = startRow(last, job.rows);
  if (offset) job.offset = offset;
  job.maxAgeMs = reuseLimitMs(s.repeat);
  const out = ctx.book.sheet(place.outSheet);
  if (job.kind === 'rows') job.overwrite = true;
  if (!ctx.book.sheet(place.sheet) || !out)
    pauseJob(
      job,
      `The sheet "${!out ? place.outSheet : place.sheet}" is gone: delete this schedule and make a new one.`,
    );
  else if (job.kind === 'history') job.outNext = out.lastRow() + 1;
  else if (
    place.row > 1 &&
    out.read(place.row - 1, place.outCol, 1, p.fields.length)[0].join(',') !== p.fields.join(',')
  ) {
    // The header over the schedule's columns changed: those columns are someone else's now.
    pauseJob(
      job,
      `The header over the schedule's columns is no longer "${p.fields.join(', ')}": ` +
        `nothing was written. Restore it, or delete the schedule and make a new one.`,
    );
  }
  return job;
}

/** Starts the schedules that came due (a schedule whose last run is still going skips this time). */
export function startDue(ctx: Context): void {
  const now = ctx.now();
  if (!loadSchedules(ctx.props).some((s) => s.nextAt <= now)) return; // most hours: nothing due, no lock taken
  ctx.lock.withLock(() => {
    const jobs = jobStore(ctx.props);
    const list = loadSchedules(ctx.props);
    let changed = false;
    for (const s of list) {
      if (s.nextAt > now) continue;
      const last = jobs.load(s.id);
      // A run waiting for Google's daily quota is going too: a new run would meet the quota and wait longer.
      if (last?.status === 'running' || waitsForQuota(last)) s.skippedAt = new Date(now).toISOString();
      else {
        delete s.skippedAt;
        jobs.save(scheduledJob(ctx, s, last));
      }
      s.nextAt = nextRun(ctx.book, s.repeat, now);
      changed = true;
    }
    if (changed) saveSchedules(ctx.props, list);
  });
}

/** "Run now" from the sidebar: a new run of the schedule (the sidebar steps it), or the one still going. */
export function runNow(ctx: Context, id: string): BulkJob {
  return ctx.lock.withLock(() => {
    const s = findSchedule(ctx.props, id);
    if (!s) throw new Error('This schedule was deleted; reopen the sidebar.');
    const jobs = jobStore(ctx.props);
    const going = jobs.load(s.id);
    if (going?.status === 'running') return going;
    const job = scheduledJob(ctx, s, going);
    jobs.save(job);
    return job;
  });
}
