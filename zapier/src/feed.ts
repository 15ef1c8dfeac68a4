/**
 * Reading a feed (a list of posts newest first: `hashtag/recent`, `profile/posts`,
 * `location/posts`) for a polling trigger, on core's page rule. The state, kept in Zapier's
 * `z.cache`, is where the feed stood at the last check: the ids of the newest posts handled and
 * the newest `taken_at` (a post is handled when seen or older: that recognises old posts when the
 * last seen one was deleted, and pinned older posts at a profile's head), plus a backlog when a
 * burst was larger than a check's page bound. Every page is read whole; a check pages on while a
 * page ends in a new post (core's `afterPage` with "handled" as its predicate), so no page is paid
 * for twice and a burst is read to its end, over several checks if needed.
 *
 * Zapier deduplicates what a check returns by `id`; this file decides what is read, and so what
 * is paid. Kept in one file so it can move into core beside the n8n trigger's rule.
 */
import type { Item, PagePlan } from '@igdata/core';
import { NOTHING_READ, afterPage, capBefore } from '@igdata/core';

export interface Page {
  items: Item[];
  nextCursor: string | null;
}
type FetchPage = (cursor: string | null) => Promise<Page>;

interface Boundary {
  seen: string[];
  /** Milliseconds since epoch of the newest post handled; absent while the feed was empty. */
  newest?: number;
}

export interface FeedState {
  head: Boundary;
  /** The unread older part of a burst: read from `cursor` down to `until` on the next checks. */
  backlog?: { cursor: string; until: Boundary };
  /** When the feed was last read (ms since epoch): the "check at most every N minutes" rule. */
  checkedAt: number;
}

const SEEN_MAX = 100;
const idOf = (p: Item): string => String(p.id ?? '');
const timeOf = (p: Item): number => (typeof p.taken_at === 'string' ? Date.parse(p.taken_at) : NaN);
const reached = (p: Item, b: Boundary): boolean =>
  b.seen.includes(idOf(p)) || (b.newest !== undefined && timeOf(p) < b.newest);

function boundaryOf(posts: Item[], previous?: Boundary): Boundary {
  const newest = Math.max(previous?.newest ?? -Infinity, ...posts.map(timeOf).filter(Number.isFinite));
  const seen = [...new Set([...posts.map(idOf), ...(previous?.seen ?? [])])].filter(Boolean).slice(0, SEEN_MAX);
  return Number.isFinite(newest) ? { seen, newest } : { seen };
}

/**
 * Whether a check is due: at most one in each `everyMinutes` period of the clock. Periods, not
 * "N minutes since the last": with Zapier polling every 1, 2, 5 or 15 minutes each period gets
 * exactly one check, so the cost per day is 1,440 / N pages of nothing new, whatever the plan.
 */
export function isDue(state: FeedState, now: number, everyMinutes: number): boolean {
  const period = everyMinutes * 60_000;
  return Math.floor(now / period) > Math.floor(state.checkedAt / period);
}

/** The first page: where the feed stands now (Zapier's populating poll and a lost state). */
export async function markFeed(fetchPage: FetchPage, now: number): Promise<{ posts: Item[]; state: FeedState }> {
  const page = await fetchPage(null);
  return { posts: page.items, state: { head: boundaryOf(page.items), checkedAt: now } };
}

interface Reading {
  posts: Item[];
  pages: number;
  /** Where to go on (the page bound, or a failed page); null when the boundary or the feed's end was met. */
  next: string | null;
}

/** Pages from `cursor` until one ends at `until`, the end of the feed, or `budget` pages. New posts newest first. */
async function readUntil(fetchPage: FetchPage, cursor: string | null, until: Boundary, budget: number) {
  // Pages are capped here, not credits, so a page's cost does not enter the rule.
  const plan: PagePlan = { cap: { maxPages: budget, handled: (p) => reached(p, until) }, pageCost: 0, paginated: true };
  const reading: Reading = { posts: [], pages: 0, next: cursor };
  if (capBefore(plan, NOTHING_READ)) return reading;
  let read = NOTHING_READ;
  for (;;) {
    let page: Page;
    try {
      page = await fetchPage(cursor);
    } catch (e) {
      if (read.pages === 0) throw e; // nothing of this reading was paid for: the check fails
      return { ...reading, next: cursor }; // the pages before are kept; the failed one is read next time
    }
    const decision = afterPage(plan, read, { ...page, creditsCharged: 0 });
    read = decision.read;
    reading.posts.push(...decision.taken);
    reading.pages = read.pages;
    if ('next' in decision) cursor = decision.next;
    else return { ...reading, next: decision.stop === 'pages' ? decision.resume : null };
  }
}

/** A check: the new posts (newest first, the head's then the backlog's), within `maxPages` pages. */
export async function checkFeed(state: FeedState, fetchPage: FetchPage, maxPages: number, now: number) {
  const head = await readUntil(fetchPage, null, state.head, maxPages);
  let { pages } = head;
  let backlog = state.backlog;
  let older: Item[] = [];
  if (backlog && pages < maxPages && head.next === null) {
    const rest = await readUntil(fetchPage, backlog.cursor, backlog.until, maxPages - pages).catch(() => undefined);
    if (rest) {
      pages += rest.pages;
      older = rest.posts;
      backlog = rest.next === null ? undefined : { cursor: rest.next, until: backlog.until };
    }
  }
  // The head alone filled the bound: what lies between it and the old boundary (or an older
  // backlog's) waits for the next checks.
  if (head.next !== null) backlog = { cursor: head.next, until: backlog ? backlog.until : state.head };
  const next: FeedState = { head: boundaryOf(head.posts, state.head), checkedAt: now, ...(backlog ? { backlog } : {}) };
  const seen = new Set<string>();
  const posts = [...head.posts, ...older].filter((p) => !seen.has(idOf(p)) && seen.add(idOf(p)));
  return { posts, pages, state: next };
}
