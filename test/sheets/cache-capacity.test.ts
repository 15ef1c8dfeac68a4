/**
 * The cache's capacity: Apps Script's cache holds ~1,000 items and evicts the oldest 10 % beyond
 * that (as the stand-in does), so answers are packed many to a bucket item. Two 800-row formulas
 * (1,600 distinct answers, 400 of each a billed 404) must recalculate for free within the 6-hour
 * TTL; bucket writes must not lose other executions' answers; with the document lock held
 * elsewhere, answers are still cached (written loose) and still hit.
 */
import { getWorld } from '../../scripts/sandbox/world/build';
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { DEMO_KEY, SandboxProcess, addonRuntime, column, startSandbox } from './harness';

const NOT_REACHED = 'Not reached in time: recalculate to continue (already fetched rows are cached)';
const BUCKET = /^igd1:b:\d+$/;
let sb: SandboxProcess;
const runtimes: GasRuntime[] = [];
const runtime = (opts: Parameters<typeof addonRuntime>[1] = {}) => {
  const rt = addonRuntime(sb.url, opts);
  runtimes.push(rt);
  return rt;
};

// The sandbox's 400 accounts (seed 42, as the harness starts it); its private ones are billed 404s.
const real = getWorld(42)
  .accounts.map((a) => a.username)
  .slice(0, 400);
const unknown = Array.from({ length: 400 }, (_, i) => `nobody_cap_${i}`);
const handles = [...real, ...unknown];

beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  for (const rt of runtimes) await rt.close();
  await sb?.close();
});
beforeEach(async () => {
  await sb.reset();
});

const flat = (v: unknown): unknown[] => (Array.isArray(v) ? v.flat() : [v]);
/**
 * A range's output as it reads when served again from the store (the clock starts on 25 Nov): the
 * same values, and each billed failure's note says it is free now.
 */
const again = (out: unknown): unknown =>
  Array.isArray(out)
    ? out.map(again)
    : typeof out === 'string'
      ? out.replace(/\(Charged (\d+ credits?)\.\)$/, '(Charged $1 when first looked up on 25 Nov; free now.)')
      : out;
const buckets = (rt: GasRuntime) => rt.caches.document.dump().filter((e) => BUCKET.test(e.key));
// Loose answers: items that are neither buckets nor the usage log's item (not an answer, gas/usage.ts).
const loose = (rt: GasRuntime) =>
  rt.caches.document.dump().filter((e) => !BUCKET.test(e.key) && e.key !== 'igd1:usage');

test('two 800-row formulas (1,600 answers): recalculating within the TTL makes no request and bills nothing', async () => {
  expect(real).toHaveLength(400);
  const rt = runtime();
  const profile = rt.custom('IGPROFILE', column(handles), 'username,followers');
  const engagement = rt.custom('IGENGAGEMENT', column(handles));
  for (const out of [profile, engagement]) {
    expect(out).toHaveLength(800);
    expect(flat(out)).not.toContain(NOT_REACHED);
  }
  expect(profile[0]).toEqual([real[0], expect.any(Number)]);
  expect(String(profile[400][0])).toMatch(/^@nobody_cap_0 has no public data.*\(Charged 1 credit\.\)$/);
  const first = await sb.stats();
  expect(first.total).toBe(1600);
  expect(first.total).toBeGreaterThan(rt.limits.cacheMaxItems); // one item per answer would not fit
  const billed = first.creditsBilled;
  expect(billed).toBeGreaterThanOrEqual(1600);

  // Far fewer items than answers, nothing evicted, every guarantee on every item.
  const items = rt.caches.document.dump();
  expect(items.length).toBeLessThanOrEqual(200);
  expect(rt.stats.cacheEvictions).toBe(0);
  for (const e of items) {
    expect(e.key.length).toBeLessThanOrEqual(250);
    expect(e.key).toMatch(/^igd1:/);
    expect(Buffer.byteLength(e.value)).toBeLessThanOrEqual(100 * 1024);
    expect(e.expiresAt - e.createdAt).toBe(21600 * 1000);
  }
  expect(rt.findSecret(DEMO_KEY)).toEqual([]);

  // Recalculate both now, then 5 hours later (a fresh execution context each time, as in Sheets).
  for (const advance of [0, 5 * 3600 * 1000]) {
    rt.clock.advance(advance);
    expect(rt.custom('IGPROFILE', column(handles), 'username,followers')).toEqual(again(profile));
    expect(rt.custom('IGENGAGEMENT', column(handles))).toEqual(again(engagement));
    await expect(sb.stats()).resolves.toMatchObject({ total: 1600, creditsBilled: billed });
  }
  expect(rt.stats.cacheEvictions).toBe(0);
  expect(rt.findSecret(DEMO_KEY)).toEqual([]);

  // Each answer still expires 6 hours after it was fetched (a bucket rewrite does not extend it).
  rt.clock.advance(3600 * 1000 + 1000);
  rt.custom('IGPROFILE', column(handles.slice(0, 10)), 'followers');
  await expect(sb.stats()).resolves.toMatchObject({ total: 1610 });
}, 120000);

test("two executions writing the same buckets keep each other's answers", async () => {
  const rt = runtime();
  const a = handles.filter((_, i) => i % 2 === 0).slice(0, 300);
  const b = handles.filter((_, i) => i % 2 === 1).slice(0, 300);
  const outA = rt.custom('IGPROFILE', column(a), 'followers');
  const afterA = new Map(buckets(rt).map((e) => [e.key, e.createdAt]));
  rt.clock.advance(1000);
  const outB = rt.custom('IGPROFILE', column(b), 'followers');
  // B rewrote buckets that held A's answers (read-modify-write of shared buckets).
  const rewritten = buckets(rt).filter((e) => afterA.has(e.key) && e.createdAt > (afterA.get(e.key) as number));
  expect(rewritten.length).toBeGreaterThan(10);
  expect(loose(rt)).toEqual([]); // everything fit in buckets
  await expect(sb.stats()).resolves.toMatchObject({ total: 600 });
  // Both ranges are still entirely hits.
  expect(rt.custom('IGPROFILE', column(a), 'followers')).toEqual(again(outA));
  expect(rt.custom('IGPROFILE', column(b), 'followers')).toEqual(again(outB));
  await expect(sb.stats()).resolves.toMatchObject({ total: 600 });
});

test('document lock held elsewhere: answers are written loose (no wait after the first), and still hit', async () => {
  const rt = runtime();
  const c = handles.slice(0, 150); // three batches: three cache writes
  rt.locks.hold('document', Infinity);
  const slept = rt.stats.sleptMs;
  const outC = rt.custom('IGPROFILE', column(c), 'followers');
  expect(flat(outC)).not.toContain(NOT_REACHED);
  expect(rt.stats.sleptMs - slept).toBeLessThanOrEqual(500); // one short tryLock, then no waiting
  expect(buckets(rt)).toEqual([]); // never a bucket write without the lock
  expect(loose(rt)).toHaveLength(150);
  expect(rt.findSecret(DEMO_KEY)).toEqual([]);
  await expect(sb.stats()).resolves.toMatchObject({ total: 150 });
  expect(rt.custom('IGPROFILE', column(c), 'followers')).toEqual(again(outC));
  await expect(sb.stats()).resolves.toMatchObject({ total: 150 });

  // Lock free again: new answers go to buckets; loose and packed answers are all hits.
  rt.locks.release('document');
  const d = handles.slice(150, 300);
  const outD = rt.custom('IGPROFILE', column(d), 'followers');
  expect(buckets(rt).length).toBeGreaterThan(0);
  expect(loose(rt)).toHaveLength(150);
  expect(rt.custom('IGPROFILE', column([...c, ...d]), 'followers')).toEqual(again([...outC, ...outD]));
  await expect(sb.stats()).resolves.toMatchObject({ total: 300 });

  // A refresh written loose (lock busy again) wins over the older packed answer.
  rt.locks.hold('document', Infinity);
  rt.custom('IGPROFILE', column(d.slice(0, 5)), 'followers', false, true);
  expect(loose(rt)).toHaveLength(155);
  rt.locks.release('document');
  rt.custom('IGPROFILE', column(d), 'followers');
  await expect(sb.stats()).resolves.toMatchObject({ total: 305 });
});

test('a lock held briefly elsewhere is waited for: answers still go to buckets', async () => {
  const rt = runtime();
  rt.locks.hold('document', 200);
  const out = rt.custom('IGPROFILE', column(handles.slice(0, 60)), 'followers');
  expect(loose(rt)).toEqual([]);
  expect(buckets(rt).length).toBeGreaterThan(0);
  expect(rt.custom('IGPROFILE', column(handles.slice(0, 60)), 'followers')).toEqual(again(out));
  await expect(sb.stats()).resolves.toMatchObject({ total: 60 });
});

/** The add-on's bucket of a key (FNV-1a mod 128, as in sheets-addon/src/engine/store.ts). */
function bucketIndex(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 128;
}

test('a bucket that would exceed 90 KB spills its biggest answers to loose (chunked) items', () => {
  const rt = runtime({ store: true });
  // 40 keys of one bucket, answers of ~20 KB and one of ~150 KB: 4 fit, the rest spill.
  const keys: string[] = [];
  for (let i = 0; keys.length < 40; i++) if (bucketIndex(`igd1:k${i}`) === 7) keys.push(`igd1:k${i}`);
  const out = rt.evaluate(
    `
    var keys = ${JSON.stringify(keys)};
    var m = new Map();
    keys.forEach(function (k, i) {
      var bio = new Array(i === 0 ? 150000 : 20000 + i).join('\u00e9');
      m.set(k, { ok: true, data: { bio: bio, i: i }, next: null, charged: 1, at: Date.now() });
    });
    IGSTORE.putMany(m);
    var back = IGSTORE.getMany(Array.from(m.keys()));
    JSON.stringify(Array.from(back.values()).map(function (v) { return v.data.i; }));
  `,
    { kind: 'custom' },
  );
  expect(JSON.parse(out).sort((x: number, y: number) => x - y)).toEqual(keys.map((_, i) => i));
  for (const e of rt.caches.document.dump()) expect(Buffer.byteLength(e.value)).toBeLessThanOrEqual(100 * 1024);
  expect(buckets(rt).map((e) => e.key)).toEqual(['igd1:b:7']);
  const packed = Object.keys(JSON.parse(buckets(rt)[0].value));
  expect(packed.length).toBeGreaterThanOrEqual(2); // the smallest ones stay packed
  expect(packed).not.toContain('k' + keys[0].slice('igd1:k'.length)); // the biggest spilled
  const spilled = loose(rt).filter((e) => !/\.\d+$/.test(e.key));
  expect(spilled.length + packed.length).toBe(40);
  expect(loose(rt).length).toBeGreaterThan(spilled.length); // the 150 KB one is chunked
  // A lost bucket is a miss for its answers, never a wrong one; the spilled ones still hit.
  rt.caches.document.delete('igd1:b:7');
  const back = rt.evaluate(`JSON.stringify(Array.from(IGSTORE.getMany(${JSON.stringify(keys)}).keys()))`, {
    kind: 'custom',
  });
  expect(JSON.parse(back).sort()).toEqual(spilled.map((e) => e.key).sort());
});
