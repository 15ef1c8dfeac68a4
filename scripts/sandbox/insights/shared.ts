/**
 * What both kinds of insight use: the "[sandbox]" mark every sentence starts with, rounding, a
 * post's engagement and an account's most frequent hashtags.
 */
import type { Post } from '../world/records';

export const SANDBOX = '[sandbox]';

export const r2 = (n: number) => Math.round(n * 100) / 100;

export const r1 = (n: number) => Math.round(n * 10) / 10;

export const r6 = (n: number) => Math.round(n * 1e6) / 1e6;

export const eng = (p: Post) => p.like_count + p.comment_count;

export const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0);

/** Most frequent hashtags of a set of posts (ties alphabetical). */
export function topTags(posts: Post[], n = 5): string[] {
  const counts = new Map<string, number>();
  for (const p of posts) for (const t of p.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts.entries()]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
    .slice(0, n)
    .map(([t]) => t);
}
