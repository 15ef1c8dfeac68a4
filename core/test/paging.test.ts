// The one next-page rule and the walks built on it, driven by hand: every yielded request is
// asserted, every answer injected, no network.
import type { PagePlan, RawResponse } from '../src';
import {
  CreditLedger,
  NOTHING_READ,
  PageWalk,
  afterPage,
  capBefore,
  fetchPage,
  paginate,
  paginateMany,
  prepare,
} from '../src';
import { planPaging, withCursor } from './support/internals';
import { step } from './support/step';

const config = {
  apiKey: 'sk_test_secret_123',
  baseUrl: 'https://api.test',
  retry: { baseDelayMs: 100, maxDelayMs: 1000 },
};

const users = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ id: String(from + i), username: `u${from + i}` }));
const page = (items: unknown[], next: string | null, charged = 2, requestId = 'r1'): RawResponse => ({
  status: 200,
  headers: {},
  body: JSON.stringify({
    data: { items, next_cursor: next },
    meta: { request_id: requestId, credits_charged: charged, credits_remaining: 90 },
  }),
});
const fail = (status: number, code: string, charged = 0): RawResponse => ({
  status,
  headers: {},
  body: JSON.stringify({
    error: { code, message: `failed ${code}` },
    meta: { request_id: 'rq', credits_charged: charged },
  }),
});

const urlOf = (r: { url: string }) => new URL(r.url);
const handleAndCursor = (r: { url: string }) =>
  `${urlOf(r).searchParams.get('handle')}@${urlOf(r).searchParams.get('cursor') ?? '-'}`;

const followers = (handle = 'nasa') => prepare('profile/followers', { handle });
const plan = (cap: PagePlan['cap'], pageCost = 2, paginated = true): PagePlan => ({ cap, pageCost, paginated });
const like = (n: number, next: string | null, charged = 2) => ({
  items: users(n),
  nextCursor: next,
  creditsCharged: charged,
});

describe('the next-page rule', () => {
  it('asks for the page at next_cursor while no cap is reached, counting pages, items and credits', () => {
    const s = afterPage(plan({ maxPages: 5 }), NOTHING_READ, like(25, 'c1'));
    expect(s).toMatchObject({ next: 'c1', read: { pages: 1, items: 25, credits: 2 } });
    expect(s.taken).toHaveLength(25);
  });

  it('ends only on a null next_cursor: an empty page with a cursor is not the end (spec §4 rule 3)', () => {
    expect(afterPage(plan({ maxPages: 5 }), NOTHING_READ, like(0, 'c1'))).toMatchObject({ next: 'c1', taken: [] });
    expect(afterPage(plan({ maxPages: 5 }), NOTHING_READ, like(3, null))).toMatchObject({ stop: 'end', resume: null });
  });

  it('ends after one page for an endpoint that does not page, whatever cursor came back', () => {
    expect(afterPage(plan({ maxPages: 5 }, 2, false), NOTHING_READ, like(3, 'c1'))).toMatchObject({
      stop: 'end',
      resume: null,
    });
  });

  it('says which cap stops the walk, checked for the next page', () => {
    const read = { pages: 1, items: 25, credits: 2 };
    expect(afterPage(plan({ maxItems: 50 }), read, like(25, 'c2'))).toMatchObject({ stop: 'items', resume: 'c2' });
    expect(afterPage(plan({ maxPages: 2 }), read, like(25, 'c2'))).toMatchObject({ stop: 'pages', resume: 'c2' });
    expect(afterPage(plan({ maxCredits: 5 }), read, like(25, 'c2'))).toMatchObject({ stop: 'credits', resume: 'c2' });
    expect(afterPage(plan({ maxCredits: 6 }), read, like(25, 'c2'))).toMatchObject({ next: 'c2' });
  });

  it('cuts a page at the item cap and says items, even on the last page (more existed than were taken)', () => {
    const s = afterPage(plan({ maxItems: 30 }), { pages: 1, items: 25, credits: 2 }, like(25, null));
    expect(s).toMatchObject({ stop: 'items', read: { items: 30 } });
    expect(s.taken).toHaveLength(5);
  });

  it('drops the items handled before and stops at a page that ends in one, taking the new ones', () => {
    const seen = new Set(['3', '4', '5', '6', '7', '8', '9']);
    const s = afterPage(
      plan({ maxPages: 9, handled: (item) => seen.has(String(item.id)) }),
      NOTHING_READ,
      like(10, 'c1'),
    );
    expect(s).toMatchObject({ stop: 'until', read: { pages: 1, items: 3 } });
    expect(s.taken.map((i) => i.id)).toEqual(['0', '1', '2']);
  });

  it('reads a page whole: handled items at its head (pinned posts) are skipped, not a stop', () => {
    const pinned = new Set(['0', '1', '2']);
    const s = afterPage(
      plan({ maxPages: 9, handled: (item) => pinned.has(String(item.id)) }),
      NOTHING_READ,
      like(10, 'c1'),
    );
    expect(s).toMatchObject({ next: 'c1', read: { pages: 1, items: 7 } });
    expect(s.taken.map((i) => i.id)).toEqual(['3', '4', '5', '6', '7', '8', '9']);
  });

  it('checks the caps before the first page too', () => {
    expect(capBefore(plan({ maxItems: 0 }), NOTHING_READ)).toBe('items');
    expect(capBefore(plan({ maxPages: 0 }), NOTHING_READ)).toBe('pages');
    expect(capBefore(plan({ maxCredits: 1 }), NOTHING_READ)).toBe('credits');
    expect(capBefore(plan({ maxCredits: 2 }), NOTHING_READ)).toBeNull();
  });

  it('requires a cap and a sane one; prices a page from the registry', () => {
    expect(() => planPaging(followers(), {})).toThrow(/limit/);
    expect(() => planPaging(followers(), { handled: () => true })).toThrow(/limit/);
    expect(() => planPaging(followers(), { maxPages: -1 })).toThrow(/maxPages/);
    expect(planPaging(followers(), { maxPages: 1 })).toMatchObject({ pageCost: 2, paginated: true });
    expect(planPaging(prepare('profile/stories', { handle: 'nasa' }), { maxPages: 1 })).toMatchObject({
      paginated: false,
    });
  });

  it('puts a cursor on a call, or takes it off for the first page', () => {
    const c = withCursor(followers(), 'x y');
    expect(c.params).toEqual({ handle: 'nasa', cursor: 'x y' });
    expect(withCursor(c, null).params).toEqual({ handle: 'nasa' });
  });
});

describe('one page', () => {
  it('fetches the page at a cursor with one request', () => {
    const r = step(fetchPage(config, followers(), 'c7'), () => page(users(25), 'c8'));
    expect(r.effects.map((e) => e.kind)).toEqual(['http']);
    expect(handleAndCursor((r.effects[0] as { request: { url: string } }).request)).toBe('nasa@c7');
    expect(r.value.nextCursor).toBe('c8');
    const first = step(fetchPage(config, prepare('profile/followers', { handle: 'nasa', cursor: 'old' }), null), () =>
      page([], null),
    );
    expect(urlOf((first.effects[0] as { request: { url: string } }).request).searchParams.has('cursor')).toBe(false);
  });
});

describe('one list', () => {
  it('walks past an empty page that has a cursor', () => {
    const answers = [page(users(25), 'c1'), page([], 'c2'), page(users(5, 25), null)];
    const r = step(paginate(config, followers(), { maxPages: 10 }), (_e, i) => answers[i]);
    expect(r.value).toMatchObject({ stoppedBy: 'end', pages: 3, creditsCharged: 6 });
    expect(r.value.items).toHaveLength(30);
  });

  it('stops at a page that ends in an item handled before ("until a seen id")', () => {
    const answers = [page(users(25), 'c1'), page(users(25, 25), 'c2')];
    const r = step(
      paginate(config, followers(), { maxPages: 10, handled: (i) => Number(i.id) >= 30 }),
      (_e, i) => answers[i],
    );
    expect(r.value).toMatchObject({ stoppedBy: 'until', pages: 2, nextCursor: 'c2' });
    expect(r.value.items).toHaveLength(30);
  });
});

describe('many lists at once', () => {
  it('sends page N of every target together, one httpAll per round, each target stopping for its own reason', () => {
    const calls = ['a', 'b', 'c'].map((h) => followers(h));
    const rounds: string[][] = [];
    const r = step(paginateMany(config, calls, { maxPages: 3 }), (e) => {
      const requests = e.kind === 'httpAll' ? e.requests : e.kind === 'http' ? [e.request] : [];
      rounds.push(requests.map(handleAndCursor));
      const answers = requests.map((q) => {
        const [h, c] = handleAndCursor(q).split('@');
        if (h === 'a') return page(users(25), null); // a: one page
        if (h === 'b') return c === '-' ? page(users(25), 'b1') : fail(404, 'not_found', 2); // b: fails on page 2
        return page(users(25), `${c}+`); // c: endless
      });
      return e.kind === 'httpAll' ? answers : answers[0];
    });
    expect(r.effects.map((e) => e.kind)).toEqual(['httpAll', 'httpAll', 'http']);
    expect(rounds).toEqual([['a@-', 'b@-', 'c@-'], ['b@b1', 'c@-+'], ['c@-++']]);
    const [a, b, c] = r.value;
    expect(a).toMatchObject({ stoppedBy: 'end', pages: 1, creditsCharged: 2, nextCursor: null });
    // b keeps the page it paid for; the 404 was billed too.
    expect(b).toMatchObject({ stoppedBy: 'error', pages: 1, creditsCharged: 4, error: { code: 'not_found' } });
    expect(b.items).toHaveLength(25);
    expect(c).toMatchObject({ stoppedBy: 'pages', pages: 3, creditsCharged: 6, nextCursor: '-+++' });
  });

  it('applies item caps per target and a shared budget across them, in input order', () => {
    const ledger = new CreditLedger(8);
    const calls = ['a', 'b', 'c'].map((h) => followers(h));
    const r = step(paginateMany(config, calls, { maxItems: 30, budget: ledger }), (e) =>
      e.kind === 'httpAll' ? e.requests.map(() => page(users(25), 'more')) : page(users(25), 'more'),
    );
    // Round 1: 3 pages (6 credits). Round 2: a fits (8), b and c are refused by the budget.
    expect(r.value.map((x) => x.stoppedBy)).toEqual(['items', 'credits', 'credits']);
    expect(r.value.map((x) => x.items.length)).toEqual([30, 25, 25]);
    expect(ledger.spent).toBe(8);
  });

  it('a failed first page does not throw: that target says error, the others go on', () => {
    const r = step(paginateMany(config, [followers('a'), followers('b')], { maxPages: 1 }), (e) =>
      e.kind === 'httpAll' ? [fail(401, 'invalid_api_key'), page(users(2), null)] : undefined,
    );
    expect(r.value[0]).toMatchObject({ stoppedBy: 'error', pages: 0, items: [], error: { code: 'invalid_api_key' } });
    expect(r.value[1]).toMatchObject({ stoppedBy: 'end', pages: 1 });
  });
});

describe('a walk fed by its caller (cache, deadline)', () => {
  it('replays cached pages through the same rule, and stops a target whose page was not sent for time', () => {
    const ledger = new CreditLedger(100);
    const walk = new PageWalk([followers('a'), followers('b')], { maxItems: 60, budget: ledger });
    let round = walk.nextRound();
    expect(round.map((p) => p.call.params)).toEqual([{ handle: 'a' }, { handle: 'b' }]);
    walk.record(0, { items: users(25), nextCursor: 'a1', creditsCharged: 0 }); // from the cache: free
    walk.record(1, { items: users(25), nextCursor: 'b1', creditsCharged: 2, requestId: 'rb' });
    round = walk.nextRound();
    expect(round.map((p) => p.call.params.cursor)).toEqual(['a1', 'b1']);
    walk.record(0, { items: users(25), nextCursor: null, creditsCharged: 2 });
    walk.unsent(1); // the deadline came before this page was sent
    expect(walk.nextRound()).toEqual([]);
    expect(walk.done).toBe(true);
    const [a, b] = walk.results();
    expect(a).toMatchObject({ stoppedBy: 'end', pages: 2, creditsCharged: 2 });
    expect(b).toMatchObject({ stoppedBy: 'time', pages: 1, creditsCharged: 2, nextCursor: 'b1', requestIds: ['rb'] });
    expect(ledger.spent).toBe(4); // the unsent page's reservation was released
  });

  it('refuses a new round while a page is still out', () => {
    const walk = new PageWalk([followers('a')], { maxPages: 2 });
    walk.nextRound();
    expect(() => walk.nextRound()).toThrow(/neither recorded nor unsent/);
    expect(() => walk.record(3, { items: [], nextCursor: null, creditsCharged: 0 })).toThrow(/no page/);
  });
});
