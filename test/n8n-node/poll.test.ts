/** The trigger's state machine (nodes/IgData/poll.ts) on a scripted feed: edge cases real polls rarely hit. */
import type { Page, Post } from '../../n8n-node/nodes/IgData/feed';
import { pollFeed, markFeed } from '../../n8n-node/nodes/IgData/poll';

/**
 * A feed newest first, paged by "older than the last item", like the sandbox's keyed cursors;
 * pinned posts (as a profile shows up to three) come first on the first page, in its size.
 */
function feed(size = 3) {
  let posts: Post[] = [];
  let pinned: Post[] = [];
  let clock = Date.parse('2025-01-01T00:00:00Z');
  let requests = 0;
  /** Requests (1 = the first) that fail, as a 502 after its retries does. */
  const failing = new Set<number>();
  const cursors: (string | null)[] = [];
  return {
    /** Pin these posts: shown first on the first page, out of their place in the feed. */
    pin(ps: Post[]) {
      pinned = ps;
    },
    failRequest(n: number) {
      failing.add(n);
    },
    cursors,
    publish(n: number, sameInstant = false) {
      const made = Array.from({ length: n }, () => {
        if (!sameInstant) clock += 1000;
        return { id: `p${clock}_${Math.random().toString(36).slice(2, 7)}`, taken_at: new Date(clock).toISOString() };
      });
      posts = [...made.reverse(), ...posts];
      return made; // newest first
    },
    remove(id: unknown) {
      posts = posts.filter((p) => p.id !== id);
    },
    get requests() {
      return requests;
    },
    fetch: async (cursor: string | null): Promise<Page> => {
      requests++;
      cursors.push(cursor);
      if (failing.has(requests)) throw new Error('The service answered 502 (not charged).');
      const rest = posts.filter((p) => !pinned.includes(p));
      const head = cursor === null ? pinned : [];
      const start = cursor === null ? 0 : rest.findIndex((p) => p.id === cursor) + 1;
      const items = [...head, ...rest.slice(start, start + size - head.length)];
      const end = start + size - head.length;
      return { items, nextCursor: end < rest.length ? String(items[items.length - 1].id) : null };
    },
  };
}
const ids = (ps: Post[]) => ps.map((p) => p.id);

test('first poll emits nothing; then new posts once, oldest first; quiet polls read one page', async () => {
  const f = feed();
  f.publish(10);
  let state = await markFeed('k', f.fetch);
  const fresh = f.publish(4);
  let r = await pollFeed(state, f.fetch, 5);
  expect(ids(r.emit)).toEqual(ids(fresh).reverse());
  state = r.state;
  const before = f.requests;
  r = await pollFeed(state, f.fetch, 5);
  expect(r.emit).toEqual([]);
  expect(f.requests - before).toBe(1);
});

test('posts sharing one taken_at with the newest seen are neither lost nor repeated', async () => {
  const f = feed();
  f.publish(5);
  let state = await markFeed('k', f.fetch);
  const tie = f.publish(2, true); // same instant as the newest seen post
  let r = await pollFeed(state, f.fetch, 5);
  expect(ids(r.emit)).toEqual(ids(tie).reverse());
  state = r.state;
  r = await pollFeed(state, f.fetch, 5);
  expect(r.emit).toEqual([]);
});

test('deleted seen posts (even all of the newest page) stop the poll by taken_at', async () => {
  const f = feed();
  f.publish(20);
  const state = await markFeed('k', f.fetch);
  for (const p of (await f.fetch(null)).items) f.remove(p.id); // the whole first page is gone
  const fresh = f.publish(2);
  const before = f.requests;
  const r = await pollFeed(state, f.fetch, 10);
  expect(ids(r.emit)).toEqual(ids(fresh).reverse());
  expect(f.requests - before).toBe(1);
});

test('two bursts larger than the page bound are caught up over later polls without gaps or repeats', async () => {
  const f = feed(3);
  f.publish(5);
  let state = await markFeed('k', f.fetch);
  const a = f.publish(10);
  let r = await pollFeed(state, f.fetch, 2); // 6 of 10
  const got = [...ids(r.emit)];
  expect(r.behind).toBe(true);
  state = r.state;
  const b = f.publish(8); // a second burst before the first is caught up
  for (let i = 0; i < 10 && (i === 0 || r.behind || r.emit.length); i++) {
    r = await pollFeed(state, f.fetch, 2);
    got.push(...ids(r.emit));
    state = r.state;
  }
  expect(r.behind).toBe(false);
  expect(new Set(got).size).toBe(got.length);
  expect([...got].sort()).toEqual([...ids(a), ...ids(b)].sort());
});

test.each([1, 2, 3])(
  '%i pinned older posts at the head of the first page: each new post is emitted once, in order, across polls and bursts',
  async (pins) => {
    const f = feed(12);
    const old = f.publish(40); // newest first
    f.pin(old.slice(-pins)); // the oldest posts, pinned
    let state = await markFeed('k', f.fetch);
    const got: unknown[] = [];
    const published: unknown[] = [];
    for (const n of [1, 3, 0, 25, 2]) {
      const fresh = f.publish(n);
      published.push(...ids(fresh).reverse()); // oldest first
      const r = await pollFeed(state, f.fetch, 5);
      expect(ids(r.emit)).toEqual(ids(fresh).reverse());
      expect(r.behind).toBe(false);
      got.push(...ids(r.emit));
      state = r.state;
    }
    expect(got).toEqual(published);
  },
);

test('a later page that fails: the pages paid before it are emitted, and the next poll resumes at the failed page without paying for the first again', async () => {
  const f = feed(12);
  f.publish(40);
  let state = await markFeed('k', f.fetch); // request 1
  const fresh = f.publish(30); // three pages of new posts
  f.failRequest(3); // this poll's second page
  const first = await pollFeed(state, f.fetch, 5);
  expect(ids(first.emit)).toEqual(ids(fresh.slice(0, 12)).reverse());
  expect(first.failure?.message).toMatch(/502/);
  expect(first.behind).toBe(true);
  state = first.state;
  const firstPage = f.cursors[1]; // null: the head
  const failedAt = f.cursors[2];
  expect(firstPage).toBeNull();

  const before = f.requests;
  const second = await pollFeed(state, f.fetch, 5);
  expect(ids(second.emit)).toEqual(ids(fresh.slice(12)).reverse());
  expect(second.failure).toBeUndefined();
  expect(second.behind).toBe(false);
  // Two pages: the failed one and the one after it; the first page (the head) is not read again.
  expect(f.cursors.slice(before)).toEqual([failedAt, expect.any(String)]);
  expect(f.cursors.slice(before)).not.toContain(null);
  state = second.state;

  // Then ordinary polls again: new posts from the head, nothing repeated.
  const later = f.publish(2);
  const third = await pollFeed(state, f.fetch, 5);
  expect(ids(third.emit)).toEqual(ids(later).reverse());
});

test('a failure of the first request of a poll is thrown (nothing was paid); a resumed page that fails at once falls back to the head', async () => {
  const f = feed(12);
  f.publish(40);
  let state = await markFeed('k', f.fetch); // request 1
  const one = f.publish(1);
  f.failRequest(2);
  await expect(pollFeed(state, f.fetch, 5)).rejects.toThrow(/502/);

  const fresh = f.publish(29); // 30 new, three pages
  f.failRequest(4); // the second page of this poll (request 3 is its head)
  const first = await pollFeed(state, f.fetch, 5);
  expect(first.emit).toHaveLength(12);
  state = first.state;
  f.failRequest(5); // the resumed page fails again: the poll reads the head, then the backlog
  const second = await pollFeed(state, f.fetch, 5);
  const all = [...ids(first.emit), ...ids(second.emit)];
  expect(new Set(all).size).toBe(30);
  expect(all.sort()).toEqual(ids([...one, ...fresh]).sort());
  expect(second.behind).toBe(false);
});

test('static data stored before the rule moved to core reads as it was: a failed backlog is resumed first, and what is written has the same shape', async () => {
  const f = feed(12);
  f.publish(40);
  const mark = await markFeed('k', f.fetch);
  const fresh = f.publish(30);
  const page1 = await f.fetch(null);
  // As poll.ts wrote it then: the head after the first 12 new posts, the backlog at the failed second page.
  const stored = JSON.parse(
    JSON.stringify({
      feed: 'k',
      head: { seen: ids(page1.items), newest: Date.parse(String(fresh[0].taken_at)) },
      backlog: { cursor: page1.nextCursor, until: mark.head, failed: true },
      emitted: ids(page1.items),
    }),
  );
  const before = f.requests;
  const r = await pollFeed(stored, f.fetch, 5);
  expect(ids(r.emit)).toEqual(ids(fresh.slice(12)).reverse());
  expect(f.cursors.slice(before)).toEqual([page1.nextCursor, expect.any(String)]);
  expect(r.behind).toBe(false);
  expect(Object.keys(r.state).sort()).toEqual(['emitted', 'feed', 'head']);
  expect(r.state.emitted.slice(0, 18)).toEqual(ids(fresh.slice(12)));
});
