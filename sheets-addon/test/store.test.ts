/** The answer store in-process over a cache with CacheService's limits: buckets, loose items, chunks, the lock. */
import type { CachedAnswer } from '../src/engine/types';
import { BUCKET_MAX_BYTES, bucketOf, createAnswerStore, split } from '../src/engine/store';
import { createClaimStore } from '../src/engine/claim-store';
import { memoryCache, sha256Base64 } from './fakes';

const answer = (data: Record<string, unknown>, at = 1): CachedAnswer => ({
  ok: true,
  data,
  next: null,
  charged: 1,
  at,
});

function store(lockFree = true) {
  const cache = memoryCache();
  const warnings: string[] = [];
  let locks = 0;
  const s = createAnswerStore({
    cache,
    sha256Base64,
    now: () => 1000,
    warn: (m) => warnings.push(m),
    tryLock: () => (lockFree ? (locks++, () => undefined) : null),
  });
  return { s, cache, warnings, locks: () => locks };
}

test('keys are 49 characters whatever the request, and never hold the API key', () => {
  const { s } = store();
  const k = s.keyFor('https://api.test', 'profile?handle=' + 'x'.repeat(500));
  expect(k).toMatch(/^igd1:[A-Za-z0-9+/]{43}=$/);
});

test('answers are packed in buckets under the lock; read back as written', () => {
  const { s, cache, locks } = store();
  const m = new Map([...Array(20).keys()].map((i) => [`igd1:k${i}`, answer({ i })]));
  s.putMany(m);
  expect(locks()).toBe(1);
  expect([...cache.items.keys()].every((k) => /^igd1:b:\d+$/.test(k))).toBe(true);
  expect(s.getMany([...m.keys()])).toEqual(m);
});

test('lock not obtained: answers are written loose and still hit', () => {
  const { s, cache } = store(false);
  s.putMany(new Map([['igd1:a', answer({ a: 1 })]]));
  expect([...cache.items.keys()]).toEqual(['igd1:a']);
  expect(s.getMany(['igd1:a']).get('igd1:a')).toEqual(answer({ a: 1 }));
});

test('a value over 100 KB is chunked under the limit; a lost chunk is a miss, never a corrupt answer', () => {
  const { s, cache } = store(false);
  const big = answer({ caption: 'caf\u00e9 \u{1F331}\u20ac '.repeat(20000) });
  s.putMany(new Map([['igd1:big', big]]));
  expect(cache.items.size).toBeGreaterThanOrEqual(4);
  for (const v of cache.items.values()) expect(Buffer.byteLength(v)).toBeLessThanOrEqual(100 * 1024);
  expect(s.getMany(['igd1:big']).get('igd1:big')).toEqual(big);
  cache.items.delete([...cache.items.keys()].find((k) => /\.\d+$/.test(k))!);
  expect(s.getMany(['igd1:big']).size).toBe(0);
});

test('a full bucket spills its biggest answers to loose items', () => {
  const { s, cache } = store();
  const keys: string[] = [];
  for (let i = 0; keys.length < 10; i++) if (bucketOf(`igd1:k${i}`) === 'igd1:b:7') keys.push(`igd1:k${i}`);
  const m = new Map(keys.map((k, i) => [k, answer({ bio: 'x'.repeat(i === 0 ? 60000 : 20000), i })]));
  s.putMany(m);
  expect(Buffer.byteLength(cache.items.get('igd1:b:7')!)).toBeLessThanOrEqual(BUCKET_MAX_BYTES);
  expect(cache.items.has(keys[0])).toBe(true); // the biggest went loose
  expect(s.getMany(keys).size).toBe(10);
});

test('a cache failure never fails the caller: it is reported', () => {
  const { s, cache, warnings } = store();
  cache.putAll = () => {
    throw new Error('Service invoked too many times');
  };
  expect(() => s.putMany(new Map([['igd1:a', answer({})]]))).not.toThrow();
  expect(warnings).toEqual(['IG Data: could not cache 1 result(s): Service invoked too many times']);
});

test('chunks never split a surrogate pair', () => {
  const parts = split('a\u{1F331}b', 2);
  expect(parts.join('')).toBe('a\u{1F331}b');
  expect(parts[0]).toBe('a');
});

test("each endpoint's own reuse limit applies on read, to answers stored before it existed too (keys made by keyFor)", () => {
  const HOUR = 3600000;
  let now = 10 * HOUR;
  const cache = memoryCache();
  const s = createAnswerStore({
    cache,
    sha256Base64,
    now: () => now,
    tryLock: () => () => undefined,
    maxAgeMs: 168 * HOUR,
  });
  const stories = s.keyFor('https://api.test', 'profile/stories?handle=nasa');
  const profile = s.keyFor('https://api.test', 'profile?handle=nasa');
  s.putMany(
    new Map([
      [stories, answer({ items: [] }, now)],
      [profile, answer({ followers: 1 }, now)],
    ]),
  );
  now += 30 * 60000;
  expect([...s.getMany([stories, profile]).keys()]).toEqual([stories, profile]);
  now += HOUR; // stories live 1 hour in the store (maxReuseHours); a profile the setting's 7 days
  expect([...s.getMany([stories, profile]).keys()]).toEqual([profile]);
  expect(s.limitOf(stories)).toBe(HOUR);
  expect(s.limitOf(profile)).toBeUndefined();
});

test("another execution's answers written into a bucket between two of our writes are kept (the bucket is read again, not remembered)", () => {
  const shared = memoryCache();
  const mk = () => createAnswerStore({ cache: shared, sha256Base64, now: () => 1000, tryLock: () => () => undefined });
  const [mine, theirs] = [mk(), mk()];
  // Keys in one bucket.
  const keys = [...Array(2000).keys()]
    .map((i) => `igd1:k${i}`)
    .filter((k) => bucketOf(k) === bucketOf('igd1:k0'))
    .slice(0, 3);
  mine.putMany(new Map([[keys[0], answer({ n: 0 })]]));
  theirs.putMany(new Map([[keys[1], answer({ n: 1 })]]));
  mine.putMany(new Map([[keys[2], answer({ n: 2 })]]));
  expect([...mk().getMany(keys).values()].map((a) => a.ok && a.data.n)).toEqual([0, 1, 2]);
});

test('a claim round reads its answers, the claims and the buckets it rewrites in one getAll', () => {
  const cache = memoryCache();
  let getAlls = 0;
  const counted = { ...cache, getAll: (k: string[]) => (getAlls++, cache.getAll(k)) };
  const s = createAnswerStore({ cache: counted, sha256Base64, now: () => 1000, tryLock: () => () => undefined });
  const claims = createClaimStore({ store: s, cache: counted, now: () => 1000, sleep: () => undefined })!;
  const publish = new Map([...Array(50).keys()].map((i) => [`igd1:p${i}`, answer({ i })]));
  const wanted = [...Array(100).keys()].map((i) => `igd1:w${i}`);
  expect(claims.round('me', wanted, publish, 50)?.taken).toHaveLength(50);
  expect(getAlls).toBe(1);
  expect(s.getMany([...publish.keys()]).size).toBe(50);
});
