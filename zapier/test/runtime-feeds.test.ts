/**
 * The triggers run as Zapier's servers run them (zapier/test/zapier-server: the lambda handler,
 * z.cache kept by scope over RPC, Zapier's poller): two connections on two base URLs, Zaps with
 * and without `meta.zap`, a simulated day with a burst of 120 posts. Each Zap emits every new post
 * of its own connection's API exactly once, no poll is over Zapier's 100 new items, each API bills
 * only its own connection, and no API key reaches a cache key, a cached value or a log line.
 */
import type { Sandbox } from '../../scripts/sandbox/server';
import type { Connection } from './zapier-server/lambda';
import { Zap, postsSince, simulate } from './zapier-server/poller';
import type { World } from './zapier-server/world';
import { leaked, smallRss, startWorld } from './zapier-server/world';

const TAG = 'veganrecipes';
const DAY = 24 * 60;
const BURST = 120;

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
      new Zap({ ...spec, id: 'zap-a2', connection: a, interval: 2, offset: 1 }, w.run),
      new Zap({ ...spec, id: 'zap-b1', connection: b, interval: 5, offset: 3 }, w.run),
    ];
    for (const zap of zaps) await zap.turnOn();
    const burstAt = DAY / 2 + 7;
    await simulate(zaps, [w.sandbox, w.production], w.start, DAY, {
      [burstAt]: () => {
        w.sandbox.addPosts(TAG, BURST);
        w.production.addPosts(TAG, BURST);
      },
    });
    const [statsA, statsB] = [await w.sandbox.stats(), await w.production.stats()];
    const pages = [await feedPages(w.sandbox), await feedPages(w.production)];
    const spent = [1_000_000 - (await w.sandbox.balance(keyA)), 1_000_000 - (await w.production.balance(keyB))];
    const truthA = await postsSince(w.sandbox, TAG, w.start);
    const truthB = await postsSince(w.production, TAG, w.start);
    expect(truthA.length).toBeGreaterThan(BURST + 20);
    expect(new Set(truthA).size + new Set(truthB).size).toBe(new Set([...truthA, ...truthB]).size); // two worlds
    for (const zap of zaps) {
      const truth = zap.spec.connection === a ? truthA : truthB;
      expect({ zap: zap.spec.id, emitted: [...zap.emitted].sort() }).toEqual({ zap: zap.spec.id, emitted: [...truth].sort() });
      expect(zap.emitted.length).toBe(new Set(zap.emitted).size); // none twice
      expect(zap.held).toBe(0);
      expect(Math.max(...zap.newPerPoll)).toBeLessThanOrEqual(100);
    }
    // Each API billed its own connection's key, for the pages it answered, and refused no key.
    expect([statsA.creditsBilled, statsB.creditsBilled]).toEqual(spent);
    expect(spent).toEqual(pages);
    expect([statsA.byStatus[401], statsB.byStatus[401]]).toEqual([undefined, undefined]);
    // What a day costs: a page per Zap a period with meta.zap (A's two Zaps, 96 each); without it a
    // page a period for the connection's feed, whatever its Zaps (96); and each Zap's populating
    // page, and the burst's pages beyond the first.
    const burstPages = Math.ceil(BURST / 30);
    if (sendsZapId) expect(pages[0]).toBeGreaterThanOrEqual(2 * 96 + 2);
    else expect(pages[0]).toBeLessThanOrEqual(96 + 2 + burstPages + 2);
    expect(pages[1]).toBeLessThanOrEqual(96 + 1 + burstPages + 2);
    expect(w.server.logLines.some((l) => l.includes('/v1/hashtag/recent'))).toBe(true);
    for (const key of [keyA, keyB]) expect(leaked(w.server, key)).toEqual([]);
    console.log(
      `${_label}: pages A ${pages[0]}, B ${pages[1]}; largest cached value ${w.server.largestValue()} bytes; ` +
        `rpc ${JSON.stringify(w.server.calls)}`,
    );
  },
  600_000,
);
