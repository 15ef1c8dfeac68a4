/**
 * The triggers run as Zapier's servers run them (zapier/test/zapier-server: the lambda handler,
 * z.cache kept by scope over RPC, Zapier's poller): two connections on two base URLs, Zaps with
 * and without `meta.zap`, a simulated day with a burst of 120 posts. Each Zap emits every new post
 * of its own connection's API exactly once, no poll is over Zapier's 100 new items, each API bills
 * only its own connection, and no API key reaches a cache key, a cached value or a log line.
 */
import type { Sandbox } from '../../scripts/sandbox/server';
import type { Connection } from './zapier-server/lambda';
import { Zap, moveTo, postsSince, simulate } from './zapier-server/poller';
import type { World } from './zapier-server/world';
import { leaked, smallRss, startWorld } from './zapier-server/world';

const TAG = 'veganrecipes';
const DAY = 24 * 60;
const BURST = 120;
const SETTLE = 30;

let w: World;
beforeAll(smallRss);
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

/** Pages of the tag's feed the sandbox answered, and the credits it billed in all. */
const feedPages = async (sb: Sandbox) =>
  Object.entries((await sb.stats()).byRequest)
    .filter(([k]) => k.startsWith('hashtag/recent?'))
    .reduce((n, [, v]) => n + v, 0);

test.each([
  ['with meta.zap', true],
  ['without meta.zap', false],
])(
  'two connections on two base URLs, %s: each Zap emits every new post of its own API once over a day with a burst of 120',
  async (_label, sendsZapId) => {
    const keyA = await w.sandbox.createKey(1_000_000);
    const keyB = await w.production.createKey(1_000_000);
    const a: Connection = { id: 'conn-a', user: 'user-a', authData: { apiKey: keyA, baseUrl: w.sandbox.url } };
    const b: Connection = { id: 'conn-b', user: 'user-b', authData: { apiKey: keyB, baseUrl: w.production.url } };
    const spec = { trigger: 'new_post_in_hashtag', inputData: { tag: TAG }, sendsZapId };
    const zaps = [
      new Zap({ ...spec, id: 'zap-a1', connection: a, interval: 15 }, w.run),
      // A second Zap of connection A on the same hashtag: without meta.zap it cannot be told apart.
      new Zap({ ...spec, id: 'zap-a2', connection: a, interval: 5, offset: 1 }, w.run),
      new Zap({ ...spec, id: 'zap-b1', connection: b, interval: 5, offset: 3 }, w.run),
    ];
    for (const zap of zaps) await zap.turnOn();
    const burstAt = DAY / 2 + 7;
    const burst = () => {
      w.sandbox.addPosts(TAG, BURST);
      w.production.addPosts(TAG, BURST);
    };
    // A day, then 30 minutes of polls with the worlds stopped: each Zap's last due check is after the last post.
    await simulate(zaps, [w.sandbox, w.production], w.start, DAY, { events: { [burstAt]: burst }, settle: SETTLE });
    const [statsA, statsB] = [await w.sandbox.stats(), await w.production.stats()];
    const pages = [await feedPages(w.sandbox), await feedPages(w.production)];
    const spent = [1_000_000 - (await w.sandbox.balance(keyA)), 1_000_000 - (await w.production.balance(keyB))];
    const truthA = await postsSince(w.sandbox, TAG, w.start);
    const truthB = await postsSince(w.production, TAG, w.start);
    expect(truthA.length).toBeGreaterThan(BURST + 20);
    const ids = (posts: { id: string }[]) => new Set(posts.map((p) => p.id));
    expect(ids(truthA).size + ids(truthB).size).toBe(ids([...truthA, ...truthB]).size); // two worlds
    for (const zap of zaps) {
      const truth = zap.spec.connection === a ? truthA : truthB; // every post of the Zap's own API
      const missing = truth
        .filter((p) => !zap.emitted.includes(p.id))
        .map((p) => `${p.id} ${new Date(p.at).toISOString()}`);
      const extra = zap.emitted.filter((id) => !truth.some((p) => p.id === id));
      expect({ zap: zap.spec.id, missing, extra }).toEqual({ zap: zap.spec.id, missing: [], extra: [] });
      expect(zap.emitted.length).toBeGreaterThan(BURST);
      expect(zap.emitted.length).toBe(new Set(zap.emitted).size); // none twice
      expect(zap.held).toBe(0);
      expect(Math.max(...zap.newPerPoll)).toBeLessThanOrEqual(100);
    }
    // Each API billed its own connection's key, for the pages it answered, and refused no key.
    expect([statsA.creditsBilled, statsB.creditsBilled]).toEqual(spent);
    expect(spent).toEqual(pages);
    expect([statsA.byStatus[401], statsB.byStatus[401]]).toEqual([undefined, undefined]);
    // What a day costs: a page per Zap a period with meta.zap (A's two Zaps, 96 a day each); without it a
    // page a period for the connection's feed, whatever its Zaps (96); and each Zap's populating
    // page, and the burst's pages beyond the first.
    const burstPages = Math.ceil(BURST / 30);
    const periods = (DAY + SETTLE) / 15;
    if (sendsZapId) expect(pages[0]).toBeGreaterThanOrEqual(2 * periods + 2);
    else expect(pages[0]).toBeLessThanOrEqual(periods + 2 + burstPages + 2);
    expect(pages[1]).toBeLessThanOrEqual(periods + 1 + burstPages + 2);
    expect(w.server.logLines.some((l) => l.includes('/v1/hashtag/recent'))).toBe(true);
    for (const key of [keyA, keyB]) expect(leaked(w.server, key)).toEqual([]);
    // No size limit of z.cache is published; ours: the shared log after the burst stays under 150 KB
    // (README, "z.cache size and rate").
    expect(w.server.largestValue()).toBeLessThan(150_000);
    console.log(
      `${_label}: pages A ${pages[0]}, B ${pages[1]}; largest cached value ${w.server.largestValue()} bytes; ` +
        `rpc ${JSON.stringify(w.server.calls)}`,
    );
  },
  600_000,
);

test('without meta.zap, two Zaps of one connection polled at one instant: the feed is read once (nx), both get every post', async () => {
  const key = await w.sandbox.createKey(1000);
  const a: Connection = { id: 'conn-a', user: 'user-a', authData: { apiKey: key, baseUrl: w.sandbox.url } };
  const spec = { trigger: 'new_post_in_hashtag', inputData: { tag: 'burstytag' }, sendsZapId: false, connection: a };
  const zaps = [
    new Zap({ ...spec, id: 'one', interval: 1 }, w.run),
    new Zap({ ...spec, id: 'two', interval: 1 }, w.run),
  ];
  w.sandbox.addPosts('burstytag', 3);
  for (const zap of zaps) await zap.turnOn();
  const published = w.sandbox.addPosts('burstytag', 5).map((p) => p.id);
  const before = await feedPages(w.sandbox);
  moveTo(w.start + 15 * 60_000, [w.sandbox]);
  await Promise.all(zaps.map((zap) => zap.poll()));
  expect((await feedPages(w.sandbox)) - before).toBe(1);
  // The next minute: not due, no request; what was read is handed out to both.
  moveTo(w.start + 16 * 60_000, [w.sandbox]);
  await Promise.all(zaps.map((zap) => zap.poll()));
  expect((await feedPages(w.sandbox)) - before).toBe(1);
  for (const zap of zaps) expect([...zap.emitted].sort()).toEqual([...published].sort());
});
