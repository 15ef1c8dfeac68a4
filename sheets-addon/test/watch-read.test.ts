/**
 * The watch's reading (src/watch/read.ts) over core's feed rule, in-process on a scripted tag: a
 * target state stored before the rule moved to core still reads (its mark, its gap's cursor and
 * row), and what the watch stores stays small (one mark a target). Post times start at a named
 * instant; nothing reads the clock.
 */
import type { HttpRequest, RawResponse } from '@igdata/core';
import { getEndpoint } from '@igdata/core';
import type { SheetsClient } from '../src/engine/deps';
import type { TargetState } from '../src/watch/read';
import { readTarget } from '../src/watch/read';

const START = Date.parse('2026-11-25T10:00:00Z');
const e = getEndpoint('hashtag/recent');
const params = { tag: 'veganrecipes' };

/** A tag's recent posts, newest first, 30 a page, 1 credit a page, paged by "older than the last post". */
function tag(count: number) {
  const posts = Array.from({ length: count }, (_, i) => ({
    id: `p${count - i}`,
    shortcode: `p${count - i}`,
    type: 'photo',
    taken_at: new Date(START + (count - i) * 60000).toISOString(),
  }));
  const sent: (string | null)[] = [];
  const answer = (r: HttpRequest): RawResponse => {
    const cursor = new URL(r.url).searchParams.get('cursor');
    sent.push(cursor);
    const start = cursor === null ? 0 : posts.findIndex((p) => p.id === cursor) + 1;
    const items = posts.slice(start, start + 30);
    const next = start + 30 < posts.length ? items[items.length - 1].id : null;
    return {
      status: 200,
      headers: {},
      body: JSON.stringify({ data: { items, next_cursor: next }, meta: { credits_charged: 1 } }),
    };
  };
  const client: SheetsClient = {
    config: { apiKey: 'k', baseUrl: 'https://api.test', retry: { attempts: 1 } },
    io: {
      stats: { requests: 0, batches: 0 },
      fetch: answer,
      fetchAll: (rs) => rs.map(answer),
      sleep: () => undefined,
    },
  };
  return { posts, sent, client };
}

const ids = (ps: Record<string, unknown>[]) => ps.map((p) => p.id);

test("a state stored before the rule moved to core reads: the gap's cursor first, its stop by id, then the top to the mark", () => {
  const t = tag(100); // p100 newest
  // What the watch stored after a capped run: p100..p41 written, the gap from p41 down to p10 (its old mark).
  const stored: TargetState = {
    seen: { id: 'p100', at: String(t.posts[0].taken_at) },
    gap: { cursor: 'p41', stop: { id: 'p10', at: String(t.posts[90].taken_at) }, row: 7 },
  };
  const gapRun = readTarget(t.client, e, params, stored, 10);
  expect(t.sent).toEqual(['p41', 'p11']);
  expect(ids(gapRun.gapPosts)).toEqual(Array.from({ length: 30 }, (_, i) => `p${40 - i}`)); // p40..p11
  expect(gapRun).toMatchObject({ newPosts: [], pages: 2, credits: 2, short: false, gapOpen: false });
  const after = gapRun.next(50);
  expect(after).toEqual({ seen: { id: 'p100', at: String(t.posts[0].taken_at) }, gap: undefined });
  // The next run reads the top and stops at the mark: nothing new.
  const top = readTarget(t.client, e, params, after, 10);
  expect(t.sent.slice(2)).toEqual([null]);
  expect(top).toMatchObject({ gapPosts: [], newPosts: [], pages: 1 });
});

test('a run the cap cuts leaves a gap at the row the writer gives; a gap still open keeps its row', () => {
  const t = tag(100);
  const first = readTarget(t.client, e, params, {}, 10); // a new watch: its newest page
  expect(ids(first.newPosts)).toEqual(ids(t.posts.slice(0, 30)));
  const seen = first.next(2);
  expect(seen).toEqual({ seen: { id: 'p100', at: String(t.posts[0].taken_at) }, gap: undefined });
  // 100 more posts; a cap of 2 pages.
  const more = tag(200);
  const capped = readTarget(more.client, e, params, seen, 2);
  expect(capped).toMatchObject({ pages: 2, short: true, gapOpen: false });
  expect(ids(capped.newPosts)).toEqual(ids(more.posts.slice(0, 60)));
  const withGap = capped.next(32);
  expect(withGap.gap).toEqual({ cursor: 'p141', stop: seen.seen, row: 32 });
  const open = readTarget(more.client, e, params, withGap, 1);
  expect(open).toMatchObject({ pages: 1, short: true, gapOpen: true });
  expect(open.next(99).gap).toEqual({ cursor: 'p111', stop: seen.seen, row: 32 });
  // What a target stores: two small marks, whatever the pages held.
  expect(JSON.stringify(open.next(99)).length).toBeLessThan(200);
});
