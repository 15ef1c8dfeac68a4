/**
 * The three triggers through Zapier's tester on the built integration, against the sandbox: the
 * sample, the populating poll, the "at most every N minutes" period, pinned posts, a burst larger
 * than a check's pages. The integration's clock is jest's (set to the sandbox's instants).
 */
import type { Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../../test/support/clock';
import { app, sandbox, slowFront, tester } from './support';

const MIN = 60_000;
let sb: Sandbox;
let authData: { apiKey: string; baseUrl: string };
beforeAll(async () => {
  ({ sb, authData } = await sandbox());
});
afterAll(() => sb.close());
beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['setTimeout', 'setImmediate', 'setInterval', 'nextTick', 'queueMicrotask'] });
  jest.setSystemTime(Date.parse(TEST_START));
});
afterEach(() => jest.useRealTimers());

const TRIGGERS = {
  new_post_in_hashtag: { tag: '#VeganRecipes' },
  new_post_by_account: { handle: '@nasa' },
  new_post_at_location: { id: '213385402' },
} as const;

const requests = async () => (await sb.stats()).total;

test.each(Object.entries(TRIGGERS))('%s: sample, populating poll, a check too soon, a new post', async (key, input) => {
  const t = tester();
  const perform = app.triggers[key].operation.perform;
  const bundle = (meta: object, extra: object = {}) =>
    ({ authData, inputData: { ...input, ...extra }, meta: { zap: { id: `z-${key}` }, ...meta } }) as any;
  const sample = await t(perform, bundle({ isLoadingSample: true, limit: 3 }));
  expect(sample).toHaveLength(3);
  expect(Object.keys(sample[0]).sort()).toEqual(Object.keys(app.triggers[key].operation.sample).sort());
  const before = await requests();
  const first = await t(perform, bundle({ isPopulatingDedupe: true }));
  expect(first.length).toBeGreaterThan(3);
  expect(await requests()).toBe(before + 1); // one page
  // newest first, stable ids
  const times = first.map((p: any) => Date.parse(p.taken_at));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  // 5 minutes later, inside the default 15-minute period: nothing, and no request
  jest.setSystemTime(Date.parse(TEST_START) + 5 * MIN);
  expect(await t(perform, bundle({}))).toEqual([]);
  expect(await requests()).toBe(before + 1);
  // the next period: one page, nothing new (the world did not move)
  jest.setSystemTime(Date.parse(TEST_START) + 16 * MIN);
  const again = await t(perform, bundle({}));
  expect(again.filter((p: any) => !first.some((f: any) => f.id === p.id))).toEqual([]);
  expect(await requests()).toBe(before + 2);
  expect(app.triggers[key].display.description).toMatch(
    / 96 credits a day, 2,880 a month, on any plan| 192 credits a day, 5,760 a month, on any plan/,
  );
});

test("a burst of 200 posts (7 pages) is read over three checks, none over Zapier's 100 new items a poll, no page twice", async () => {
  const t = tester();
  const perform = app.triggers.new_post_in_hashtag.operation.perform;
  const bundle = (meta: object) =>
    ({ authData, inputData: { tag: 'burstytag', every_minutes: 1 }, meta: { zap: { id: 'burst' }, ...meta } }) as any;
  sb.addPosts('burstytag', 3);
  const seen = new Set((await t(perform, bundle({ isPopulatingDedupe: true }))).map((p: any) => p.id));
  const published = sb.addPosts('burstytag', 200);
  const before = (await sb.stats()).byEndpoint['hashtag/recent'];
  const checks: any[][] = [];
  for (const minutes of [2, 4, 6, 8]) {
    jest.setSystemTime(Date.parse(TEST_START) + minutes * MIN);
    checks.push(await t(perform, bundle({})));
  }
  // Zapier holds a poll's runs beyond 100 new items (docs.zapier.com/platform/build/troubleshoot-throttles)
  for (const got of checks) expect(got.length).toBeLessThanOrEqual(100);
  expect(checks.map((got) => got.length)).toEqual([90, 60, 50, 0]);
  const emitted = checks
    .flat()
    .map((p: any) => p.id)
    .filter((id: string) => !seen.has(id));
  expect(emitted.length).toBe(200);
  expect(new Set(emitted)).toEqual(new Set(published.map((p) => p.id)));
  // 3 pages (90 posts: the bound at 30 a page), then twice the head (1 page, nothing new) and 2 of
  // the pages left, then the head: each of the burst's 7 pages once, and one page a check besides
  const pages = (await sb.stats()).byEndpoint['hashtag/recent'] - before;
  expect(pages).toBe(3 + (1 + 2) + (1 + 2) + 1);
});

test("a check against a slow API ends within Zapier's 30 s; the pages it left are read at the next checks, none twice", async () => {
  const t = tester();
  const perform = app.triggers.new_post_in_hashtag.operation.perform;
  const slow = await slowFront(sb, 12_000); // 12 s a request: a third page would end at 36 s
  const bundle = (meta: object) =>
    ({
      authData: { ...authData, baseUrl: slow.url },
      inputData: { tag: 'slowtag', every_minutes: 1 },
      meta: { zap: { id: 'slow' }, ...meta },
    }) as any;
  try {
    sb.addPosts('slowtag', 3);
    let at = Date.parse(TEST_START);
    jest.setSystemTime(at);
    const seen = new Set((await t(perform, bundle({ isPopulatingDedupe: true }))).map((p: any) => p.id));
    const published = sb.addPosts('slowtag', 200); // 7 pages of 30
    const before = (await sb.stats()).byEndpoint['hashtag/recent'];
    const emitted: string[] = [];
    let checks = 0;
    for (let got: any[] = [null]; got.length; checks++) {
      at += 2 * MIN;
      jest.setSystemTime(at);
      got = await t(perform, bundle({}));
      expect(Date.now() - at).toBeLessThan(30_000); // Zapier's limit for a poll
      expect(Date.now() - at).toBe(got.length || checks === 0 ? 24_000 : 12_000); // 2 pages, or the head alone
      emitted.push(...got.map((p: any) => p.id).filter((id: string) => !seen.has(id)));
    }
    expect(emitted.length).toBe(200);
    expect(new Set(emitted)).toEqual(new Set(published.map((p) => p.id)));
    // each of the burst's 7 pages once, and the head once a check after the first
    const pages = (await sb.stats()).byEndpoint['hashtag/recent'] - before;
    expect(pages).toBe(7 + (checks - 1));
  } finally {
    slow.close();
  }
});

// Last in the file: it moves the sandbox's world on four days.
test("an account's pinned older posts at the head of its feed are neither new posts nor where reading stops", async () => {
  const t = tester();
  const perform = app.triggers.new_post_by_account.operation.perform;
  const bundle = (meta: object) =>
    ({ authData, inputData: { handle: 'nasa' }, meta: { zap: { id: 'pins' }, ...meta } }) as any;
  const start = Date.parse(TEST_START);
  sb.clock.moveTo(start);
  const seen = new Set((await t(perform, bundle({ isPopulatingDedupe: true }))).map((p: any) => p.id));
  const pinned = sb.pinPosts('nasa', 3);
  const later = start + 4 * 24 * 60 * MIN;
  jest.setSystemTime(later);
  sb.clock.moveTo(later);
  const got = await t(perform, bundle({}));
  const fresh = got.filter((p: any) => !seen.has(p.id)).map((p: any) => p.id);
  const feed = (await t(app.searches.profile_posts.operation.perform, {
    authData,
    inputData: { handle: 'nasa', limit: 12 },
    meta: {},
  })) as any[];
  const posted = feed.filter((p) => Date.parse(p.taken_at) > start).map((p) => p.id);
  expect(posted.length).toBeGreaterThanOrEqual(1); // nasa posts about 0.74 a day
  expect(fresh.sort()).toEqual(posted.sort());
  for (const p of pinned) expect(fresh).not.toContain(p.id);
  expect(feed.slice(0, 3).map((p) => p.id)).toEqual(pinned.map((p) => p.id)); // they do lead the feed
});

test("an account gone private: a check pays its 404 once and halts; the checks within the registry's 24 hours halt unsent and free; the next day it is read again", async () => {
  const t = tester();
  const perform = app.triggers.new_post_by_account.operation.perform;
  const bundle = (meta: object) =>
    ({ authData, inputData: { handle: 'locked_acc' }, meta: { zap: { id: 'gone' }, ...meta } }) as any;
  const fail = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected an error');
      },
      (e: Error) => e,
    );
  const billed = async () => (await sb.stats()).creditsBilled;
  const before = { requests: await requests(), credits: await billed() };
  const first = await fail(t(perform, bundle({ isPopulatingDedupe: true })));
  expect(first.name).toBe('HaltedError');
  expect(first.message).toMatch(/@locked_acc is private: no public data\. \(Charged \d+ credits?\.\)/);
  const cost = (await billed()) - before.credits; // the endpoint's price: the service bills a 404 (spec §7)
  expect(cost).toBeGreaterThan(0);
  expect(await requests()).toBe(before.requests + 1);
  // Every 15-minute period of the next 24 hours: the same answer, not sent, free now.
  for (const minutes of [16, 61, 23 * 60 + 59]) {
    jest.setSystemTime(Date.parse(TEST_START) + minutes * MIN);
    const again = await fail(t(perform, bundle({})));
    expect(again.name).toBe('HaltedError');
    expect(again.message).toMatch(
      /has no public data.*\(Charged \d+ credits? when first looked up on .+; free now\.\)/,
    );
  }
  expect([await requests(), await billed()]).toEqual([before.requests + 1, before.credits + cost]);
  // Past the registry's reuse limit of an account's posts: asked again (and paid: still private).
  jest.setSystemTime(Date.parse(TEST_START) + 24 * 60 * MIN + 16 * MIN);
  expect((await fail(t(perform, bundle({})))).message).toMatch(/\(Charged \d+ credits?\.\)/);
  expect([await requests(), await billed()]).toEqual([before.requests + 2, before.credits + 2 * cost]);
});
