/** How list endpoints cut their answers into pages, and where each page resumes. */
import { byTimeDesc } from './world/build';
import type { Post } from './world/records';
import { Cursors } from './cursors';
import { badParam } from './errors';
import { list, listOf, postJson, type Raw } from './json';
import type { Ctx } from './routes';
import { getEndpoint } from '@igdata/core';

/** Page sizes come from the registry (one source of truth with the Sheets cost preview). */
const sizeOf = (id: string): number => getEndpoint(id).pageSize as number;
export const PAGE_SIZE = {
  followers: sizeOf('profile/followers'),
  following: sizeOf('profile/following'),
  posts: sizeOf('profile/posts'),
  reels: sizeOf('profile/reels'),
  comments: sizeOf('post/comments'),
  hashtag: sizeOf('hashtag/recent'),
  location: sizeOf('location/posts'),
} as const;
export const SEARCH_LIMIT = 30;

const scopeOf = (ctx: Ctx, target: string) => `${ctx.endpoint.id}:${target}`;

export class Pager {
  private readonly cursors: Cursors;

  constructor(seed: number) {
    this.cursors = new Cursors(seed);
  }

  /** Fixed lists (followers, comments, top posts) page by position. */
  offset<T>(ctx: Ctx, target: string, items: T[], size: number): { page: T[]; next: string | null } {
    const scope = scopeOf(ctx, target);
    const pos = this.cursors.decode(scope, ctx.params.cursor as string | undefined);
    const start = pos === null ? 0 : Number(pos.replace(/^o/, ''));
    if (!Number.isInteger(start) || start < 0) throw badParam('cursor', 'cursor is not valid for this request.');
    const page = items.slice(start, start + size);
    const end = start + page.length;
    return { page, next: end < items.length ? this.cursors.encode(scope, `o${end}`) : null };
  }

  offsetList<T>(ctx: Ctx, target: string, items: T[], size: number) {
    const { page, next } = this.offset(ctx, target, items, size);
    return list(page, next);
  }

  /**
   * Time-ordered lists page by "older than the last item seen", robust to new and deleted posts.
   * `pinned` posts (not in `items`) come first on the first page, within its size.
   */
  keyed(ctx: Ctx, target: string, items: Post[], size: number, pinned: Post[] = []): Raw {
    const scope = scopeOf(ctx, target);
    const pos = this.cursors.decode(scope, ctx.params.cursor as string | undefined);
    let start = 0;
    if (pos !== null) {
      const m = /^k(\d+)_(\d+)$/.exec(pos);
      if (!m) throw badParam('cursor', 'cursor is not valid for this request.');
      const key = { t: Number(m[1]), id: m[2] } as Post;
      let lo = 0;
      let hi = items.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (byTimeDesc(items[mid], key) <= 0) lo = mid + 1;
        else hi = mid;
      }
      start = lo;
    }
    const head = pos === null ? pinned.slice(0, size) : [];
    const page = items.slice(start, start + size - head.length);
    const last = page[page.length - 1];
    const next =
      start + page.length < items.length && last ? this.cursors.encode(scope, `k${last.t}_${last.id}`) : null;
    return listOf([...head, ...page], next, postJson);
  }
}
