/**
 * "Track these accounts": a column of accounts, some fields, how often and a credit cap become, in
 * one step, history schedules (one per endpoint the fields come from, over the column as it grows),
 * a first run now, and a tracker view sheet (view.ts) rebuilt whenever a run ends. Trackers live in
 * one document property; their schedules are ordinary schedules (schedule/) whose owner is the
 * tracker (kind 'tracker': TRACKER_OWNER, listed in owners.ts).
 */
import { counted, getEndpoint, joinName } from '@igdata/core';
import { targetParam } from '../engine/layout';
import { emptiedSheet, freeSheetName, rangeLabel, readColumn, selection } from '../bulk/grid';
import { jobStore } from '../bulk/job';
import type { BulkJob } from '../bulk/job';
import { plan } from '../bulk/plan';
import { placeOutput } from '../bulk/runs';
import { jsonList } from '../engine/json';
import { readBalance } from '../engine/balance';
import { planRow } from '../engine/rows';
import type { Context } from '../context/context';
import { PROP } from '../context/property-names';
import type { Schedule } from '../schedule/schedules';
import { MAX_SCHEDULES, loadSchedules, newSchedule, nextRun, saveSchedules } from '../schedule/schedules';
import { runCosts } from '../schedule/cost';
import type { RunOwner } from '../schedule/owner';
import { scheduledJob } from '../schedule/start';
import { stepScheduled } from '../schedule/step';
import type { Repeat } from '../schedule/when';
import { NEVER, describeRepeat, reuseLimitMs } from '../schedule/when';
import type { TrackerRequest, readRuns } from './read';
import { readTracker, trackable } from './read';
import type { TrackedHistory } from './view';
import { trackerView } from './view';
import { checkAlerts } from './alert-check';
import { alertsKey } from './alert-check';

const MAX_TRACKERS = 5;

export interface Tracker {
  id: string;
  name: string;
  /**
   * The tracked column: its sheet, first row and column (it grows downwards); `rows`: a benchmark's accounts are the
   * selection's rows, not the column as it grows.
   */
  source: { sheet: string; row: number; col: number; rows?: number };
  fields: string[];
  sortBy: string;
  repeat: Repeat;
  cap: number;
  /** One schedule per endpoint the fields come from. */
  parts: { scheduleId: string; endpoint: string; fields: string[]; history: string }[];
  view: string;
  createdAt: string;
  /** 'benchmark': "Benchmark these accounts" (benchmark/), whose view is a report, not one line per account. */
  report?: 'benchmark';
  /** A benchmark's own account, its first column ("ours"); the others are its competitors. */
  ours?: string;
  /** A benchmark's measures (benchmark/measures.ts ids), in the report's order. */
  measures?: string[];
  /** A benchmark's hours (best time to post) are in this offset from UTC, in whole hours: the sheet's when made. */
  zone?: number;
}

export const loadTrackers = (ctx: Pick<Context, 'props'>): Tracker[] =>
  jsonList(ctx.props.get(PROP.trackers)) as Tracker[];

const findTracker = (ctx: Pick<Context, 'props'>, id: string): Tracker | undefined =>
  loadTrackers(ctx).find((x) => x.id === id);

const saveTrackers = (ctx: Pick<Context, 'props'>, list: Tracker[]) =>
  ctx.props.set(PROP.trackers, JSON.stringify(list));

/** The column's distinct accounts now, as the service reads them (from the first row down to the last filled cell). */
export function accountsIn(ctx: Context, source: Tracker['source']): string[] {
  const sheet = ctx.book.sheet(source.sheet);
  if (!sheet) return [];
  const n = Math.max(0, Math.min(source.rows ?? Infinity, sheet.lastRow() - source.row + 1));
  // Accounts as the service reads them: the target parameter of the first trackable endpoint.
  const endpoint = trackable()[0];
  const targetName = targetParam(endpoint)!.name;
  const out = new Set<string>();
  for (const cell of n ? readColumn(sheet, source.row, source.col, n) : []) {
    const r = planRow(endpoint, targetName, {}, cell);
    if (r.kind === 'call') out.add(String(r.call.params[targetName]));
  }
  return [...out];
}

/** What the user calls a tracker or a benchmark (its kind as an owner of schedules, owner.ts). */
const kindOf = (t: Pick<Tracker, 'report'>): 'tracker' | 'benchmark' => t.report ?? 'tracker';
const title = (kind: string): string => kind[0].toUpperCase() + kind.slice(1);

/** "Tracker N", the first N no tracker (benchmark) is named and whose view sheet no deleted one left. */
function defaultName(ctx: Context, trackers: Tracker[], kind: string): string {
  for (let n = 1; ; n++) {
    const name = `${title(kind)} ${n}`;
    if (!trackers.some((x) => x.name === name) && !ctx.book.sheet(viewName(kind, name))) return name;
  }
}

/** "IG Data tracker Competitors"; a default name's word said once: "IG Data tracker 1", "IG Data benchmark 1". */
const viewName = (kind: string, name: string): string => joinName(`IG Data ${kind}`, name);

/** The cap of one part's runs: its share of the cap per run (each account costs all parts), at least one account. */
export const capShare = (credits: number, cap: number, each: number): number =>
  Math.max(credits, Math.floor((cap * credits) / each));

/** The first run is now: the next comes at the schedule's time at least half a period later (not an hour later). */
const secondRun = (ctx: Context, r: Repeat): number => nextRun(ctx.book, r, ctx.now() + reuseLimitMs(r));

/** What tracking the selection would cost per run and per month, and when it runs (nothing is saved). */
export const previewTracker = (ctx: Context, req: TrackerRequest) => previewRuns(ctx, readTracker(req));

/** The parts, timing and cap of a tracker or a benchmark as read from the sidebar. */
export type RunsSpec = ReturnType<typeof readRuns>;

/** What runs of `spec` over the selection would cost per run and per month, and when they run (nothing is saved). */
export function previewRuns(ctx: Context, { settings: t, parts, each }: RunsSpec, source?: Tracker['source']) {
  const r = selection(ctx.book);
  // A tracker's column from its first row down, as its runs read it (not the selection's rows alone).
  const accounts = accountsIn(ctx, source ?? { sheet: r.sheet, row: r.row, col: r.col }).length;
  const b = readBalance(ctx.client);
  return {
    range: rangeLabel(r),
    accounts,
    fields: t.fields,
    creditsEach: each,
    ...runCosts(accounts, each, t.cap, t.repeat),
    firstRun: 'now',
    nextLabel: t.repeat.every === 'never' ? '' : ctx.book.formatTime(secondRun(ctx, t.repeat)),
    balance: b.ok ? b.balance : undefined,
    functions: parts.map((p) => p.endpoint.fn),
  };
}

/** Creates a tracker on the selection: its schedules, a first run now (the sidebar steps it) and its view sheet. */
export const createTracker = (ctx: Context, req: TrackerRequest & { range?: string }) =>
  makeRuns(ctx, readTracker(req), req.range);

/**
 * Makes a tracker (or with `extra.report`, a benchmark) of `t` on the selection: its schedules, a first run now (the
 * sidebar steps it) and its view sheet. `range`: the selection the preview counted.
 */
export function makeRuns(
  ctx: Context,
  t: RunsSpec,
  range: string | undefined,
  extra: Pick<Tracker, 'report' | 'ours' | 'measures' | 'zone'> = {},
  write: ViewWriter = writeTrackerView,
): { tracker: Tracker; jobs: BulkJob[] } {
  const r = selection(ctx.book);
  // The column previewed is the one tracked: a click elsewhere between the two would track another.
  if (range && range !== rangeLabel(r))
    throw new Error(`The selection changed since the preview (${range}, now ${rangeLabel(r)}): preview again.`);
  const kind = kindOf(extra);
  return ctx.lock.withLock(() => {
    const trackers = loadTrackers(ctx);
    if (trackers.filter((x) => kindOf(x) === kind).length >= MAX_TRACKERS)
      throw new Error(`A sheet holds at most ${counted(MAX_TRACKERS, kind)}: delete one first.`);
    const schedules = loadSchedules(ctx.props);
    if (schedules.length + t.parts.length > MAX_SCHEDULES)
      throw new Error(
        `A sheet holds at most ${MAX_SCHEDULES} schedules (a ${kind} uses one per function it reads): ` +
          'delete one first.',
      );
    const id = ctx.newId();
    const name = t.name || defaultName(ctx, trackers, kind);
    if (trackers.some((x) => x.name === name))
      throw new Error(`Name: a tracker or benchmark named "${name}" exists already: choose another name.`);
    const { repeat, cap } = t.settings;
    const label = joinName(title(kind), name);
    const nextAt = secondRun(ctx, repeat);
    const parts: Tracker['parts'] = [];
    const made: Schedule[] = [];
    for (const part of t.parts) {
      const request = {
        endpoint: part.endpoint.id,
        params: part.params,
        fields: part.fields.join(','),
        output: 'history' as const,
      };
      const p = plan(request);
      // A new history sheet of its own (the tracker keeps its name, by id): another lookup's rows, or
      // those of a deleted tracker that had this name, would be taken for this tracker's snapshots.
      const placed = placeOutput(ctx.book, r, p, 'history', `${part.endpoint.fn} ${name}`);
      const share = capShare(part.credits, cap, t.each);
      const s: Schedule = {
        ...newSchedule(ctx, request, p, placed, { repeat, cap: share, nextAt }),
        // A tracker's column grows (accounts added join the next run); a benchmark's accounts are the selection's.
        grow: kind === 'tracker',
        label,
        owner: { kind, id, name },
      };
      made.push(s);
      parts.push({ scheduleId: s.id, endpoint: request.endpoint, fields: p.fields, history: placed.outSheet });
    }
    const tracker: Tracker = {
      id,
      name,
      source: { sheet: r.sheet, row: r.row, col: r.col, ...(extra.report && { rows: r.rows }) },
      ...t.settings,
      parts,
      view: freeSheetName(ctx.book, viewName(kind, name)),
      createdAt: new Date(ctx.now()).toISOString(),
      ...extra,
    };
    // The view first: if it cannot be written, nothing is saved and nothing runs.
    refreshView(ctx, tracker, write);
    const jobs = jobStore(ctx.props);
    const started = made.map((s) => scheduledJob(ctx, s, null));
    started.forEach((job) => jobs.save(job));
    saveSchedules(ctx.props, [...schedules, ...made]);
    saveTrackers(ctx, [...trackers, tracker]);
    return { tracker, jobs: started };
  });
}

/** Writes the view sheet of a tracker (or a benchmark: benchmark/) from its histories and its accounts now. */
export type ViewWriter = (ctx: Context, t: Tracker, histories: TrackedHistory[], accounts: string[]) => void;

/** Rewrites the view from the history sheets and the column as it is now. */
function refreshView(ctx: Context, t: Tracker, write: ViewWriter): void {
  const histories = t.parts.map((p) => {
    const sheet = ctx.book.sheet(p.history);
    const rows = sheet ? sheet.lastRow() : 0;
    return {
      name: p.history,
      fields: p.fields,
      idField: getEndpoint(p.endpoint).tracker?.idField,
      values: sheet && rows ? sheet.read(1, 1, rows, p.fields.length + 2) : [],
    };
  });
  write(ctx, t, histories, accountsIn(ctx, t.source));
}

/** The tracker view: a line per account (view.ts). */
function writeTrackerView(ctx: Context, t: Tracker, histories: TrackedHistory[], accounts: string[]): void {
  const view = trackerView(accounts, histories, t.sortBy);
  // Four columns a field: six fields and more are wider than a new sheet's 26 columns.
  const sheet = emptiedSheet(ctx.book, t.view, view.rows.length + 1, view.header.length);
  sheet.write(1, 1, [view.header, ...view.rows]);
  if (view.rows.length) {
    for (const trend of view.trends) sheet.writeFormulas(2, trend.col, trend.formulas);
    for (const c of view.percentCols) sheet.setNumberFormat(2, c, view.rows.length, 1, '0.0%');
    for (const c of view.countCols) sheet.setNumberFormat(2, c, view.rows.length, 1, '#,##0');
  }
}

/** The last (or current) run of each of the tracker's schedules; null for one that has not run. */
const runsOf = (ctx: Context, t: Tracker): (BulkJob | null)[] =>
  t.parts.map((p) => jobStore(ctx.props).load(p.scheduleId));

/** The trackers' runs still going (first run, or a scheduled one). */
const running = (ctx: Context, t: Tracker): BulkJob[] =>
  runsOf(ctx, t).filter((job): job is BulkJob => job?.status === 'running');

/**
 * The owner of a tracker's (or a benchmark's) schedules: once all its runs are over, its view is rebuilt by `write`
 * and its alert rules checked on the run (alert-check.ts; a benchmark has none).
 */
export const runsOwner = (write: ViewWriter): RunOwner => ({
  afterRun(ctx, trackerId) {
    const t = findTracker(ctx, trackerId);
    if (!t || running(ctx, t).length) return;
    ctx.lock.withLock(() => refreshView(ctx, t, write));
    if (!t.report) checkAlerts(ctx, t, accountsIn(ctx, t.source)); // a benchmark has no alert rules
  },
});

export const TRACKER_OWNER = runsOwner(writeTrackerView);

/**
 * One step of a tracker's run (a benchmark's: `kind` and its `owner`) from the sidebar; its view is rebuilt when its
 * runs end. A benchmark's id is no tracker's: its report is never rewritten as a tracker view.
 */
export function stepTracker(
  ctx: Context,
  id: string,
  owner = TRACKER_OWNER,
  kind: 'tracker' | 'benchmark' = 'tracker',
): { tracker: Tracker; jobs: BulkJob[]; done: boolean } {
  const t = findTracker(ctx, id);
  if (!t || kindOf(t) !== kind) throw new Error(`This ${kind} was deleted; reopen the sidebar.`);
  const part = t.parts.find((p) => jobStore(ctx.props).load(p.scheduleId)?.status === 'running');
  const job = part && jobStore(ctx.props).load(part.scheduleId);
  // Only its own schedules are stepped here, so its own hook is the only one needed.
  if (part && job) stepScheduled(ctx, { [kindOf(t)]: owner }, part.scheduleId, job.id);
  return { tracker: t, jobs: runsOf(ctx, t).filter((job): job is BulkJob => !!job), done: !running(ctx, t).length };
}

/** The sidebar's list: each tracker (or benchmark: `kind`), its schedules' next run, and its runs. */
export function trackerViews(ctx: Context, kind: 'tracker' | 'benchmark' = 'tracker') {
  const schedules = loadSchedules(ctx.props);
  return loadTrackers(ctx)
    .filter((t) => kindOf(t) === kind)
    .map((t) => {
      const next = Math.min(...t.parts.map((p) => schedules.find((s) => s.id === p.scheduleId)?.nextAt ?? Infinity));
      return {
        id: t.id,
        name: t.name,
        view: t.view,
        fields: t.fields,
        when: describeRepeat(t.repeat),
        cap: t.cap,
        source: `${t.source.sheet}!${t.source.row}`,
        accounts: accountsIn(ctx, t.source).length,
        nextLabel: next < NEVER ? ctx.book.formatTime(next) : '',
        runs: runsOf(ctx, t),
        ours: t.ours,
        measures: t.measures,
      };
    });
}

/** Deletes a tracker and its schedules; its history and view sheets stay (the sidebar asks first). */
export function deleteTracker(ctx: Context, id: string): void {
  ctx.lock.withLock(() => {
    const trackers = loadTrackers(ctx);
    const t = trackers.find((x) => x.id === id);
    if (!t) return;
    const mine = new Set(t.parts.map((p) => p.scheduleId));
    saveSchedules(
      ctx.props,
      loadSchedules(ctx.props).filter((s) => !mine.has(s.id)),
    );
    for (const sid of mine) jobStore(ctx.props).delete(sid);
    ctx.props.delete(alertsKey(id));
    saveTrackers(
      ctx,
      trackers.filter((x) => x !== t),
    );
  });
}
