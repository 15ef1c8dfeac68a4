/**
 * A feed's posts and where a poll stands in it: a post's id and time, and the boundary of what was
 * handled (the most recent ids seen, the newest `taken_at`). A post is handled when it is seen or
 * older than the newest handled; the second test is what recognises old posts when the last seen
 * post was deleted.
 */

export type Post = Record<string, unknown> & { id?: unknown; taken_at?: unknown };

export interface Page {
  items: Post[];
  nextCursor: string | null;
}

export interface Boundary {
  seen: string[];
  /** Milliseconds since epoch of the newest post handled; absent when the feed was empty. */
  newest?: number;
}

const SEEN_MAX = 200;

export const idOf = (p: Post): string => String(p.id ?? '');
const timeOf = (p: Post): number => {
  const t = typeof p.taken_at === 'string' || typeof p.taken_at === 'number' ? Date.parse(String(p.taken_at)) : NaN;
  return Number.isFinite(t) ? t : NaN;
};

/** Whether a post is at or beyond a boundary (already handled): seen, or older than the newest handled. */
export function reached(p: Post, b: Boundary): boolean {
  if (b.seen.includes(idOf(p))) return true;
  const t = timeOf(p);
  return b.newest !== undefined && Number.isFinite(t) && t < b.newest;
}

export function boundaryOf(posts: Post[], previous?: Boundary): Boundary {
  const times = posts.map(timeOf).filter(Number.isFinite);
  const newest = Math.max(previous?.newest ?? -Infinity, ...times);
  const seen = [...posts.map(idOf), ...(previous?.seen ?? [])].filter((id, i, all) => id && all.indexOf(id) === i);
  // Keep every id at the newest instant (ties must stay recognisable), then the most recent others.
  const atNewest = posts.filter((p) => timeOf(p) === newest).map(idOf);
  const kept = [...new Set([...atNewest, ...seen.slice(0, SEEN_MAX)])];
  return Number.isFinite(newest) ? { seen: kept, newest } : { seen: kept };
}

/** The `n` newest posts of a page, oldest first (a pinned older post at the head is not among them). */
export function newestOf(posts: Post[], n: number): Post[] {
  const time = (p: Post) => (Number.isFinite(timeOf(p)) ? timeOf(p) : -Infinity);
  return posts
    .map((p, i) => ({ p, i }))
    .sort((a, b) => time(b.p) - time(a.p) || a.i - b.i)
    .slice(0, n)
    .map(({ p }) => p)
    .reverse();
}
