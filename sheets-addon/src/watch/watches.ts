/**
 * "Watch a hashtag": tags (or a location), hourly or daily, a credit cap per run. Each run appends
 * the posts new since the last run to the watch's sheet (read.ts says how they are read), oldest
 * first, one row a post: a thumbnail, time, where it was seen, author, caption, likes, comments,
 * link and id. Watches live in one document property, with their own timing (schedule/when.ts)
 * and costs; the hourly trigger runs the ones due (WATCH_OWNER's `due`, listed in owners.ts). A watch
owns no schedule: it has no column of targets for a bulk run.
 */
import type { EndpointDef } from '@igdata/core';
import {
  counted,
  estimateCost,
  getEndpoint,
  isIgError,
  isQuotaError,
  joinName,
  prepare,
  driveSync,
  send,
} from '@igdata/core';
import { freeSheetName, writeBlock } from '../bulk/grid';
import { QUOTA_WAIT_MS } from '../bulk/job';
import { readBalance } from '../engine/balance';
import { jsonList } from '../engine/json';
import { messageOf } from '../engine/messages';
import type { Context } from '../context/context';
import type { RunOwner } from '../schedule/owner';
import { PROP } from '../context/property-names';
import { isPropertiesQuota } from '../context/store-quota';
import { recordUsage } from '../context/usage-log';
import { nextRun } from '../schedule/schedules';
import type { Repeat } from '../schedule/when';
import { describeRepeat, readRepeat, runsPerMonth, wholeNumber } from '../schedule/when';
import type { Post, TargetState } from './read';
import { readTarget, stopsRun } from './read';
import { HEADER, ID_COL, fresh, writePosts } from './rows';

const MAX_WATCHES = 5;
const MAX_TARGETS = 10;
/** Pages are read one after another: 100 fit one execution of the hourly trigger with room to spare. */
const MAX_CAP = 100;
/** The part of the trigger's 6 minutes in which watches start (the bulk steps after them get the rest). */
const WATCH_BUDGET_MS = 120000;

export interface Watch {
  id: string;
  name: string;
  endpoint: string;
  targets: string[];
  repeat: Repeat;
  cap: number;
  sheet: string;
  nextAt: number;
  createdAt: string;
  state: Record<string, TargetState>;
  /** The target the next run starts with (the first one the last run did not finish). */
  from?: number;
  last?: {
    at: string;
    rows: number;
    pages: number;
    credits: number;
    message?: string;
    /** It met Google's daily URL Fetch quota: no run before this instant (epoch ms), when the quota has freed up. */
    resumeAt?: number;
  };
}

export interface WatchRequest {
  tags?: string;
  location?: string;
  every?: unknown;
  /** A daily watch's hour (0-23, the spreadsheet's zone). */
  hour?: unknown;
  cap?: unknown;
  name?: string;
}

/** The watch's endpoint and its targets, checked by the core as any call's are (a clear message, nothing saved). */
function readTargets(req: WatchRequest): { e: EndpointDef; targets: string[] } {
  const loc = String(req.location ?? '').trim();
  const e = getEndpoint(loc ? 'location/posts' : 'hashtag/recent');
  const name = e.params[0].name;
  const raw = loc
    ? [loc]
    : String(req.tags ?? '')
        .split(/[\s,]+/)
        .filter(Boolean);
  if (!raw.length) throw new Error('Tags: type one or more hashtags (like veganrecipes, #travel), or a location id.');
  if (raw.length > MAX_TARGETS) throw new Error(`Tags: at most ${MAX_TARGETS} a watch; got ${raw.length}.`);
  const targets = raw.map((t) => {
    try {
      return String(prepare(e.id, { [name]: t }).params[name]);
    } catch (err) {
      throw new Error(`${loc ? 'Location' : 'Tags'}: ${err instanceof Error ? err.message : String(err)}`);
    }
  });
  return { e, targets: [...new Set(targets)] };
}

function readWatch(req: WatchRequest) {
  const { e, targets } = readTargets(req);
  const repeat = readRepeat({ every: req.every ?? 'hourly', hour: req.hour ?? 7 }, ['hourly', 'daily']);
  const price = estimateCost(e, {}).credits;
  const cap = wholeNumber(
    req.cap ?? 10,
    price,
    MAX_CAP,
    `Credit cap per run: a whole number from ${price} (one page) to ${MAX_CAP}`,
  );
  return {
    e,
    targets,
    repeat,
    cap,
    name: String(req.name ?? '')
      .trim()
      .slice(0, 60),
  };
}

export const loadWatches = (ctx: Pick<Context, 'props'>): Watch[] => jsonList(ctx.props.get(PROP.watches)) as Watch[];
const saveWatches = (ctx: Pick<Context, 'props'>, list: Watch[]) => ctx.props.set(PROP.watches, JSON.stringify(list));

const label = (w: Pick<Watch, 'endpoint' | 'targets'>): string =>
  w.endpoint === 'location/posts' ? `location ${w.targets[0]}` : w.targets.map((t) => `#${t}`).join(' ');

/** Posts an hour on the target's newest page (from the first and last post's times). */
function velocity(items: Post[]): number {
  const times = items.map((p) => Date.parse(String(p.taken_at))).filter(Number.isFinite);
  const span = times.length > 1 ? Math.max(...times) - Math.min(...times) : 0;
  return span > 0 ? ((times.length - 1) * 3600000) / span : 0;
}

/**
 * What a watch would cost per run and per month, from each target's newest page (read now: it costs
 * what a page costs).
 */
export function previewWatch(ctx: Context, req: WatchRequest) {
  const w = readWatch(req);
  const price = estimateCost(w.e, {}).credits;
  const hours = w.repeat.every === 'hourly' ? 1 : 24;
  let spent = 0;
  let targets;
  try {
    targets = w.targets.map((t) => {
      try {
        const page = driveSync(send(ctx.client.config, prepare(w.e.id, { [w.e.params[0].name]: t })), ctx.client.io);
        spent += page.creditsCharged;
        const perHour = velocity(page.items);
        // A run reads the pages its new posts fill, and the one holding the last post seen.
        return {
          label: label({ endpoint: w.e.id, targets: [t] }),
          perHour: Math.round(perHour * 10) / 10,
          pages: Math.max(1, Math.ceil((perHour * hours + 1) / (w.e.pageSize ?? 1))),
        };
      } catch (err) {
        if (!isIgError(err)) throw err;
        spent += err.charged;
        throw new Error(`${label({ endpoint: w.e.id, targets: [t] })}: ${messageOf(err)}`);
      }
    });
  } finally {
    if (spent) ctx.lock.withLock(() => recordUsage(ctx, 'Watch preview', spent));
  }
  const uncapped = targets.reduce((n, t) => n + t.pages * price, 0);
  const perRun = Math.min(uncapped, w.cap);
  const b = readBalance(ctx.client);
  return {
    what: label({ endpoint: w.e.id, targets: w.targets }),
    targets,
    uncapped,
    perRun,
    perMonth: Math.ceil(perRun * runsPerMonth(w.repeat)),
    when: describeRepeat(w.repeat),
    previewCredits: spent,
    balance: b.ok ? b.balance : undefined,
  };
}

/**
 * One run of a watch (under the document lock): new posts appended, a capped reading's gap filled in
 * place; its record saved.
 */
function runWatch(ctx: Context, w: Watch): Watch {
  const sheet = ctx.book.sheet(w.sheet) ?? ctx.book.insertSheet(w.sheet);
  if (sheet.lastRow() < 1) writeBlock(sheet, 1, 1, [HEADER]);
  const n = sheet.lastRow() - 1;
  const have = new Set(n > 0 ? sheet.read(2, ID_COL, n, 1).map((r) => String(r[0])) : []);
  const e = getEndpoint(w.endpoint);
  const prefix = w.endpoint === 'location/posts' ? 'location ' : '#';
  const added: { p: Post; from: string }[] = [];
  const cut: { target: string; next: (row: number) => TargetState }[] = [];
  let pages = 0;
  let credits = 0;
  let rows = 0;
  let message: string | undefined;
  // From the target the last run did not finish: a cap lower than the targets' pages serves them in turn.
  const from = Math.min(w.from ?? 0, w.targets.length - 1);
  let unfinished: string | undefined;
  let resumeAt: number | undefined;
  for (const target of [...w.targets.slice(from), ...w.targets.slice(0, from)]) {
    if (credits >= w.cap) {
      unfinished ??= target;
      message = `Stopped at this run's cap of ${counted(w.cap, 'credit')}: the next run goes on.`;
      break;
    }
    const r = readTarget(ctx.client, e, { [e.params[0].name]: target }, w.state[target] ?? {}, w.cap - credits);
    pages += r.pages;
    credits += r.credits;
    const gap = w.state[target]?.gap;
    const older = fresh(
      r.gapPosts.map((p) => ({ p, from: target })),
      have,
    );
    if (gap && older.length) {
      // Older than the rows the capped run wrote: they go above them, and every gap below moves down.
      sheet.insertRowsAfter(gap.row - 1, older.length);
      writePosts(sheet, gap.row, older, prefix);
      for (const [t, s] of Object.entries(w.state))
        if (t !== target && s.gap && s.gap.row >= gap.row) s.gap.row += older.length;
      rows += older.length;
    }
    // A gap still open keeps its row, which later insertions above it move (the loop above).
    if (r.gapOpen) w.state[target] = r.next(0);
    else cut.push({ target, next: r.next });
    added.push(...r.newPosts.map((p) => ({ p, from: target })));
    if (r.short) unfinished ??= target;
    if (r.short)
      message = r.error
        ? `${prefix}${target}: ${messageOf(r.error)}`
        : `Stopped at this run's cap of ${counted(w.cap, 'credit')}: the next run goes on where it stopped.`;
    if (r.error && isQuotaError(r.error)) {
      // Its place is kept (from, the gaps): it waits out the day instead of meeting the quota every hour.
      resumeAt = ctx.now() + QUOTA_WAIT_MS;
      message += ` The watch goes on at its first run after ${ctx.book.formatTime(resumeAt)}.`;
    }
    if (stopsRun(r.error)) break;
  }
  if (unfinished) w.from = w.targets.indexOf(unfinished);
  const block = fresh(added, have);
  const at = sheet.lastRow() + 1;
  writePosts(sheet, at, block, prefix);
  rows += block.length;
  for (const { target, next } of cut) {
    // A reading cut short from the top: its older posts go above the first of its rows written now.
    const first = block.findIndex((x) => x.from === target);
    w.state[target] = next(first < 0 ? at + block.length : at + first);
  }
  w.last = {
    at: new Date(ctx.now()).toISOString(),
    rows,
    pages,
    credits,
    ...(message ? { message } : {}),
    ...(resumeAt ? { resumeAt } : {}),
  };
  if (credits) recordUsage(ctx, joinName('Watch', w.name), credits);
  return w;
}

/** Creates a watch and runs it once now (its newest page per target: the rows start there). */
export function createWatch(ctx: Context, req: WatchRequest): Watch {
  const r = readWatch(req);
  return ctx.lock.withLock(() => {
    const list = loadWatches(ctx);
    if (list.length >= MAX_WATCHES) throw new Error(`A sheet holds at most ${MAX_WATCHES} watches: delete one first.`);
    const name = r.name || label({ endpoint: r.e.id, targets: r.targets });
    if (list.some((x) => x.name === name))
      throw new Error(`Name: a watch named "${name}" exists already: choose another name.`);
    const w: Watch = {
      id: ctx.newId(),
      name,
      endpoint: r.e.id,
      targets: r.targets,
      repeat: r.repeat,
      cap: r.cap,
      sheet: freeSheetName(ctx.book, joinName('IG Data watch', name)),
      nextAt: nextRun(ctx.book, r.repeat, ctx.now()),
      createdAt: new Date(ctx.now()).toISOString(),
      state: {},
    };
    saveWatches(ctx, [...list, runWatch(ctx, w)]);
    return w;
  });
}

/** The hourly trigger's part: every watch that came due runs once, then waits for its next time. */
function runDueWatches(ctx: Context): void {
  const now = ctx.now();
  if (!loadWatches(ctx).some((w) => w.nextAt <= now)) return; // most hours of daily watches: no lock taken
  ctx.lock.withLock(() => {
    const list = loadWatches(ctx);
    for (const w of list) {
      if (w.nextAt > now) continue;
      // Watches not started within the budget stay due: the next hour's trigger runs them.
      if (ctx.now() - now > WATCH_BUDGET_MS) break;
      try {
        runWatch(ctx, w);
      } catch (e) {
        if (isPropertiesQuota(e)) throw e; // nothing can be saved now: the watch waits (gas/quota-pause.ts)
        w.last = {
          at: new Date(now).toISOString(),
          rows: 0,
          pages: 0,
          credits: 0,
          message: e instanceof Error ? e.message : String(e),
        };
      }
      w.nextAt = nextRun(ctx.book, w.repeat, Math.max(now, w.last?.resumeAt ?? 0));
      saveWatches(ctx, list); // each run's state as soon as its rows are written
    }
  });
}

/** Watches as an owner of runs (owners.ts): the hourly trigger runs the ones that came due. */
export const WATCH_OWNER: RunOwner = { due: runDueWatches };

/** The sidebar's list. */
export const watchViews = (ctx: Context) =>
  loadWatches(ctx).map((w) => ({
    id: w.id,
    name: w.name,
    what: label(w),
    sheet: w.sheet,
    when: describeRepeat(w.repeat),
    cap: w.cap,
    nextLabel: ctx.book.formatTime(w.nextAt),
    last: w.last,
    lastLabel: w.last ? ctx.book.formatTime(Date.parse(w.last.at)) : '',
  }));

/** Deletes a watch; its sheet stays (the sidebar asks first). */
export function deleteWatch(ctx: Context, id: string): void {
  ctx.lock.withLock(() =>
    saveWatches(
      ctx,
      loadWatches(ctx).filter((w) => w.id !== id),
    ),
  );
}
