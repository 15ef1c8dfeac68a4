/**
 * The trigger's polls over core's feed rule (core/src/feed.ts: newest first to the posts read last,
 * pinned posts, a deleted last post, a bounded reading leaving a gap the next poll reads). What is
 * the trigger's own: the state as n8n keeps it in the workflow's static data, and what comes out.
 * The first poll only records where the feed stands; a later one emits the new posts oldest first.
 * Only a poll that read nothing throws (nothing was paid for); one whose later page failed emits
 * what it read, and the next poll resumes at the failed page.
 *
 * The stored state keeps the names it had before the rule moved to core (`backlog`, `emitted`;
 * a `failed` mark on an older backlog is read and no longer needed), so a workflow's static data
 * reads as it was.
 */
import type { FeedAnswer, FeedBoundary, FeedReading, FeedState, FeedWant } from '@igdata/core';
import { readFeed } from '@igdata/core';
import type { Page, Post } from './feed';

export interface PollState {
  /** Which feed this state belongs to (`requestKey`); another feed starts afresh. */
  feed: string;
  head: FeedBoundary;
  /** Unread older part of an earlier poll that hit the page bound (or a failed page). */
  backlog?: { cursor: string; until: FeedBoundary; failed?: true };
  /** Ids emitted recently, to drop the repeats a shifted cursor can bring back. */
  emitted: string[];
}

export interface PollResult {
  emit: Post[];
  state: PollState;
  pages: number;
  /** True when the page bound (or a failed page) stopped this poll before it met the last seen post. */
  behind: boolean;
  /** A page that failed after this poll had paid for others: the posts read are emitted all the same. */
  failure?: Error;
}

/** Ids of the most recent posts the boundary keeps (posts without a time are known by these alone). */
const SEEN_MAX = 200;
const EMITTED_MAX = 1000;

type FetchPage = (cursor: string | null) => Promise<Page>;

/** Drives a reading with the trigger's page reader; its errors are the pages' answers. */
async function read(state: FeedState | undefined, fetchPage: FetchPage, maxPages: number): Promise<FeedReading> {
  const reading = readFeed(state, { maxPages, seenMax: SEEN_MAX, recentMax: EMITTED_MAX });
  for (let s = reading.next(); ;) {
    if (s.done) return s.value;
    const want: FeedWant = s.value;
    const answer: FeedAnswer = await fetchPage(want.cursor).then(
      (page) => ({ ...page, creditsCharged: 0 }),
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    );
    s = reading.next(answer);
  }
}

/** First poll: record where the feed stands, emit nothing. */
export async function markFeed(feed: string, fetchPage: FetchPage): Promise<PollState> {
  const r = await read(undefined, fetchPage, 1);
  if (!r.state) throw r.failure;
  return { feed, head: r.state.head, emitted: [] };
}

/** A later poll: new posts since the state, oldest first, within `maxPages` pages. */
export async function pollFeed(state: PollState, fetchPage: FetchPage, maxPages: number): Promise<PollResult> {
  const { backlog } = state;
  const stored: FeedState = {
    head: state.head,
    recent: state.emitted,
    ...(backlog ? { gap: { cursor: backlog.cursor, until: backlog.until } } : {}),
  };
  const r = await read(stored, fetchPage, maxPages);
  if (r.failure && r.pages === 0) throw r.failure;
  const next = r.state as FeedState;
  const result: PollResult = {
    emit: [...r.older.slice().reverse(), ...r.newer.slice().reverse()],
    pages: r.pages,
    behind: r.behind,
    state: {
      feed: state.feed,
      head: next.head,
      ...(next.gap ? { backlog: next.gap } : {}),
      emitted: next.recent ?? [],
    },
  };
  if (r.failure) result.failure = r.failure;
  return result;
}
