/**
 * "Track these accounts": a column of accounts, some fields, how often and a credit cap become, in
 * one step, history schedules (one per endpoint the fields come from, over the column as it grows),
 * a first run now, and a tracker view sheet (view.ts) rebuilt whenever a run ends. Trackers live in
 * one document property; their schedules are ordinary schedules (schedule/) whose owner is the
 * tracker (kind 'tracker': TRACKER_OWNER, listed in owners.ts).
 */
import type { EndpointDef } from '@igdata/core';
import { endpoints, estimateCost, getEndpoint, joinName } from '@igdata/core';
import { targetParam } from '../engine/layout';
import { emptiedSheet, freeSheetName, rangeLabel, readColumn, selection } from '../bulk/grid';
import { jobStore } from '../bulk/job';
import type { BulkJob } from '../bulk/job';
import { plan } from '../bulk/plan';
import { placeOutput } from '../bulk/runs';
import { jsonList } from '../engine/json';
import { readBalance } from '../engine/balance';
import { ERROR_CODE, FETCHED_AT } from '../engine/values';
import { planRow } from '../engine/rows';
import type { Context } from '../context/context';
import { PROP } from '../context/property-names';
import type { Schedule } from '../schedule/schedules';
import { MAX_SCHEDULES, loadSchedules, newSchedule, nextRun, readCap, saveSchedules } from '../schedule/schedules';
import { runCosts } from '../schedule/cost';
import type { RunOwner } from '../schedule/owner';
import { scheduledJob } from '../schedule/start';
import { stepScheduled } from '../schedule/step';
import type { Repeat } from '../schedule/when';
import { describeRepeat, readRepeat, reuseLimitMs } from '../schedule/when';
import { trackerView } from './view';
import { checkAlerts } from './alert-check';
import { alertsKey } from './alert-check';

/**
 * The endpoints a tracker takes fields from (the registry's `tracker` fact), in registry order: a profile's followers
 * before an insight's.
 */
const trackable = (): EndpointDef[] => endpoints.filter((e) => e.tracker);
export const DEFAULT_FIELDS = ['followers', 'posts', 'engagement_rate_pct'];
const MAX_TRACKERS = 5;

export interface Tracker {
  id: string;
  name: string;
  /** The tracked column: its sheet, first row and column (it grows downwards). */
  source: { sheet: string; row: number; col: number };
  fields: string[];
  sortBy: string;
  repeat: Repeat;
  cap: number;
  /** One schedule per endpoint the fields come from. */
  parts: { scheduleId: string; endpoint: string; fields: string[]; history: string }[];
  view: string;
  createdAt: string;
}

export interface TrackerRequest {
  fields?: string;
  every?: unknown;
  weekday?: unknown;
  hour?: unknown;
  cap?: unknown;
  name?: string;
  sortBy?: string;
}

/** What one account costs at an endpoint a tracker takes fields from. */
const creditsOf = (e: EndpointDef): number => estimateCost(e, {}).credits;

/** Each field a tracker offers, with the first trackable endpoint that returns it. */
function offered(): { field: string; endpoint: EndpointDef }[] {
  const seen = new Set<string>();
  return trackable().flatMap((endpoint) =>
    endpoint.columns
      .filter((c) => c !== 'username' && !seen.has(c) && seen.add(c))
      .map((field) => ({ field, endpoint })),
  );
}

/** The fields a tracker offers, each with the function it comes from and what that costs an account. */
export const trackableFields = (): { field: string; fn: string; credits: number }[] =>
  offered().map(({ field, endpoint }) => ({ field, fn: endpoint.fn, credits: creditsOf(endpoint) }));

/** A tracker's parts from the sidebar, checked (a clear message naming the field, nothing saved on bad input). */
function readTracker(req: TrackerRequest) {
  const fields = String(req.fields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const chosen = fields.length ? [...new Set(fields)] : DEFAULT_FIELDS;
  const choices = offered();
  const byEndpoint = new Map<EndpointDef, string[]>();
  for (const f of chosen) {
    const e = choices.find((c) => c.field === f)?.endpoint;
    if (!e)
      throw new Error(
        `Fields: "${f}" is not a field of a profile or its insights. ` +
          `Choose from: ${choices.map((x) => x.field).join(', ')}.`,
      );
    byEndpoint.set(e, [...(byEndpoint.get(e) ?? []), f]);
  }
  // The profile's id links the lines of an account that changed its username; `_fetched_at` says
  // when each snapshot's answer was fetched (a run may reuse an earlier answer: the view's "fetched");
  // `_error` holds a failed lookup's code, by which the view tells a failure's row from values.
  const parts = [...byEndpoint].map(([endpoint, f]) => {
    const idField = endpoint.tracker?.idField;
    return {
      endpoint,
      fields: [...f, ...(idField ? [idField] : []), FETCHED_AT, ERROR_CODE],
      credits: creditsOf(endpoint),
    };
  });
  const each = parts.reduce((n, p) => n + p.credits, 0);
  const repeat = readRepeat({ every: req.every ?? 'weekly', weekday: req.weekday ?? 1, hour: req.hour ?? 7 });
  const cap = readCap(req.cap);
  if (cap < each)
    throw new Error(`Credit cap per run: at least ${each}, what one account costs with these fields (got ${cap}).`);
  const sortBy = String(req.sortBy ?? '').trim() || chosen[0];
  if (!chosen.includes(sortBy))
    throw new Error(`Sort by: one of the chosen fields (${chosen.join(', ')}); got "${sortBy}".`);
  // `settings`: the tracker record's own fields, as it stores them.
  return {
    settings: { fields: chosen, sortBy, repeat, cap },
    parts,
    each,
    name: String(req.name ?? '')
      .trim()
      .slice(0, 60),
  };
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
  const n = Math.max(0, sheet.lastRow() - source.row + 1);
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

/** "Tracker N", the first N no tracker is named and whose view sheet no deleted tracker left. */
function defaultName(ctx: Context, trackers: Tracker[]): string {
  for (let n = 1; ; n++) {
    const name = `Tracker ${n}`;
    if (!trackers.some((x) => x.name === name) && !ctx.book.sheet(viewName(name))) return name;
  }
}

/** "IG Data tracker Competitors"; a default name's word said once: "IG Data tracker 1". */
const viewName = (name: string): string => joinName('IG Data tracker', name);

/** The first run is now: the next comes at the schedule's time at least half a period later (not an hour later). */
const secondRun = (ctx: Context, r: Repeat): number => nextRun(ctx.book, r, ctx.now() + reuseLimitMs(r));

/** What tracking the selection would cost per run and per month, and when it runs (nothing is saved). */
export function previewTracker(ctx: Context, req: TrackerRequest) {
  const { settings: t, parts, each } = readTracker(req);
  const r = selection(ctx.book);
  const accounts = accountsIn(ctx, r).length;
  const b = readBalance(ctx.client);
  return {
    range: rangeLabel(r),
    accounts,
    fields: t.fields,
    creditsEach: each,
    ...runCosts(accounts, each, t.cap, t.repeat),
    firstRun: 'now',
    nextLabel: ctx.book.formatTime(secondRun(ctx, t.repeat)),
    balance: b.ok ? b.balance : undefined,
    functions: parts.map((p) => p.endpoint.fn),
  };
}

/** Creates a tracker on the selection: its schedules, a first run now (the sidebar steps it) and its view sheet. */
export function createTracker(
  ctx: Context,
  req: TrackerRequest & { range?: string },
): { tracker: Tracker; jobs: BulkJob[] } {
  const t = readTracker(req);
  const r = selection(ctx.book);
  const range = rangeLabel(r);
  // The column previewed is the one tracked: a click elsewhere between the two would track another.
  if (req.range && req.range !== range)
    throw new Error(`The selection changed since the preview (${req.range}, now ${range}): preview again.`);
  return ctx.lock.withLock(() => {
    const trackers = loadTrackers(ctx);
    if (trackers.length >= MAX_TRACKERS)
      throw new Error(`A sheet holds at most ${MAX_TRACKERS} trackers: delete one first.`);
    const schedules = loadSchedules(ctx.props);
    if (schedules.length + t.parts.length > MAX_SCHEDULES)
      throw new Error(
        `A sheet holds at most ${MAX_SCHEDULES} schedules (a tracker uses one per kind of field): delete one first.`,
      );
    const id = ctx.newId();
    const name = t.name || defaultName(ctx, trackers);
    if (trackers.some((x) => x.name === name))
      throw new Error(`Name: a tracker named "${name}" exists already: choose another name.`);
    const { repeat, cap } = t.settings;
    const label = joinName('Tracker', name);
    const nextAt = secondRun(ctx, repeat);
    const parts: Tracker['parts'] = [];
    const made: Schedule[] = [];
    for (const part of t.parts) {
      const request = {
        endpoint: part.endpoint.id,
        params: {},
        fields: part.fields.join(','),
        output: 'history' as const,
      };
      const p = plan(request);
      // A new history sheet of its own (the tracker keeps its name, by id): another lookup's rows, or
      // those of a deleted tracker that had this name, would be taken for this tracker's snapshots.
      const placed = placeOutput(ctx.book, r, p, 'history', `${part.endpoint.fn} ${name}`);
      // Each part gets its share of the cap (each account costs all parts).
      const share = Math.max(part.credits, Math.floor((cap * part.credits) / t.each));
      const s: Schedule = {
        ...newSchedule(ctx, request, p, placed, { repeat, cap: share, nextAt }),
        grow: true,
        label,
        owner: { kind: 'tracker', id, name },
      };
      made.push(s);
      parts.push({ scheduleId: s.id, endpoint: request.endpoint, fields: p.fields, history: placed.outSheet });
    }
    const tracker: Tracker = {
      id,
      name,
      source: { sheet: r.sheet, row: r.row, col: r.col },
      ...t.settings,
      parts,
      view: freeSheetName(ctx.book, viewName(name)),
      createdAt: new Date(ctx.now()).toISOString(),
    };
    // The view first: if it cannot be written, nothing is saved and nothing runs.
    refreshView(ctx, tracker);
    const jobs = jobStore(ctx.props);
    const started = made.map((s) => scheduledJob(ctx, s, null));
    started.forEach((job) => jobs.save(job));
    saveSchedules(ctx.props, [...schedules, ...made]);
    saveTrackers(ctx, [...trackers, tracker]);
    return { tracker, jobs: started };
  });
}

/** Rewrites the tracker's view from its history sheets and the column as it is now. */
export function refreshView(ctx: Context, t: Tracker): void {
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
  const view = trackerView(accountsIn(ctx, t.source), histories, t.sortBy);
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

/** Rebuilds the tracker's view if its runs are over, then checks its alert rules on the run (alert-check.ts). */
function refreshWhenDone(ctx: Context, t: Tracker): void {
  if (running(ctx, t).length) return;
  ctx.lock.withLock(() => refreshView(ctx, t));
  checkAlerts(ctx, t, accountsIn(ctx, t.source));
}

/** A tracker as its schedules' owner: its view is rebuilt and its alerts checked once all its runs are over. */
export const TRACKER_OWNER: RunOwner = {
  afterRun(ctx, trackerId) {
    const t = findTracker(ctx, trackerId);
    if (t) refreshWhenDone(ctx, t);
  },
};

/** One step of a tracker's run from the sidebar; when its runs are over, its view is rebuilt (by TRACKER_OWNER). */
export function stepTracker(ctx: Context, id: string): { tracker: Tracker; jobs: BulkJob[]; done: boolean } {
  const t = findTracker(ctx, id);
  if (!t) throw new Error('This tracker was deleted; reopen the sidebar.');
  const part = t.parts.find((p) => jobStore(ctx.props).load(p.scheduleId)?.status === 'running');
  const job = part && jobStore(ctx.props).load(part.scheduleId);
  // Only its own schedules are stepped here, so its own hook is the only one needed.
  if (part && job) stepScheduled(ctx, { tracker: TRACKER_OWNER }, part.scheduleId, job.id);
  return { tracker: t, jobs: runsOf(ctx, t).filter((job): job is BulkJob => !!job), done: !running(ctx, t).length };
}

/** The sidebar's list: each tracker, its schedules' next run, and its runs. */
export function trackerViews(ctx: Context) {
  const schedules = loadSchedules(ctx.props);
  return loadTrackers(ctx).map((t) => {
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
      nextLabel: Number.isFinite(next) ? ctx.book.formatTime(next) : '',
      runs: runsOf(ctx, t),
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
