// The core driven by hand, with no network: each yielded effect is asserted, each answer injected.
import type { Effect, RawResponse } from '../src';
import { CreditLedger, IgApiError, IgSchemaError, paginate, prepare, request, send, sendAll, isIgError } from '../src';
import { step } from './support/step';

const config = {
  apiKey: 'sk_test_secret_123',
  baseUrl: 'https://api.test/',
  retry: { baseDelayMs: 100, maxDelayMs: 1000 },
};

const ok = (data: unknown, meta: Record<string, unknown> = {}, headers: Record<string, string> = {}): RawResponse => ({
  status: 200,
  headers,
  body: JSON.stringify({ data, meta: { request_id: 'r1', credits_charged: 1, credits_remaining: 99, ...meta } }),
});
const fail = (status: number, code: string, meta: Record<string, unknown> = {}): RawResponse => ({
  status,
  headers: { 'x-request-id': 'rq' },
  body: JSON.stringify({ error: { code, message: `failed ${code}` }, meta: { request_id: 'rq', ...meta } }),
});
const profile = { id: '1', username: 'nasa', followers: 10 };

describe('one call', () => {
  it('builds the request: path, normalised query, auth header, and unwraps the envelope', () => {
    const { value, effects } = step(
      request(config, 'insights/profile/engagement', { handle: 'https://www.instagram.com/NASA/?hl=en' }),
      () => ok({ username: 'nasa', engagement_rate_pct: 1.5 }, { credits_charged: 2 }),
    );
    expect(effects).toEqual([
      {
        kind: 'http',
        request: {
          method: 'GET',
          url: 'https://api.test/v1/insights/profile/engagement?handle=nasa&posts=12',
          headers: { accept: 'application/json', authorization: 'Bearer sk_test_secret_123' },
        },
      },
    ]);
    expect(value.data).toMatchObject({ engagement_rate_pct: 1.5 });
    expect(value.creditsCharged).toBe(2);
    expect(value.creditsRemaining).toBe(99);
  });

  it('sends the x-api-key form when asked', () => {
    const { effects } = step(request({ ...config, authStyle: 'x-api-key' }, 'profile', { handle: 'nasa' }), () =>
      ok(profile),
    );
    expect((effects[0] as { request: { headers: object } }).request.headers).toEqual({
      accept: 'application/json',
      'x-api-key': 'sk_test_secret_123',
    });
  });

  it('percent-encodes cursors whatever they hold, and passes them back unchanged', () => {
    const cursor = 'a+b/c=d&e f%25?#é';
    const { effects } = step(request(config, 'profile/posts', { handle: 'nasa', cursor }), () =>
      ok({ items: [], next_cursor: null }),
    );
    const url = new URL((effects[0] as { request: { url: string } }).request.url);
    expect(url.searchParams.get('cursor')).toBe(cursor);
  });

  it('rejects bad input before any request', () => {
    const gen = request(config, 'insights/profile/engagement', { handle: 'nasa', posts: 99 });
    expect(() => gen.next()).toThrow('posts must be a whole number from 1 to 50; got 99.');
  });

  it('retries 502 with backoff, then succeeds; the answer says how many attempts', () => {
    const { value, effects } = step(request(config, 'profile', { handle: 'nasa' }), (e, i) =>
      e.kind === 'sleep' ? undefined : i === 0 ? fail(502, 'upstream_error') : ok(profile),
    );
    expect(effects.map((e) => e.kind)).toEqual(['http', 'sleep', 'http']);
    const sleep = effects[1] as { ms: number };
    expect(sleep.ms).toBeGreaterThanOrEqual(50);
    expect(sleep.ms).toBeLessThanOrEqual(100);
    expect(value.attempts).toBe(2);
  });

  it('gives up after the attempt limit on 504, with bounded growing delays', () => {
    const effects: Effect[] = [];
    const gen = send(
      { ...config, retry: { attempts: 4, baseDelayMs: 100, maxDelayMs: 250 } },
      prepare('profile', { handle: 'nasa' }),
    );
    let thrown: unknown;
    try {
      let s = gen.next();
      while (!s.done) {
        effects.push(s.value);
        s = gen.next(s.value.kind === 'sleep' ? undefined : fail(504, 'upstream_timeout'));
      }
    } catch (e) {
      thrown = e;
    }
    expect(effects.map((e) => e.kind)).toEqual(['http', 'sleep', 'http', 'sleep', 'http', 'sleep', 'http']);
    const delays = effects.filter((e) => e.kind === 'sleep').map((e) => (e as { ms: number }).ms);
    expect(delays[0]).toBeLessThanOrEqual(100);
    expect(delays[1]).toBeLessThanOrEqual(200);
    expect(delays[2]).toBeLessThanOrEqual(250);
    expect(delays[2]).toBeGreaterThanOrEqual(125);
    expect(thrown).toMatchObject({ code: 'upstream_timeout', details: { attempts: 4, creditsCharged: 0 } });
  });

  it.each([
    [400, 'missing_parameter'],
    [401, 'invalid_api_key'],
    [402, 'insufficient_credits'],
    [404, 'not_found'],
  ])('never retries %i', (status, code) => {
    const effects: Effect[] = [];
    const gen = request(config, 'profile', { handle: 'nasa' });
    let s = gen.next();
    effects.push(s.value as Effect);
    let thrown: unknown;
    try {
      s = gen.next(fail(status, code, status === 404 ? { credits_charged: 1, credits_remaining: 5 } : {}));
    } catch (e) {
      thrown = e;
    }
    expect(effects).toHaveLength(1);
    expect(thrown).toBeInstanceOf(IgApiError);
    expect((thrown as IgApiError).code).toBe(code);
    expect((thrown as IgApiError).charged).toBe(status === 404 ? 1 : 0);
  });

  it('retries 429 and network failures, honouring a short Retry-After', () => {
    const answers: RawResponse[] = [
      { status: 429, headers: { 'retry-after': '2' }, body: '' },
      { status: 0, headers: {}, body: '', error: 'ECONNRESET' },
      ok(profile),
    ];
    let k = 0;
    const { effects } = step(request({ ...config, retry: { attempts: 3 } }, 'profile', { handle: 'nasa' }), (e) =>
      e.kind === 'sleep' ? undefined : answers[k++],
    );
    expect(effects.filter((e) => e.kind === 'sleep').map((e) => (e as { ms: number }).ms)[0]).toBe(2000);
    expect(k).toBe(3);
  });

  it('tolerates new fields but rejects a broken shape as a schema error, not an API error', () => {
    expect(
      step(request(config, 'profile', { handle: 'nasa' }), () => ok({ ...profile, brand_new: { x: 1 } })).value.data,
    ).toHaveProperty('brand_new');
    let thrown: unknown;
    try {
      step(request(config, 'profile', { handle: 'nasa' }), () => ok({ username: 'nasa', followers: 'many' }));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(IgSchemaError);
    expect((thrown as IgSchemaError).issues.join()).toMatch(/data\.id|data\.followers/);
  });

  it('never puts the API key in an error message', () => {
    let thrown: unknown;
    try {
      step(request(config, 'profile', { handle: 'nasa' }), () => ({
        status: 0,
        headers: {},
        body: '',
        error: 'bad header Bearer sk_test_secret_123',
      }));
    } catch (e) {
      thrown = e;
    }
    expect(String((thrown as Error).message)).not.toContain('sk_test_secret_123');
  });

  it('reads next_cursor from data, falling back to meta', () => {
    const a = step(request(config, 'profile/posts', { handle: 'nasa' }), () =>
      ok({ items: [], next_cursor: 'c1' }),
    ).value;
    const b = step(request(config, 'profile/posts', { handle: 'nasa' }), () =>
      ok({ items: [] }, { next_cursor: 'c2' }),
    ).value;
    expect([a.nextCursor, b.nextCursor]).toEqual(['c1', 'c2']);
  });

  it('takes the balance from the header when meta lacks it', () => {
    const res = ok(profile, { credits_remaining: undefined }, { 'x-credits-remaining': '41' });
    expect(step(request(config, 'profile', { handle: 'nasa' }), () => res).value.creditsRemaining).toBe(41);
  });
});

describe('a batch', () => {
  it('sends one httpAll, retries only the transient failures together, keeps order', () => {
    const calls = ['a1', 'b2', 'c3'].map((h) => prepare('profile', { handle: h }));
    let round = 0;
    const { value, effects } = step(sendAll(config, calls), (e) => {
      if (e.kind === 'sleep') return undefined;
      round++;
      if (e.kind === 'httpAll')
        return [
          ok({ id: '1', username: 'a1' }),
          fail(502, 'upstream_error'),
          fail(404, 'not_found', { credits_charged: 1 }),
        ];
      return ok({ id: '2', username: 'b2' });
    });
    expect(effects.map((e) => e.kind)).toEqual(['httpAll', 'sleep', 'http']);
    expect(round).toBe(2);
    expect((value[0] as unknown as { data: { username: string } }).data.username).toBe('a1');
    expect((value[1] as unknown as { data: { username: string } }).data.username).toBe('b2');
    expect(isIgError(value[2]) && value[2].name === 'IgApiError' && value[2].code).toBe('not_found');
  });

  it('fails every call without a request when no API key is set', () => {
    const { value, effects } = step(sendAll({ apiKey: '' }, [prepare('profile', { handle: 'nasa' })]), () =>
      ok(profile),
    );
    expect(effects).toHaveLength(0);
    expect((value[0] as IgApiError).code).toBe('missing_api_key');
  });

  it('builds requests with no key header for a caller that authenticates them itself (n8n), and needs no key', () => {
    const { value, effects } = step(
      sendAll({ callerAuthenticates: true, baseUrl: 'https://api.test', authStyle: 'x-api-key' }, [
        prepare('profile', { handle: 'nasa' }),
      ]),
      () => ok(profile),
    );
    expect(effects).toEqual([
      {
        kind: 'http',
        request: {
          method: 'GET',
          url: 'https://api.test/v1/profile?handle=nasa',
          headers: { accept: 'application/json' },
        },
      },
    ]);
    expect((value[0] as unknown as { data: { username: string } }).data.username).toBe('nasa');
  });
});

describe('paging with caps', () => {
  const page = (n: number, next: string | null) =>
    ok(
      { items: Array.from({ length: n }, (_, i) => ({ id: String(i), username: `u${i}` })), next_cursor: next },
      { credits_charged: 2 },
    );

  it('requires a cap', () => {
    expect(() => paginate(config, prepare('profile/followers', { handle: 'nasa' }), {}).next()).toThrow(/limit/);
  });

  it('follows next_cursor to the end and says so', () => {
    const cursors: (string | null)[] = [];
    const r = step(paginate(config, prepare('profile/followers', { handle: 'nasa' }), { maxPages: 10 }), (e) => {
      cursors.push(new URL((e as { request: { url: string } }).request.url).searchParams.get('cursor'));
      return cursors.length < 3 ? page(25, `cur${cursors.length}`) : page(5, null);
    });
    expect(cursors).toEqual([null, 'cur1', 'cur2']);
    expect(r.value).toMatchObject({ stoppedBy: 'end', pages: 3, creditsCharged: 6, nextCursor: null });
    expect(r.value.items).toHaveLength(55);
  });

  it('stops at the item limit, the page limit, or before exceeding the credit cap', () => {
    const mk = (cap: object) =>
      step(paginate(config, prepare('profile/followers', { handle: 'nasa' }), cap), () => page(25, 'more')).value;
    expect(mk({ maxItems: 30 })).toMatchObject({ stoppedBy: 'items', pages: 2 });
    expect(mk({ maxItems: 30 }).items).toHaveLength(30);
    expect(mk({ maxPages: 2 })).toMatchObject({ stoppedBy: 'pages', pages: 2 });
    expect(mk({ maxCredits: 5 })).toMatchObject({ stoppedBy: 'credits', pages: 2, creditsCharged: 4 });
    expect(mk({ maxCredits: 1 })).toMatchObject({ stoppedBy: 'credits', pages: 0, creditsCharged: 0 });
  });

  it('shares a budget with other calls: stops before a page the ledger refuses, settles real charges', () => {
    const ledger = new CreditLedger(7);
    ledger.tryReserve(1);
    ledger.settle(1, 1); // another call already spent 1
    const r = step(paginate(config, prepare('profile/followers', { handle: 'nasa' }), { budget: ledger }), () =>
      page(25, 'more'),
    ).value;
    expect(r).toMatchObject({ stoppedBy: 'credits', pages: 3, creditsCharged: 6 });
    expect(ledger.spent).toBe(7);
  });

  it('keeps the items of paid pages when a later page fails, and says why', () => {
    let n = 0;
    const r = step(
      paginate(config, prepare('profile/followers', { handle: 'nasa' }), { maxPages: 5, budget: new CreditLedger() }),
      () => (++n === 1 ? page(25, 'c1') : fail(404, 'not_found', { credits_charged: 2 })),
    ).value;
    expect(r).toMatchObject({ stoppedBy: 'error', pages: 1, creditsCharged: 4, requestIds: ['r1'] });
    expect(r.items).toHaveLength(25);
    expect(r.error).toMatchObject({ code: 'not_found' });
  });

  it('throws when the first page fails: there is nothing to keep', () => {
    const gen = paginate(config, prepare('profile/followers', { handle: 'nasa' }), { maxPages: 5 });
    gen.next();
    expect(() => gen.next(fail(401, 'invalid_api_key'))).toThrow(IgApiError);
  });
});
