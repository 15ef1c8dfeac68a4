/**
 * The built custom functions (sheets-addon/dist) in the Apps Script stand-in, against the sandbox
 * over real HTTP: every function, ranges, de-duplication, the cache (hits counted at the sandbox),
 * fetchAll batching, the time budget, every error cell (the JSDoc of the generated entry file:
 * functions-entry.test.ts).
 */
import type { EndpointDef } from '@igdata/core';
import { endpoints, getEndpoint } from '@igdata/core';
import { argLayout } from '../../sheets-addon/src/engine/layout';
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { DEMO_KEY, PROP, SandboxProcess, addonRuntime, column, startSandbox } from './harness';

const NOT_REACHED = 'Not reached in time: recalculate to continue (already fetched rows are cached)';
let sb: SandboxProcess;
let fixtures: { posts: { nasa_newest: string } };
const runtimes: GasRuntime[] = [];
const runtime = (opts: Parameters<typeof addonRuntime>[1] = {}) => {
  const rt = addonRuntime(sb.url, opts);
  runtimes.push(rt);
  return rt;
};

beforeAll(async () => {
  sb = await startSandbox();
  fixtures = await (await fetch(`${sb.url}/_sandbox/fixtures`)).json();
});
afterAll(async () => {
  for (const rt of runtimes) await rt.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.reset();
});

function validArgs(e: EndpointDef): unknown[] {
  return argLayout(e).map((spec) => {
    if (spec.role === 'target') {
      const p = spec.param!;
      if (p.kind === 'handle') return 'nasa';
      if (p.kind === 'post') return fixtures.posts.nasa_newest;
      if (p.kind === 'tag') return '#VeganRecipes';
      if (p.kind === 'location') return '213385402';
      return e.id === 'search/users' ? 'nasa' : e.id === 'search/locations' ? 'park' : 'vegan';
    }
    if (spec.role === 'param' && spec.param!.required) return 'space science educators';
    return undefined;
  });
}

const ERROR_TEXT = /Not charged|Charged \d+ credit|Not reached|No items|Invalid API key|No API key/;

describe('every registry endpoint has a working custom function', () => {
  test.each(endpoints.map((e) => [e.fn, e] as const))('%s', async (fn, e) => {
    const rt = runtime();
    const before = rt.stats.requests;
    const out = rt.custom(fn, ...validArgs(e));
    const flat = Array.isArray(out) ? out.flat() : [out];
    expect(flat.length).toBeGreaterThan(0);
    expect(flat.filter((v) => typeof v === 'string' && ERROR_TEXT.test(v))).toEqual([]);
    const s = await sb.stats();
    expect(s.byEndpoint[e.id]).toBe(1); // exactly one request to this endpoint
    expect(rt.stats.requests - before).toBe(1);
    // Recalculating is served from the cache (credits excepted: a balance is never cached).
    rt.custom(fn, ...validArgs(e));
    expect((await sb.stats()).total).toBe(e.id === 'credits' ? 2 : 1);
  });
});

describe('range-first', () => {
  test('one row per input row, aligned; blank rows stay blank; repeated targets fetched once', async () => {
    const rt = runtime();
    const input = column([
      'nasa',
      '@NASA',
      'https://www.instagram.com/nasa/?hl=en',
      '',
      'natgeo',
      'not a handle!',
      '  Nike  ',
    ]);
    const out = rt.custom('IGPROFILE', input, 'username,followers,is_verified') as unknown[][];
    expect(out).toHaveLength(7);
    expect(out[0]).toEqual(['nasa', 97400000, true]);
    expect(out[1]).toEqual(out[0]);
    expect(out[2]).toEqual(out[0]);
    expect(out[3]).toEqual(['', '', '']);
    expect(out[4][0]).toBe('natgeo');
    expect(out[5][0]).toMatch(
      /^handle must be a username, @username, numeric id or profile URL; got "not a handle!"\. \(Not charged\.\)$/,
    );
    expect(out[6][0]).toBe('nike');
    const s = await sb.stats();
    expect(s.byRequest).toEqual({ 'profile?handle=nasa': 1, 'profile?handle=natgeo': 1, 'profile?handle=nike': 1 });
    expect(s.creditsBilled).toBe(3);
    expect(rt.stats.fetchAllCalls).toBe(1); // the three went out together
  });

  test('one field gives a bare value for one cell, a column for a range; header option', () => {
    const rt = runtime();
    expect(rt.custom('IGPROFILE', 'nasa', 'followers')).toBe(97400000);
    expect(rt.custom('IGPROFILE', column(['nasa', 'natgeo']), 'followers')).toEqual([[97400000], [283000000]]);
    expect(rt.custom('IGPROFILE', 'nasa', 'followers,following', true)).toEqual([
      ['followers', 'following'],
      [97400000, 82],
    ]);
    // fields as a range of names
    expect(rt.custom('IGPROFILE', 'nasa', [['followers', 'following']], false)).toEqual([[97400000, 82]]);
  });

  test('one target with several fields gets a header row by default (=IGENGAGEMENT(A2) is labelled)', () => {
    const rt = runtime();
    const out = rt.custom('IGENGAGEMENT', 'nasa') as unknown[][];
    expect(out).toHaveLength(2);
    expect(out[0]).toEqual(getEndpoint('insights/profile/engagement').columns);
    expect(out[1].every((v) => typeof v !== 'string' || !/Not charged|Charged/.test(v))).toBe(true);
    expect(rt.custom('IGENGAGEMENT', 'nasa', 12, 'engagement_rate_pct')).toEqual(expect.any(Number));
  });

  test('a target left out is a clear message naming the argument, never a silent blank', async () => {
    const rt = runtime();
    expect(() => rt.custom('IGPROFILE')).toThrow(
      'handle must be a username, @username, numeric id or profile URL; got nothing (the argument is left out). (Not charged.)',
    );
    expect(rt.custom('IGPROFILE', '', 'followers')).toBe(''); // a blank cell is a blank row
    await expect(sb.stats()).resolves.toMatchObject({ total: 0 });
  });

  test('list functions: limit pages through, dates are real dates, numbers numbers', async () => {
    const rt = runtime();
    const out = rt.custom('IGPOSTS', 'nasa', 'shortcode,taken_at,like_count', false, 20) as unknown[][];
    expect(out).toHaveLength(20);
    expect(out[0][1]).toBeInstanceOf(Date);
    expect(typeof out[0][2]).toBe('number');
    const s = await sb.stats();
    expect(s.byEndpoint['profile/posts']).toBe(2); // 12 per page: two pages for 20 items
    // A range of targets: blocks labelled with the target, the header names it.
    const many = rt.custom('IGPOSTS', column(['nasa', 'natgeo']), 'shortcode', true, 3) as unknown[][];
    expect(many[0]).toEqual(['handle', 'shortcode']);
    expect(many.slice(1).map((r) => r[0])).toEqual(['nasa', 'nasa', 'nasa', 'natgeo', 'natgeo', 'natgeo']);
  });

  test('fetchAll batches of at most 50, cached ones not fetched', async () => {
    const rt = runtime();
    const handles = Array.from({ length: 120 }, (_, i) => `nobody_${i}`);
    const out = rt.custom('IGPROFILE', column(handles), 'followers') as unknown[][];
    expect(out).toHaveLength(120);
    expect(String(out[0][0])).toMatch(
      /^@nobody_0 has no public data: private, deleted or nonexistent\. \(Charged 1 credit\.\)$/,
    );
    expect(rt.stats.fetchAllCalls).toBe(3);
    expect(rt.stats.maxBatchSize).toBe(50);
    expect(rt.maxConcurrentRequests).toBeGreaterThan(1);
    // 40 more: only the new ones go out
    const more = [...handles, ...Array.from({ length: 40 }, (_, i) => `newcomer_${i}`)];
    rt.custom('IGPROFILE', column(more), 'followers');
    const s = await sb.stats();
    expect(s.total).toBe(160);
    expect(s.creditsBilled).toBe(160);
  });
});

describe('cache', () => {
  test('recalculating within the TTL makes zero requests; refresh bypasses; after 6 h it fetches again', async () => {
    const rt = runtime();
    const input = column(['nasa', 'natgeo', 'locked_acc']);
    const first = rt.custom('IGPROFILE', input, 'followers');
    await expect(sb.stats()).resolves.toMatchObject({ total: 3, creditsBilled: 3 });
    // Different fields share the cached request; a new execution context each time, as in Sheets.
    rt.clock.advance(5 * 3600 * 1000);
    expect(rt.custom('IGPROFILE', input, 'followers')).toEqual([
      (first as unknown[][])[0],
      (first as unknown[][])[1],
      ['@locked_acc is private: no public data. (Charged 1 credit when first looked up on 25 Nov; free now.)'],
    ]);
    rt.custom('IGPROFILE', input, 'username,is_verified');
    await expect(sb.stats()).resolves.toMatchObject({ total: 3, creditsBilled: 3 });
    // Force refresh goes out again (and refreshes the cache).
    rt.custom('IGPROFILE', input, 'followers', false, true);
    await expect(sb.stats()).resolves.toMatchObject({ total: 6 });
    // Past the 6-hour maximum the entries are gone.
    rt.clock.advance(6 * 3600 * 1000 + 1000);
    rt.custom('IGPROFILE', input, 'followers');
    await expect(sb.stats()).resolves.toMatchObject({ total: 9 });
  });

  test('keys are short and never hold the key; large values are chunked under 100 KB', async () => {
    const rt = runtime();
    rt.custom('IGFOLLOWERS', 'nasa', 'username', false, 50);
    rt.custom('IGPOSTS', 'natgeo', 'caption', false, 60);
    const entries = rt.caches.document.dump();
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(e.key.length).toBeLessThanOrEqual(250);
      expect(e.key).toMatch(/^igd1:/);
      expect(Buffer.byteLength(e.value)).toBeLessThanOrEqual(100 * 1024);
      expect(e.expiresAt - e.createdAt).toBe(21600 * 1000);
    }
    expect(rt.findSecret(DEMO_KEY)).toEqual([]);
  });

  test('a value over 100 KB is split in chunks under the real limit and read back whole', () => {
    const rt = runtime({ store: true });
    // 250 KB of text with 3-byte characters and surrogate pairs, so chunk edges fall inside them.
    const caption = 'caf\u00e9 \u{1F331}\u20ac '.repeat(20000);
    const value = { ok: true, data: { items: [{ caption }], next_cursor: null }, next: null, charged: 2, at: 1 };
    const out = rt.evaluate(
      `
      var key = 'igd1:test-key';
      IGSTORE.putMany(new Map([[key, ${JSON.stringify(value)}]]));
      var back = IGSTORE.getMany([key]).get(key);
      JSON.stringify(back);
    `,
      { kind: 'custom' },
    );
    expect(JSON.parse(out)).toEqual(value);
    const entries = rt.caches.document.dump();
    expect(entries.length).toBeGreaterThanOrEqual(4); // the entry + at least 3 chunks
    for (const e of entries) expect(Buffer.byteLength(e.value)).toBeLessThanOrEqual(100 * 1024);
    // A lost chunk is a miss, never a corrupt value.
    rt.caches.document.delete(entries.find((e) => /\.\d+$/.test(e.key))!.key);
    expect(rt.evaluate(`IGSTORE.getMany(['igd1:test-key']).size`, { kind: 'custom' })).toBe(0);
  });
});

describe('time budget', () => {
  test('rows not reached in time say so; recalculating continues without refetching', async () => {
    await sb.setFaults({ latencyMs: 7000 });
    try {
      const rt = runtime();
      const handles = Array.from({ length: 150 }, (_, i) => `slow_${i}`);
      const t0 = Date.now();
      const out = rt.custom('IGPROFILE', column(handles), 'followers') as unknown[][];
      expect(Date.now() - t0).toBeLessThan(30000);
      const late = out.filter((r) => r[0] === NOT_REACHED).length;
      expect(late).toBe(50);
      expect(out[149][0]).toBe(NOT_REACHED);
      await expect(sb.stats()).resolves.toMatchObject({ total: 100 });
      await sb.setFaults({ latencyMs: 0 });
      const again = rt.custom('IGPROFILE', column(handles), 'followers') as unknown[][];
      expect(again.filter((r) => r[0] === NOT_REACHED)).toHaveLength(0);
      await expect(sb.stats()).resolves.toMatchObject({ total: 150 });
    } finally {
      await sb.setFaults({ latencyMs: 0 });
    }
  }, 60000);
});

describe('a clear cell for every failure', () => {
  test('no key: where to set it, no request', async () => {
    const rt = runtime({ key: null });
    expect(rt.custom('IGPROFILE', 'nasa', 'followers')).toBe(
      'No API key is set. Set it in Extensions > IG Data > Settings. (Not charged.)',
    );
    await expect(sb.stats()).resolves.toMatchObject({ total: 0 });
  });

  test('invalid key (401)', () => {
    const rt = runtime({ key: 'sk_wrong_key_123456' });
    expect(rt.custom('IGPROFILE', 'nasa', 'followers')).toBe(
      'Invalid API key. Set it in Extensions > IG Data > Settings. (Not charged.)',
    );
    expect(rt.findSecret('sk_wrong_key_123456')).toEqual([]);
  });

  test('not found (404): private, deleted or nonexistent, and billed; cached so never billed twice (and then free, it says)', async () => {
    const rt = runtime();
    const msg = '@locked_acc is private: no public data. (Charged 1 credit.)';
    expect(rt.custom('IGPROFILE', 'locked_acc', 'followers')).toBe(msg);
    expect(rt.custom('IGPROFILE', '@Locked_Acc', 'followers')).toBe(
      msg.replace('(Charged 1 credit.)', '(Charged 1 credit when first looked up on 25 Nov; free now.)'),
    );
    await expect(sb.stats()).resolves.toMatchObject({ total: 1, creditsBilled: 1 });
  });

  test('a billed "no public data" recalculated is served again: free now, it says, with the day of its first lookup in the sheet\'s time zone', async () => {
    // 23:30 UTC on 1 Dec is 00:30 on 2 Dec in Berlin: the note follows the sheet's zone, not UTC's day.
    const rt = runtime({ startAt: '2026-12-01T23:30:00Z', timeZone: 'Europe/Berlin' });
    const what = '@locked_acc is private: no public data.';
    expect(rt.custom('IGPROFILE', 'locked_acc', 'followers')).toBe(`${what} (Charged 1 credit.)`);
    const requests = rt.stats.requests;
    rt.advance(2 * 3600000);
    expect(rt.custom('IGPROFILE', 'locked_acc', 'followers')).toBe(
      `${what} (Charged 1 credit when first looked up on 2 Dec; free now.)`,
    );
    expect(rt.stats.requests).toBe(requests);
    await expect(sb.stats()).resolves.toMatchObject({ total: 1, creditsBilled: 1 });
  });

  test('out of credits (402)', async () => {
    const key = await sb.createKey(0);
    const rt = runtime({ key });
    expect(rt.custom('IGPROFILE', column(['nasa', 'natgeo']), 'followers')).toEqual([
      ['Out of credits: 0 left. Top up to continue. (Not charged.)'],
      ['Out of credits: 0 left. Top up to continue. (Not charged.)'],
    ]);
  });

  test.each([
    [502, 'The data provider failed after 3 tries. Try again later. (Not charged.)'],
    [504, 'The data provider timed out after 3 tries. Try again later. (Not charged.)'],
  ])('provider error %i after retries', async (status, message) => {
    await sb.setFaults({ faultRate: 1, faultStatus: status, slowMs: 0 });
    try {
      const rt = runtime();
      expect(rt.custom('IGPROFILE', 'nasa', 'followers')).toBe(message);
      expect((await sb.stats()).total).toBe(3);
      expect(rt.stats.sleeps).toBe(2); // backoff between the tries
      // A transient failure is not cached: the next recalculation tries again.
      await sb.setFaults({ faultRate: 0 });
      expect(rt.custom('IGPROFILE', 'nasa', 'followers')).toBe(97400000);
    } finally {
      await sb.setFaults({ faultRate: 0 });
    }
  });

  test('service unreachable: says so, not charged', () => {
    const rt = runtime();
    rt.properties.document.set(PROP.baseUrl, 'http://127.0.0.1:9');
    expect(String(rt.custom('IGPROFILE', 'nasa', 'followers'))).toMatch(
      /^Could not reach the service after 3 tries: .*Check the base URL.*\(Not charged\.\)$/,
    );
  });

  test.each([
    [['IGENGAGEMENT', 'nasa', 99], 'posts must be a whole number from 1 to 50; got 99. (Not charged.)'],
    [
      ['IGENGAGEMENT', column(['nasa', 'natgeo']), 0],
      'posts must be a whole number from 1 to 50; got 0. (Not charged.)',
    ],
    [['IGAUDIT', 'nasa', 501], 'sample must be a whole number from 1 to 500; got 501. (Not charged.)'],
    [['IGBESTTIME', 'nasa', 30, 15], 'timezone must be a whole number from -12 to 14; got 15. (Not charged.)'],
    [
      ['IGPROFILE', 'nasa', 'followrs'],
      /^fields must be one or more of: id, username, .*followers.*; got "followrs" \(did you mean followers\?\)\. \(Not charged\.\)$/,
    ],
    [['IGPOSTS', 'nasa', '', true, 0], 'limit must be a whole number from 1 to 500; got 0. (Not charged.)'],
    [['IGPROFILE', 'nasa', 'followers', 'maybe'], 'header must be TRUE or FALSE; got "maybe". (Not charged.)'],
    [
      ['IGQUALIFY', 'nasa', ''],
      /^criteria must be given \(plain-language description of the ideal lead\); got an empty value\. \(Not charged\.\)$/,
    ],
    [
      ['IGPROFILE', 'a b'],
      'handle must be a username, @username, numeric id or profile URL; got "a b". (Not charged.)',
    ],
    [
      [
        'IGPROFILE',
        [
          ['nasa', 'natgeo'],
          ['nike', 'x'],
        ],
      ],
      'handle must be a single cell, one column or one row of cells; got a range of 2 rows and 2 columns. (Not charged.)',
    ],
  ])('bad argument %j fails the formula before any request', async (args, message) => {
    const rt = runtime();
    const [fn, ...rest] = args as [string, ...unknown[]];
    let error: unknown;
    try {
      rt.custom(fn, ...rest);
    } catch (e) {
      error = e;
    }
    expect(error).toBeDefined();
    expect((error as Error).message).toEqual(typeof message === 'string' ? message : expect.stringMatching(message));
    expect(rt.stats.requests).toBe(0);
    await expect(sb.stats()).resolves.toMatchObject({ total: 0 });
  });
});

describe('settings', () => {
  test('custom functions work for editors of a shared sheet (document properties), key never leaks', async () => {
    const rt = runtime();
    expect(rt.run('IGPROFILE', ['nasa', 'followers'], { kind: 'custom', user: 'editor@example.com' })).toBe(97400000);
    expect(rt.findSecret(DEMO_KEY)).toEqual([]);
  });

  test('onOpen adds the IG Data menu with Settings and Bulk lookup', () => {
    const rt = runtime();
    rt.trigger('onOpen', { authMode: 'NONE' });
    const menu = rt.ui.menus[0];
    expect(menu.caption).toBe('IG Data');
    expect(JSON.stringify(menu)).toContain('Settings');
    expect(JSON.stringify(menu)).toContain('showSidebar');
  });
});
