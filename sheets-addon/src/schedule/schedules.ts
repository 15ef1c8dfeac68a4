/**
 * Scheduled lookups: a bulk lookup (a column, a function, its fields, beside the column or into a
 * history sheet) that the hourly trigger starts daily or weekly, with a credit cap per run. The
 * list lives in one document property (at most 10 schedules); each schedule's run is a bulk job
 * in its own property (bulk/job.ts, slot = the schedule's id), resumable like any bulk run.
 */
import { estimateCost, getEndpoint } from '@igdata/core';
import { colName, selection } from '../bulk/grid';
import type { BulkJob, JobPlace } from '../bulk/job';
import { jobStore, stalled } from '../bulk/job';
import type { BulkPlan, BulkRequest } from '../bulk/plan';
import { plan, preview } from '../bulk/plan';
import type { OutputPlace } from '../bulk/runs';
import { placeOutput } from '../bulk/runs';
import { jsonList } from '../engine/json';
import type { Book, PropertyStore, Context } from '../context/context';
import { PROP } from '../context/property-names';
import { runCosts } from './cost';
import type { OwnerRef } from './owner';
import { ownerTitle } from './owner';
import type { Repeat } from './when';
import { NEVER, describeRepeat, nextRunAt, readRepeat, wholeNumber } from './when';

export const MAX_SCHEDULES = 10;
const MAX_CAP = 1000000;

export interface Schedule {
  id: string;
  request: BulkRequest & { output: 'beside' | 'history' };
  place: JobPlace;
  repeat: Repeat;
  cap: number;
  /** Epoch ms of the next run. */
  nextAt: number;
  createdBy: string;
  /** Set when a run came due while the previous one was still going (that run was not started). */
  skippedAt?: string;
  /**
   * Its runs cover the column from its first row down to its last filled cell (a tracker's: accounts added join the
   * next run).
   */
  grow?: boolean;
  /** Usage label of its runs (shown as it is, never read back). */
  label?: string;
  /** What it is part of (owner.ts): deleted with its owner, which hears when a run ends. */
  owner?: OwnerRef;
}

/** A schedule as saved before owners (2026-11): a tracker's carried its id alone. */
type SavedSchedule = Schedule & { tracker?: string };

/**
 * A saved schedule in today's shape: an old tracker's schedule gets its owner (its name was not saved: messages say "a
 * tracker").
 */
function fromSaved({ tracker, ...s }: SavedSchedule): Schedule {
  return tracker && !s.owner ? { ...s, owner: { kind: 'tracker', id: tracker } } : s;
}

export const loadSchedules = (props: PropertyStore): Schedule[] =>
  (jsonList(props.get(PROP.schedules)) as SavedSchedule[]).map(fromSaved);

export const saveSchedules = (props: PropertyStore, list: Schedule[]): void =>
  props.set(PROP.schedules, JSON.stringify(list));

export const findSchedule = (props: PropertyStore, id: string): Schedule | undefined =>
  loadSchedules(props).find((s) => s.id === id);

/** When a schedule runs next, for the sidebar: the instant and its label in the spreadsheet's zone (blank: never). */
const nextAtFields = (book: Book, at: number) =>
  at >= NEVER ? { nextAt: '', nextLabel: '' } : { nextAt: new Date(at).toISOString(), nextLabel: book.formatTime(at) };

/** The next run after `after` in the spreadsheet's zone. */
export const nextRun = (book: Book, r: Repeat, after: number): number => nextRunAt(r, after, (t) => book.zoneOffset(t));

/** The cap typed in the sidebar: whole credits, 1 to 1,000,000. */
export const readCap = (v: unknown): number =>
  wholeNumber(v, 1, MAX_CAP, `Credit cap per run: a whole number from 1 to ${MAX_CAP.toLocaleString('en-US')}`);

function readRequest(req: BulkRequest): Schedule['request'] {
  if (req.output !== 'beside' && req.output !== 'history')
    throw new Error(
      'A scheduled lookup writes beside the column (refreshed each run) or ' +
        'to a history sheet (a dated row per run): choose one of those.',
    );
  return { endpoint: req.endpoint, params: req.params ?? {}, fields: req.fields ?? '', output: req.output };
}

interface SchedulePreview {
  range: string;
  targets: number;
  creditsEach: number;
  /** Credits one run spends at most: every target fetched again, never more than the cap. */
  perRun: number;
  /** Runs that refresh every target once: 1, or more when the cap cuts runs (each continues where the last stopped). */
  runsForAll: number;
  uncapped: number;
  perMonth: number;
  runsPerMonth: number;
  when: string;
  nextAt: string;
  /** The first run in the spreadsheet's zone (the zone the hour is in). */
  nextLabel: string;
  balance?: number;
}

/** A schedule's parts from the sidebar, checked (a clear message, nothing saved on bad input). */
function readSchedule(req: BulkRequest, repeat: unknown, cap: unknown) {
  const request = readRequest(req);
  const p = plan(request);
  if (p.list)
    throw new Error(
      `${p.endpoint.fn} returns many rows per target; a schedule takes a function with one row per target.`,
    );
  const c = readCap(cap);
  const each = estimateCost(p.endpoint, p.params as never).credits;
  if (c < each)
    throw new Error(
      `Credit cap per run: at least ${each}, what one ${p.endpoint.fn} ` +
        `lookup costs (got ${c}); a lower cap would never look anything up.`,
    );
  return { request, plan: p, repeat: readRepeat((repeat ?? {}) as never), cap: c };
}

/** What a schedule on the selection would cost per run and per month (the bulk preview's counts; nothing is saved). */
export function previewSchedule(ctx: Context, req: BulkRequest, repeat: unknown, cap: unknown): SchedulePreview {
  const s = readSchedule(req, repeat, cap);
  const b = preview(ctx, s.request);
  return {
    range: b.range,
    targets: b.unique,
    creditsEach: b.creditsEach,
    ...runCosts(b.unique, b.creditsEach, s.cap, s.repeat),
    ...nextAtFields(ctx.book, nextRun(ctx.book, s.repeat, ctx.now())),
    balance: b.balance,
  };
}

/**
 * A new schedule of `request` (its fields as planned) writing where `placed` says: the output
 * placeOutput prepared now. Its outNext is not kept: each run finds its own next row.
 */
export function newSchedule(
  ctx: Context,
  request: Schedule['request'],
  p: BulkPlan,
  placed: OutputPlace,
  when: Pick<Schedule, 'repeat' | 'cap' | 'nextAt'>,
): Schedule {
  const { outNext: _, ...place } = placed;
  return {
    id: ctx.newId(),
    request: { ...request, fields: p.fields.join(',') },
    place,
    ...when,
    createdBy: ctx.userEmail(),
  };
}

/**
 * Saves a schedule on the selection: the output is prepared now (header, history sheet); the first run comes at its
 * time.
 */
export function saveSchedule(ctx: Context, req: BulkRequest, repeat: unknown, cap: unknown): Schedule {
  const { request, plan: p, repeat: r, cap: c } = readSchedule(req, repeat, cap);
  const range = selection(ctx.book);
  return ctx.lock.withLock(() => {
    const list = loadSchedules(ctx.props);
    if (list.length >= MAX_SCHEDULES)
      throw new Error(`A sheet holds at most ${MAX_SCHEDULES} schedules: delete one first.`);
    const s = newSchedule(ctx, request, p, placeOutput(ctx.book, range, p, request.output), {
      repeat: r,
      cap: c,
      nextAt: nextRun(ctx.book, r, ctx.now()),
    });
    list.push(s);
    saveSchedules(ctx.props, list);
    return s;
  });
}

export function deleteSchedule(ctx: Context, id: string): void {
  const mine = findSchedule(ctx.props, id);
  // Its owner counts on it (a tracker's view would keep showing this part's old values): it goes with its owner.
  if (mine?.owner)
    throw new Error(
      `This schedule is part of ${ownerTitle(mine.owner)}: delete the ${mine.owner.kind} instead. Nothing was deleted.`,
    );
  ctx.lock.withLock(() => {
    saveSchedules(
      ctx.props,
      loadSchedules(ctx.props).filter((s) => s.id !== id),
    );
    jobStore(ctx.props).delete(id);
  });
}

/** A schedule as the sidebar lists it. */
interface ScheduleView {
  id: string;
  what: string;
  where: string;
  when: string;
  cap: number;
  nextAt: string;
  nextLabel: string;
  owner?: { kind: string; title: string };
  runLabel?: string;
  skippedAt?: string;
  run: BulkJob | null;
}

/** The sidebar's view: each schedule, when it runs next, and its last (or current) run. */
export function scheduleViews(ctx: Context): ScheduleView[] {
  const jobs = jobStore(ctx.props);
  const timeLabel = (iso: string | undefined) => iso && ctx.book.formatTime(Date.parse(iso));
  return loadSchedules(ctx.props).map((s) => {
    const saved = jobs.load(s.id);
    // A run the hourly runs stopped moving (Google ran no trigger) says so, as the sidebar's own run does.
    const run = saved && stalled(saved, ctx.now(), (t) => ctx.book.formatTime(t));
    const { sheet, row, col, rows, outSheet } = s.place;
    return {
      id: s.id,
      what: `${getEndpoint(s.request.endpoint).fn}: ${s.request.fields}`,
      where:
        `${sheet}!${colName(col)}${row}:${colName(col)}${row + rows - 1} \u2192 ` +
        `${s.request.output === 'history' ? outSheet : 'the columns beside'}`,
      when: describeRepeat(s.repeat),
      cap: s.cap,
      ...nextAtFields(ctx.book, s.nextAt),
      /** What it is part of, if anything: deleted with that, not alone. */
      owner: s.owner && { kind: s.owner.kind, title: ownerTitle(s.owner) },
      runLabel: timeLabel(run?.startedAt),
      skippedAt: timeLabel(s.skippedAt),
      run,
    };
  });
}
