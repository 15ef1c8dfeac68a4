/**
 * Where a feed reading stops: a post's id and time, and the boundary of what was read (the ids of
 * the newest posts read, the newest `taken_at`). A post is at or beyond the boundary (read before)
 * when its id is among them, or when it is older than the newest read: the second test is what
 * recognises old posts when the last post read was deleted, and what passes over the older pinned
 * posts a profile shows at the head of its feed.
 */
import type { Item } from './page-rule';

export interface FeedBoundary {
  /** Ids of the newest posts read, newest first: every one at `newest`, then up to a product's bound of others. */
  seen: string[];
  /** Milliseconds since epoch of the newest post read; absent when the feed was empty. */
  newest?: number;
}

export const postId = (p: Item): string => String(p.id ?? '');

function timeOf(p: Item): number {
  const t = p.taken_at;
  return typeof t === 'string' || typeof t === 'number' ? Date.parse(String(t)) : NaN;
}

const unique = (ids: string[]): string[] => [...new Set(ids)].filter(Boolean);

/** Whether a post was read before: seen, or older than the newest read. */
export function reached(p: Item, b: FeedBoundary): boolean {
  if (b.seen.includes(postId(p))) return true;
  const t = timeOf(p);
  return b.newest !== undefined && Number.isFinite(t) && t < b.newest;
}

/**
 * The boundary after reading `posts` (newest first) past `previous`. Every id at the newest instant
 * is kept, those read earlier at that same instant included: a post sharing the newest time is only
 * told apart by its id. Besides them, up to `others` ids of the most recent posts (posts without a
 * time are only recognised by these).
 */
export function boundaryOf(posts: Item[], previous: FeedBoundary | undefined, others: number): FeedBoundary {
  const times = posts.map(timeOf).filter(Number.isFinite);
  const newest = Math.max(previous?.newest ?? -Infinity, ...times);
  const atNewest = posts.filter((p) => timeOf(p) === newest).map(postId);
  const carried = previous && previous.newest === newest ? previous.seen : [];
  const recent = unique([...posts.map(postId), ...(previous?.seen ?? [])]).slice(0, others);
  const seen = unique([...atNewest, ...carried, ...recent]);
  return Number.isFinite(newest) ? { seen, newest } : { seen };
}

/**
 * The `n` newest posts of a page, newest first: a sample of what a reading gives (an older pinned
 * post at the head of a profile's feed is not among them).
 */
export function newestPosts(posts: Item[], n: number): Item[] {
  const time = (p: Item) => (Number.isFinite(timeOf(p)) ? timeOf(p) : -Infinity);
  return posts
    .map((p, i) => ({ p, i }))
    .sort((a, b) => time(b.p) - time(a.p) || a.i - b.i)
    .slice(0, n)
    .map(({ p }) => p);
}
