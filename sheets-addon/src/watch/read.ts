/**
 * Reading what is new on a watched tag (or location): its recent posts, newest first, page by
 * page, stopping at the newest post the last run saw (the spec's way to monitor a hashtag, §4 rule
 * 4). Every page is read once: a run that reaches its credit cap keeps the cursor of the page it
 * did not read, and the next run goes on from there (the gap) before reading from the top again.
 */
import type { AnyIgError, EndpointDef } from '@igdata/core';
import { estimateCost, isIgError, prepare, driveSync, send, stopsBulkRun } from '@igdata/core';
import type { SheetsClient } from '../engine/deps';

export type Post = Record<string, unknown>;

/** A post by its id and time: where a reading stops. */
export interface Mark {
  id: string;
  at: string;
}

/** What a watch remembers of one target between runs. */
export interface TargetState {
  /** The newest post read so far: a reading from the top stops there. */
  seen?: Mark;
  /**
   * A reading a cap (or a failed page) cut: the page to read next, where to stop, and the sheet row
   * its older posts go above.
   */
  gap?: { cursor: string; stop?: Mark; row: number };
}

/** What one reading got: posts newest first, and whether it stopped short (cursor: the page not read). */
interface Reading {
  posts: Post[];
  pages: number;
  credits: number;
  /** The page to read next when it stopped short; null: from the top. */
  cursor: string | null;
  /** Stopped before its stop or the list's end: the cap, or a failed page. */
  short: boolean;
  error?: AnyIgError;
}

const markOf = (p: Post): Mark => ({ id: String(p.id), at: String(p.taken_at) });

/** At or past the stop: the seen post itself, or one older than it (the seen post may have been deleted). */
const reached = (p: Post, stop: Mark | undefined): boolean =>
  !!stop && (String(p.id) === stop.id || String(p.taken_at) < stop.at);

/**
 * Pages from `cursor` (null: the top) until the stop, the end of the list, the first page only
 * (`firstOnly`: a new watch starts from the newest page, not the tag's whole past), a failed page,
 * or before a page that would pass `room` credits.
 */
function readPages(
  client: SheetsClient,
  e: EndpointDef,
  params: Record<string, unknown>,
  from: string | null,
  stop: Mark | undefined,
  room: number,
  firstOnly: boolean,
): Reading {
  const price = estimateCost(e, params as never).credits;
  const r: Reading = { posts: [], pages: 0, credits: 0, cursor: from, short: true };
  for (;;) {
    if (r.credits + price > room) return r;
    let page;
    try {
      page = driveSync(
        send(client.config, prepare(e.id, r.cursor ? { ...params, cursor: r.cursor } : params)),
        client.io,
      );
    } catch (err) {
      if (!isIgError(err)) throw err;
      r.credits += err.charged;
      return { ...r, error: err };
    }
    r.pages++;
    r.credits += page.creditsCharged;
    const end = page.items.findIndex((p) => reached(p, stop));
    r.posts.push(...(end < 0 ? page.items : page.items.slice(0, end)));
    const next = end < 0 && !firstOnly ? page.nextCursor : null;
    if (!next) return { ...r, short: false };
    r.cursor = next;
  }
}

/** A target's run: its new posts for the gap (older, go above `gap.row`) and from the top (appended). */
export interface TargetRead {
  gapPosts: Post[];
  newPosts: Post[];
  pages: number;
  credits: number;
  /** Stopped short (the cap or a failure): the next run continues. */
  short: boolean;
  /** Stopped within the gap: nothing was read from the top, and `next` keeps the gap's row. */
  gapOpen: boolean;
  error?: AnyIgError;
  /** The state after the run, once its rows are written; `newRow` is filled in by the writer. */
  next: (newRow: number) => TargetState;
}

/** Reads a target's new posts within `room` credits: the gap a capped run left first, then from the top. */
export function readTarget(
  client: SheetsClient,
  e: EndpointDef,
  params: Record<string, unknown>,
  state: TargetState,
  room: number,
): TargetRead {
  let { seen, gap } = state;
  const out: TargetRead = {
    gapPosts: [],
    newPosts: [],
    pages: 0,
    credits: 0,
    short: false,
    gapOpen: false,
    next: () => ({ seen, gap }),
  };
  const add = (r: Reading) => {
    out.pages += r.pages;
    out.credits += r.credits;
    if (r.error) out.error = r.error;
  };
  if (gap) {
    const g = readPages(client, e, params, gap.cursor, gap.stop, room, false);
    add(g);
    out.gapPosts = g.posts;
    gap = g.short ? { ...gap, cursor: g.cursor ?? gap.cursor } : undefined;
    if (gap) {
      out.short = out.gapOpen = true;
      return out;
    }
  }
  const top = readPages(client, e, params, null, seen, room - out.credits, !seen);
  add(top);
  out.newPosts = top.posts;
  out.short = top.short;
  const stop = seen;
  if (top.posts.length) seen = markOf(top.posts[0]);
  // Cut short after a page from the top: the posts between where it stopped and the old stop are the next gap.
  const cut = top.short && top.cursor ? top.cursor : null;
  out.next = (newRow) => ({ seen, gap: cut ? { cursor: cut, stop, row: newRow } : undefined });
  return out;
}

/** Whether the error stops the whole run (a refused key, an empty balance), not only this target. */
export const stopsRun = (e: AnyIgError | undefined): boolean => !!e && stopsBulkRun(e);
