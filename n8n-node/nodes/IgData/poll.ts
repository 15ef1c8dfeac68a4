/**
 * The polling logic of the triggers, free of n8n. A feed is a list endpoint that returns posts
 * newest first (`hashtag/recent`, `profile/posts`). The state remembers where the feed stood:
 * - `seen`: ids of the most recent posts already handled (a bounded set, newest first);
 * - `newest`: the newest `taken_at` handled.
 * A new post is one not seen AND not older than `newest`; the second test is what recognises old
 * posts when the last seen post was deleted (no duplicates, no paging through the whole history).
 * Every page is read whole: a profile shows up to three older pinned posts at its head, which are
 * skipped, not a stop. A poll pages on while a page ends in a new post (core's page rule, with
 * "handled" as its predicate). Posts are emitted oldest first.
 * Pages per poll are bounded. When the bound is hit before the boundary, the posts read are emitted
 * and the rest is remembered as a backlog (the cursor to resume from and the old boundary), read on
 * the next polls before it can be forgotten: nothing is skipped, nothing emitted twice. A page that
 * fails after others of the same poll were paid for is treated the same way: what was read is
 * emitted and the failed page is where the backlog resumes; the next poll reads from there first,
 * without the head (which would pay for the first page again: posts published meanwhile come on
 * the poll after). Only a failure of a poll's first request is thrown (nothing was paid); when
 * that request is the resumed page, the poll reads the head instead, as an ordinary poll.
 */
import type { PagePlan } from '@igdata/core';
import { NOTHING_READ, afterPage, capBefore } from '@igdata/core';
import type { Boundary, Page, Post } from './feed';
import { boundaryOf, idOf, reached } from './feed';

export interface PollState {
  /** Which feed this state belongs to (`requestKey`); another feed starts afresh. */
  feed: string;
  head: Boundary;
  /** Unread older part of an earlier poll that hit the page bound. */
  backlog?: {
    cursor: string;
    until: Boundary;
    /** A page failed here: the next poll resumes here before reading the head. */ failed?: true;
  };
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
const EMITTED_MAX = 1000;

/** First poll: record where the feed stands, emit nothing. */
export async function markFeed(feed: string, fetchPage: (cursor: string | null) => Promise<Page>): Promise<PollState> {
  const page = await fetchPage(null);
  return { feed, head: boundaryOf(page.items), emitted: [] };
}

interface Reading {
  posts: Post[];
  pages: number;
  done: boolean;
  next: string | null;
  /** The page at `next` failed; the posts before it are kept. */
  failure?: Error;
}

/**
 * Read from `cursor` until a page that ends at or beyond `until`, the end of the feed, or `budget`
 * pages; returns the new posts, newest first. When to ask for the next page is the core's paging
 * rule, with "reached the boundary" as its predicate. A failed page ends the reading with what was
 * read before it, unless nothing of the poll was paid for yet (`paid` false, first page): then it
 * is thrown.
 */
async function readUntil(
  fetchPage: (cursor: string | null) => Promise<Page>,
  cursor: string | null,
  until: Boundary,
  budget: number,
  skip: Set<string>,
  paid: boolean,
): Promise<Reading> {
  // Credits are not capped here (pages are), so a page's cost does not enter the rule.
  const plan: PagePlan = { cap: { maxPages: budget, handled: (p) => reached(p, until) }, pageCost: 0, paginated: true };
  const posts: Post[] = [];
  if (capBefore(plan, NOTHING_READ)) return { posts, pages: 0, done: false, next: cursor };
  let read = NOTHING_READ;
  for (;;) {
    // The poll's first request: its failure is the poll's (nothing was paid). A later one ends the reading.
    const got =
      !paid && read.pages === 0
        ? await fetchPage(cursor)
        : await fetchPage(cursor).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
    if (got instanceof Error) return { posts, pages: read.pages, done: false, next: cursor, failure: got };
    const page = got;
    const decision = afterPage(plan, read, { ...page, creditsCharged: 0 });
    read = decision.read;
    for (const p of decision.taken) {
      const id = idOf(p);
      if (skip.has(id)) continue;
      skip.add(id);
      posts.push(p);
    }
    if ('next' in decision) cursor = decision.next;
    else if (decision.stop === 'pages') return { posts, pages: read.pages, done: false, next: decision.resume };
    else return { posts, pages: read.pages, done: true, next: null };
  }
}

/** A later poll: new posts since the state, oldest first, within `maxPages` pages. */
export async function pollFeed(
  state: PollState,
  fetchPage: (cursor: string | null) => Promise<Page>,
  maxPages: number,
): Promise<PollResult> {
  const skip = new Set(state.emitted);
  if (state.backlog?.failed) {
    const resumed = await resume(state, state.backlog, fetchPage, maxPages, skip);
    if (resumed) return resumed;
  }
  const head = await readUntil(fetchPage, null, state.head, maxPages, skip, false);
  let pages = head.pages;
  let failure = head.failure;
  let backlog = state.backlog;
  let older: Post[] = [];
  if (backlog && pages < maxPages && !failure) {
    const rest = await readUntil(fetchPage, backlog.cursor, backlog.until, maxPages - pages, skip, true);
    pages += rest.pages;
    older = rest.posts;
    failure = rest.failure;
    backlog = rest.done ? undefined : { cursor: rest.next as string, until: backlog.until };
  }
  if (!head.done) {
    // The head alone filled the budget (or a page of it failed): what lies between it and the old
    // boundary waits. With an older backlog still open, the new backlog reads down to the older
    // boundary: it passes the region already emitted (dropped by the emitted set) and covers both gaps.
    const until = backlog ? backlog.until : state.head;
    backlog = { cursor: head.next as string, until };
  }
  if (backlog && failure) backlog.failed = true;
  const emit = [...older.slice().reverse(), ...head.posts.slice().reverse()];
  const newHead = head.posts.length ? boundaryOf(head.posts, state.head) : state.head;
  const emitted = [...emit.map(idOf), ...state.emitted].filter(Boolean).slice(0, EMITTED_MAX);
  const result: PollResult = {
    emit,
    pages,
    behind: backlog !== undefined,
    state: { feed: state.feed, head: newHead, backlog, emitted },
  };
  if (failure) result.failure = failure;
  return result;
}

/**
 * The poll after a failed page: read from that page on, not the head. Undefined when its first
 * request fails too (nothing paid): the caller polls as usual, head first.
 */
async function resume(
  state: PollState,
  backlog: NonNullable<PollState['backlog']>,
  fetchPage: (cursor: string | null) => Promise<Page>,
  maxPages: number,
  skip: Set<string>,
): Promise<PollResult | undefined> {
  let rest: Reading;
  try {
    rest = await readUntil(fetchPage, backlog.cursor, backlog.until, maxPages, skip, false);
  } catch {
    return undefined;
  }
  const next = rest.done
    ? undefined
    : { cursor: rest.next as string, until: backlog.until, ...(rest.failure ? { failed: true as const } : {}) };
  const emit = rest.posts.slice().reverse();
  const emitted = [...emit.map(idOf), ...state.emitted].filter(Boolean).slice(0, EMITTED_MAX);
  const result: PollResult = {
    emit,
    pages: rest.pages,
    behind: next !== undefined,
    state: { feed: state.feed, head: state.head, backlog: next, emitted },
  };
  if (rest.failure) result.failure = rest.failure;
  return result;
}
