// The feed rule (src/feed.ts) on a scripted feed, driven by hand: every page asked for is recorded,
// every answer injected, no network. Posts' times start at a named instant and move by the feed's
// own counter; nothing reads the clock.
import type { FeedAnswer, FeedOptions, FeedReading, FeedState, FeedWant, Item, RawResponse } from '../src';
import { IgApiError, IgValidationError, feedOp, newestPosts, prepare, readFeed } from '../src';
import { step } from './support/step';

const START = Date.parse('2026-11-25T10:00:00Z');

/**
 * A feed newest first, paged by "older than the last item" (the sandbox's keyed cursors), `size`
 * a page; pinned posts come first on the top page. `fail` holds request numbers (1 = the first)
 * that fail; `billed` makes a failure cost that many credits.
 */
function feed(size = 3) {
  let posts: Item[] = [];
  let pinned: Item[] = [];
  let clock = START;
  let n = 0;
  let requests = 0;
  const f = {
    /** The cursors asked for (tests clear it to look at one reading). */
    wants: [] as (string | null)[],
    fail: new Set<number>(),
    billed: 0,
    pageCost: 1,
    /** Requests answered so far. */
    get requests() {
      return requests;
    },
    pin(ps: Item[]) {
      pinned = ps;
    },
    /** `n` new posts (newest first); `sameInstant`: all at the newest post's time. */
    publish(count: number, sameInstant = false): Item[] {
      const made = Array.from({ length: count }, () => {
        if (!sameInstant) clock += 1000;
        n++;
        return { id: `p${n}`, taken_at: new Date(clock).toISOString() };
      });
      posts = [...made.reverse(), ...posts];
      return made;
    },
    remove(id: unknown) {
      posts = posts.filter((p) => p.id !== id);
    },
    answer(want: FeedWant): FeedAnswer {
      f.wants.push(want.cursor);
      if (f.fail.has(++requests)) {
        return new IgApiError(502, 'upstream_error', 'The data provider failed after 3 tries.', {
          creditsCharged: f.billed,
        });
      }
      const rest = posts.filter((p) => !pinned.includes(p));
      const head = want.cursor === null ? pinned : [];
      const start = want.cursor === null ? 0 : rest.findIndex((p) => p.id === want.cursor) + 1;
      const items = [...head, ...rest.slice(start, start + size - head.length)];
      const end = start + size - head.length;
      return { items, nextCursor: end < rest.length ? String(items[items.length - 1].id) : null, creditsCharged: 1 };
    },
  };
  return f;
}

type Feed = ReturnType<typeof feed>;

/** One reading over the scripted feed. */
function read(f: Feed, state: FeedState | undefined, options: FeedOptions): FeedReading {
  const gen = readFeed(state, options);
  for (let s = gen.next(); ;) {
    if (s.done) return s.value;
    s = gen.next(f.answer(s.value));
  }
}

const ids = (ps: Item[]) => ps.map((p) => p.id);
/** What a product gives out, oldest first: the gap's posts, then the top's. */
const givenOut = (r: FeedReading) => [...ids(r.older).reverse(), ...ids(r.newer).reverse()];

describe('the first reading', () => {
  it('reads the top page as it is and records where the feed stands', () => {
    const f = feed();
    const old = f.publish(5);
    const r = read(f, undefined, { maxPages: 5 });
    expect(f.wants).toEqual([null]);
    expect(ids(r.newer)).toEqual(ids(old.slice(0, 3)));
    expect(r).toMatchObject({ pages: 1, credits: 1, behind: false, older: [] });
    expect(r.state?.head).toEqual({ seen: [old[0].id], newest: Date.parse(String(old[0].taken_at)) });
  });

  it('reads nothing and keeps no state when its page fails, or the bound allows no page', () => {
    const f = feed();
    f.publish(5);
    f.fail.add(1);
    const failed = read(f, undefined, { maxPages: 5 });
    expect(failed).toMatchObject({ pages: 0, state: undefined, short: 'error' });
    expect(failed.failure?.message).toMatch(/failed after 3 tries/);
    expect(read(f, undefined, { maxCredits: 0, pageCost: 1 })).toMatchObject({ pages: 1 - 1, short: 'credits' });
  });

  it('needs a bound: every page costs credits', () => {
    expect(() => readFeed(undefined, {}).next()).toThrow(IgValidationError);
    expect(() => readFeed(undefined, { maxPages: 1.5 }).next()).toThrow(/maxPages must be a whole number/);
  });
});

describe('a later reading', () => {
  it('gives the new posts once, newest first; a quiet reading reads one page', () => {
    const f = feed();
    f.publish(10);
    let state = read(f, undefined, { maxPages: 5 }).state;
    const fresh = f.publish(4);
    let r = read(f, state, { maxPages: 5 });
    expect(ids(r.newer)).toEqual(ids(fresh));
    expect(r).toMatchObject({ pages: 2, behind: false });
    state = r.state;
    f.wants.length = 0;
    r = read(f, state, { maxPages: 5 });
    expect(r.newer).toEqual([]);
    expect(f.wants).toEqual([null]);
  });

  it('passes over older pinned posts at the head of the top page, which are neither new nor the end', () => {
    const f = feed(12);
    const old = f.publish(40);
    f.pin(old.slice(-3)); // the three oldest, shown first
    let state = read(f, undefined, { maxPages: 5 }).state;
    for (const n of [1, 11, 0, 25]) {
      const fresh = f.publish(n);
      const r = read(f, state, { maxPages: 5 });
      expect(ids(r.newer)).toEqual(ids(fresh));
      expect(r.behind).toBe(false);
      state = r.state;
    }
  });

  it('stops by time when the posts read last were deleted, the whole top page of them', () => {
    const f = feed();
    const old = f.publish(20);
    const state = read(f, undefined, { maxPages: 5 }).state;
    for (const p of old.slice(0, 3)) f.remove(p.id);
    const fresh = f.publish(2);
    f.wants.length = 0;
    const r = read(f, state, { maxPages: 10 });
    expect(ids(r.newer)).toEqual(ids(fresh));
    expect(f.wants).toEqual([null]);
  });

  it('keeps posts sharing the newest instant apart by id, with no other ids kept (seenMax 0)', () => {
    const f = feed();
    f.publish(5);
    let state = read(f, undefined, { maxPages: 5 }).state;
    const tie = f.publish(2, true); // the same instant as the newest post read
    let r = read(f, state, { maxPages: 5 });
    expect(ids(r.newer)).toEqual(ids(tie));
    state = r.state;
    const tieAgain = f.publish(1, true);
    r = read(f, state, { maxPages: 5 });
    expect(ids(r.newer)).toEqual(ids(tieAgain));
    expect(r.state?.head.seen).toHaveLength(4); // p5, its two ties, the third
    r = read(f, r.state, { maxPages: 5 });
    expect(r.newer).toEqual([]);
  });

  it('stops before a page that would pass its credits, and counts what failed pages were billed', () => {
    const f = feed();
    f.publish(5);
    const state = read(f, undefined, { maxPages: 5 }).state;
    f.publish(9);
    const r = read(f, state, { maxCredits: 2, pageCost: 1 });
    expect(r).toMatchObject({ pages: 2, credits: 2, short: 'credits', behind: true, newGap: true });
    f.fail.add(f.requests + 1); // the top's first page: a billed failure (a 404 is billed)
    f.billed = 1;
    const failed = read(f, state, { maxCredits: 5, pageCost: 1 });
    expect(failed).toMatchObject({ pages: 0, credits: 1, short: 'error', behind: false, state });
  });
});

describe('a reading the bound cuts short leaves a gap', () => {
  it('a burst over the page bound: the next reading reads the gap, and only the gap; nothing twice, nothing skipped', () => {
    const f = feed(3);
    f.publish(5);
    let state = read(f, undefined, { maxPages: 5 }).state;
    const burst = f.publish(10);
    let r = read(f, state, { maxPages: 2 });
    expect(ids(r.newer)).toEqual(ids(burst.slice(0, 6)));
    expect(r).toMatchObject({ behind: true, newGap: true, short: 'pages' });
    expect(r.state?.gap).toEqual({ cursor: burst[5].id, until: state?.head });
    const got = givenOut(r);
    state = r.state;
    const second = f.publish(8); // a second burst before the first is caught up
    f.wants.length = 0;
    r = read(f, state, { maxPages: 2 });
    expect(f.wants).toEqual([burst[5].id, burst[8].id]); // the gap alone, from its cursor
    expect(ids(r.older)).toEqual(ids(burst.slice(6)));
    expect(r).toMatchObject({ newer: [], behind: false });
    got.push(...givenOut(r));
    state = r.state;
    for (let i = 0; i < 5 && (i === 0 || r.behind); i++) {
      r = read(f, state, { maxPages: 2 });
      got.push(...givenOut(r));
      state = r.state;
    }
    expect(r.behind).toBe(false);
    // Each reading oldest first; a gap's posts come out in the reading after the newer ones.
    const oldestFirst = (ps: Item[]) => ids(ps).reverse();
    expect(got).toEqual([
      ...oldestFirst(burst.slice(0, 6)),
      ...oldestFirst(burst.slice(6)),
      ...oldestFirst(second.slice(0, 6)),
      ...oldestFirst(second.slice(6)),
    ]);
  });

  it('a later page that fails: what was read before it comes out, and the next reading resumes at that page (gap cursor resume)', () => {
    const f = feed(12);
    f.publish(40);
    let state = read(f, undefined, { maxPages: 5 }).state;
    const fresh = f.publish(30); // three pages
    f.fail.add(3); // the second page of the next reading
    let r = read(f, state, { maxPages: 5 });
    expect(ids(r.newer)).toEqual(ids(fresh.slice(0, 12)));
    expect(r).toMatchObject({ behind: true, newGap: true, short: 'error' });
    const failedAt = f.wants[2];
    expect(r.state?.gap?.cursor).toBe(failedAt);
    state = r.state;
    f.wants.length = 0;
    r = read(f, state, { maxPages: 5 });
    expect(f.wants).toEqual([failedAt, fresh[23].id]);
    expect(ids(r.older)).toEqual(ids(fresh.slice(12)));
    expect(r).toMatchObject({ newer: [], behind: false });
    expect(r.failure).toBeUndefined();
  });

  it("the gap's first page fails: the top is read instead, then the gap", () => {
    const f = feed(12);
    f.publish(40);
    let state = read(f, undefined, { maxPages: 5 }).state;
    const fresh = f.publish(30);
    f.fail.add(3);
    state = read(f, state, { maxPages: 5 }).state;
    const more = f.publish(2);
    f.fail.add(f.requests + 1); // the gap's page, again
    f.wants.length = 0;
    const r = read(f, state, { maxPages: 5 });
    expect(f.wants).toEqual([state?.gap?.cursor, null, state?.gap?.cursor, fresh[23].id]);
    expect(ids(r.newer)).toEqual(ids(more));
    expect(ids(r.older)).toEqual(ids(fresh.slice(12)));
    expect(r).toMatchObject({ behind: false, newGap: false });
  });

  it('the top cut short while a gap stays open: one gap down to the old end; repeats are dropped by recent ids', () => {
    const f = feed(3);
    f.publish(5);
    let state = read(f, undefined, { maxPages: 5, recentMax: 100 }).state;
    const a = f.publish(7);
    let r = read(f, state, { maxPages: 1, recentMax: 100 });
    const got = givenOut(r); // a's newest 3; the gap holds the other 4
    state = r.state;
    const b = f.publish(7);
    f.fail.add(f.requests + 1); // the gap's page fails: the top, cut after a page
    r = read(f, state, { maxPages: 1, recentMax: 100 });
    expect(r).toMatchObject({ behind: true, newGap: true });
    expect(r.state?.gap?.until).toEqual(state?.gap?.until);
    got.push(...givenOut(r));
    state = r.state;
    for (let i = 0; i < 10 && r.behind; i++) {
      r = read(f, state, { maxPages: 1, recentMax: 100 });
      got.push(...givenOut(r));
      state = r.state;
    }
    expect(r.behind).toBe(false);
    expect(new Set(got).size).toBe(got.length);
    expect([...got].sort()).toEqual([...ids(a), ...ids(b)].sort());
  });
});

describe('topFirst: the top, then the gap', () => {
  it('a post newer than a burst comes out at the next reading while the gap is read; the gap still once', () => {
    const f = feed(3);
    f.publish(5);
    const options = { maxPages: 2, topFirst: true };
    let state = read(f, undefined, options).state;
    const burst = f.publish(10);
    let r = read(f, state, options);
    expect(ids(r.newer)).toEqual(ids(burst.slice(0, 6)));
    expect(r.state?.gap).toEqual({ cursor: burst[5].id, until: state?.head });
    state = r.state;
    const fresh = f.publish(1);
    f.wants.length = 0;
    r = read(f, state, options);
    expect(f.wants).toEqual([null, burst[5].id]); // the top's page, then the gap in the page left
    expect(ids(r.newer)).toEqual(ids(fresh));
    expect(ids(r.older)).toEqual(ids(burst.slice(6, 9)));
    expect(r).toMatchObject({ behind: true, newGap: false, short: 'pages' });
    expect(r.state?.gap?.cursor).toBe(burst[8].id);
    f.wants.length = 0;
    r = read(f, r.state, options);
    expect(f.wants).toEqual([null, burst[8].id]);
    expect(r).toMatchObject({ newer: [], behind: false });
    expect(ids(r.older)).toEqual(ids(burst.slice(9)));
  });
});

describe('feedOp: the same reading over send', () => {
  const call = prepare('hashtag/recent', { tag: 'veganrecipes' });
  const config = { apiKey: 'k', baseUrl: 'https://api.test', retry: { attempts: 1 } };
  const body = (items: Item[], next: string | null, charged = 1): RawResponse => ({
    status: 200,
    headers: {},
    body: JSON.stringify({ data: { items, next_cursor: next }, meta: { credits_charged: charged } }),
  });
  const post = (id: string, s: number) => ({
    id,
    shortcode: id,
    type: 'photo',
    taken_at: new Date(START + s * 1000).toISOString(),
  });

  it('sends each page with its cursor; a failed later page is the failure, its posts before it kept', () => {
    const state: FeedState = { head: { seen: ['old'], newest: START } };
    const pages = [
      body([post('n3', 3), post('n2', 2)], 'c1'),
      { status: 502, headers: {}, body: JSON.stringify({ error: { code: 'upstream_error', message: 'x' } }) },
    ];
    const { value, effects } = step(feedOp(config, call, state, { maxPages: 5 }), (_e, i) => pages[i]);
    const urls = effects.map((e) => (e.kind === 'http' ? new URL(e.request.url) : null));
    expect(urls.map((u) => u?.searchParams.get('cursor') ?? null)).toEqual([null, 'c1']);
    expect(urls.every((u) => u?.searchParams.get('tag') === 'veganrecipes')).toBe(true);
    expect(ids(value.newer)).toEqual(['n3', 'n2']);
    expect(value.state?.gap).toEqual({ cursor: 'c1', until: state.head });
    expect(value.failure?.name).toBe('IgApiError');
  });
});

it('newestPosts: the newest of a page by time, not by place (a pinned older post is not among them)', () => {
  const page = [
    { id: 'pinned', taken_at: '2026-01-01T00:00:00Z' },
    { id: 'b', taken_at: '2026-11-25T09:00:00Z' },
    { id: 'a', taken_at: '2026-11-25T08:00:00Z' },
  ];
  expect(ids(newestPosts(page, 2))).toEqual(['b', 'a']);
});
