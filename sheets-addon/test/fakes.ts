/**
 * In-memory stand-ins for the engine's platform interfaces, for in-process unit tests: a small service (profiles
 * and paged posts, billed like the real one), a key-value cache with CacheService's size limits,
 * and engine dependencies built from them. No Apps Script, no sandbox, no build.
 */
import { createHash } from 'node:crypto';
import type { HttpRequest, RawResponse } from '@igdata/core';
import type { EngineDeps, KeyValueCache, SheetsClient } from '../src/engine/deps';
import { clientConfig } from '../src/engine/messages';
import { createAnswerStore } from '../src/engine/store';
import { TEST_START } from '../../test/support/clock';

export const BASE = 'https://api.test';
export const KEY = 'sk_unit_test_key_123';

export const PROFILES: Record<string, number> = { nasa: 97400000, natgeo: 283000000, nike: 302000000 };
/** Posts per account (12 a page, 2 credits a page). */
export const POSTS = 30;

export interface FakeService {
  io: SheetsClient['io'];
  /** Path and query of every request sent, in order. */
  sent: string[];
  /** Requests per fetchAll call (a single fetch is a batch of one). */
  batches: number[];
  credits: number;
  /** When set, a fetchAll containing a matching URL throws the way UrlFetchApp does (naming the first). */
  unreachable?: RegExp;
  /** Account ids by handle (default `id_<handle>`): an account renamed keeps its id. */
  ids?: Record<string, string>;
}

const json = (status: number, body: unknown): RawResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export function fakeService(): FakeService {
  const svc: FakeService = {
    sent: [],
    batches: [],
    credits: 0,
    io: {
      stats: { requests: 0, batches: 0 },
      fetch: (r) => answer(r),
      fetchAll: (rs) => {
        svc.batches.push(rs.length);
        svc.io.stats.batches++;
        const down = svc.unreachable && rs.find((r) => svc.unreachable!.test(r.url));
        if (down) {
          svc.io.stats.requests += rs.length;
          throw new Error(`Address unavailable: ${down.url}`);
        }
        return rs.map((r) => answer(r, true));
      },
      sleep: () => undefined,
    },
  };
  function answer(r: HttpRequest, inBatch = false): RawResponse {
    if (!inBatch) {
      svc.batches.push(1);
      svc.io.stats.batches++;
    }
    svc.io.stats.requests++;
    const url = new URL(r.url);
    svc.sent.push(url.pathname.replace(/^\/v1\//, '') + url.search);
    if (svc.unreachable?.test(r.url)) throw new Error(`Address unavailable: ${r.url}`);
    if (r.headers.authorization !== `Bearer ${KEY}`)
      return json(401, {
        error: { code: 'invalid_api_key', message: 'Invalid API key.' },
        meta: { credits_charged: 0 },
      });
    // The balance is free (as the service's credits endpoint is).
    if (url.pathname === '/v1/credits')
      return json(200, { data: { credits_remaining: 100000 }, meta: { credits_charged: 0 } });
    const handle = url.searchParams.get('handle') ?? '';
    // acct_<n>: any number of made-up accounts (schedules over long columns).
    const known = handle in PROFILES || /^acct_\d+$/.test(handle);
    const path = url.pathname.replace(/^\/v1\//, '');
    const price = path === 'profile' ? 1 : 2;
    svc.credits += price;
    if (!known)
      return json(404, { error: { code: 'not_found', message: 'No public data.' }, meta: { credits_charged: price } });
    if (path === 'profile') {
      return json(200, {
        data: {
          id: svc.ids?.[handle] ?? `id_${handle}`,
          username: handle,
          followers: PROFILES[handle] ?? 1000 + svc.credits,
          following: 82,
          posts: 10,
        },
        meta: { credits_charged: 1 },
      });
    }
    const from = Number(url.searchParams.get('cursor') ?? 0);
    // A list whose first page came back empty (items filtered out) with more behind it.
    if (handle === 'natgeo' && !url.searchParams.has('cursor'))
      return json(200, { data: { items: [], next_cursor: '0' }, meta: { credits_charged: 2 } });
    const items = Array.from({ length: Math.max(0, Math.min(12, POSTS - from)) }, (_, i) => ({
      id: `${handle}_${from + i}`,
      shortcode: `${handle}${from + i}`,
      type: 'image',
      taken_at: '2025-06-01T12:00:00Z',
      like_count: from + i,
    }));
    return json(200, {
      data: { items, next_cursor: from + 12 < POSTS ? String(from + 12) : null },
      meta: { credits_charged: 2 },
    });
  }
  return svc;
}

/** A key-value cache with CacheService's limits (250-character keys, 100 KB values). */
export function memoryCache(): KeyValueCache & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getAll: (keys) => Object.fromEntries(keys.flatMap((k) => (items.has(k) ? [[k, items.get(k) as string]] : []))),
    putAll: (values) => {
      for (const [k, v] of Object.entries(values)) {
        if (k.length > 250) throw new Error('Argument too large: key');
        if (Buffer.byteLength(v) > 100 * 1024) throw new Error('Argument too large: value');
        items.set(k, v);
      }
    },
  };
}

export const sha256Base64 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');

/**
 * Engine dependencies over a fake service and an in-memory cache (the lock always free). The clock
 * stands at the tests' named instant unless a test passes its own (a test never reads the real one).
 */
export function fakeDeps(
  svc = fakeService(),
  cache = memoryCache(),
  now = () => Date.parse(TEST_START),
): EngineDeps & { svc: FakeService; cache: ReturnType<typeof memoryCache> } {
  const store = createAnswerStore({ cache, tryLock: () => () => undefined, sha256Base64, now });
  return { client: { config: clientConfig({ apiKey: KEY, baseUrl: BASE }), io: svc.io }, store, now, svc, cache };
}
