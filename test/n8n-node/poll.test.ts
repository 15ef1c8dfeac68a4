/** The trigger's state machine (nodes/IgData/poll.ts) on a scripted feed: edge cases real polls rarely hit. */
import type { Page, Post } from '../../n8n-node/nodes/IgData/poll';
import { pollFeed, startFeed } from '../../n8n-node/nodes/IgData/poll';

/** A feed newest first, paged by "older than the last item", like the sandbox's keyed cursors. */
function feed(size = 3) {
  let posts: Post[] = [];
  let clock = Date.parse('2025-01-01T00:00:00Z');
  let requests = 0;
  return {
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
      const start = cursor === null ? 0 : posts.findIndex((p) => p.id === cursor) + 1;
      const items = posts.slice(start, start + size);
      return { items, nextCursor: start + size < posts.length ? String(items[items.length - 1].id) : null };
    },
  };
}
const ids = (ps: Post[]) => ps.map((p) => p.id);

test('first poll emits nothing; then new posts once, oldest first; quiet polls read one page', async () => {
  const f = feed();
  f.publish(10);
  let state = await startFeed('k', f.fetch);
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
  let state = await startFeed('k', f.fetch);
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
  let state = await startFeed('k', f.fetch);
  for (const p of (await f.fetch(null)).items) f.remove(p.id); // the whole first page is gone
  const fresh = f.publish(2);
  const before = f.requests;
  const r = await pollFeed(state, f.fetch, 10);
  expect(ids(r.emit)).toEqual(ids(fresh).reverse());
  expect(f.requests - before).toBe(1);
  state = r.state;
});

test('two bursts larger than the page bound are caught up over later polls without gaps or repeats', async () => {
  const f = feed(3);
  f.publish(5);
  let state = await startFeed('k', f.fetch);
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
