/**
 * Reading what is new on a watched tag (or location) with core's feed rule (core/src/feed.ts):
 * its recent posts, newest first, until the newest post the last run read; a run that reaches its
 * credit cap (or a failed page) leaves a gap, which the next run reads before anything else. What
 * is the watch's own: the state as it is stored in the watches' document property (one small mark
 * per target, the 9 KB a value allows shared by every watch) and the sheet row a gap's older posts
 * go above.
 */
import type { AnyIgError, EndpointDef, FeedBoundary, FeedState } from '@igdata/core';
import { driveSync, estimateCost, feedOp, isIgError, prepare, stopsBulkRun } from '@igdata/core';
import type { SheetsClient } from '../engine/deps';

export type Post = Record<string, unknown>;

/** A post by its id and time: where a reading stops. */
export interface Mark {
  id: string;
  at: string;
  /** Other posts read at the same instant (`at`): told apart from newer ones by their ids alone. */
  ties?: string[];
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

/** A stored mark as the rule's boundary (a mark written before `ties` existed reads the same). */
function boundaryOf(m: Mark | undefined): FeedBoundary {
  if (!m) return { seen: [] };
  const newest = Date.parse(m.at);
  const seen = [m.id, ...(m.ties ?? [])].filter(Boolean);
  return Number.isFinite(newest) ? { seen, newest } : { seen };
}

/** The rule's boundary as a stored mark; none for a feed that was empty (the next run starts as a new watch's). */
function markOf(b: FeedBoundary): Mark | undefined {
  if (!b.seen.length && b.newest === undefined) return undefined;
  const [id = '', ...ties] = b.seen;
  return { id, at: b.newest === undefined ? '' : new Date(b.newest).toISOString(), ...(ties.length ? { ties } : {}) };
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

/**
 * Reads a target's new posts within `room` credits: the gap a capped run left, else from the top
 * (a new watch: its newest page).
 */
export function readTarget(
  client: SheetsClient,
  e: EndpointDef,
  params: Record<string, unknown>,
  state: TargetState,
  room: number,
): TargetRead {
  const stored: FeedState | undefined = state.seen
    ? {
        head: boundaryOf(state.seen),
        ...(state.gap ? { gap: { cursor: state.gap.cursor, until: boundaryOf(state.gap.stop) } } : {}),
      }
    : undefined;
  const r = driveSync(
    feedOp(client.config, prepare(e.id, params), stored, {
      maxCredits: room,
      pageCost: estimateCost(e, params as never).credits,
    }),
    client.io,
  );
  const gapOpen = r.behind && !r.newGap;
  const out: TargetRead = {
    gapPosts: r.older,
    newPosts: r.newer,
    pages: r.pages,
    credits: r.credits,
    short: r.short !== undefined,
    gapOpen,
    next: (newRow) => {
      if (!r.state) return state;
      const gap = r.state.gap;
      return {
        seen: markOf(r.state.head),
        gap: gap && {
          cursor: gap.cursor,
          stop: markOf(gap.until),
          row: gapOpen && state.gap ? state.gap.row : newRow,
        },
      };
    },
  };
  if (r.failure && isIgError(r.failure)) out.error = r.failure;
  return out;
}

/** Whether the error stops the whole run (a refused key, an empty balance), not only this target. */
export const stopsRun = (e: AnyIgError | undefined): boolean => !!e && stopsBulkRun(e);
