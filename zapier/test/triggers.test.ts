/**
 * The three triggers through Zapier's tester on the built integration, against the sandbox: the
 * sample, the populating poll, the "at most every N minutes" period, pinned posts, a burst larger
 * than a check's pages. The integration's clock is jest's (set to the sandbox's instants).
 */
import type { Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../../test/support/clock';
import { app, sandbox, tester } from './support';

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
  expect(app.triggers[key].display.description).toMatch(/ 96 credits a day, 2,880 a month, on any plan| 192 credits a day, 5,760 a month, on any plan/);
});

test('a burst of 200 posts (7 pages) is read over two checks, every post once, no page twice', async () => {
  const t = tester();
  const perform = app.triggers.new_post_in_hashtag.operation.perform;
  const bundle = (meta: object) =>
    ({ authData, inputData: { tag: 'burstytag', every_minutes: 1 }, meta: { zap: { id: 'burst' }, ...meta } }) as any;
  sb.addPosts('burstytag', 3);
  const seen = new Set((await t(perform, bundle({ isPopulatingDedupe: true }))).map((p: any) => p.id));
  const published = sb.addPosts('burstytag', 200);
  const before = (await sb.stats()).byEndpoint['hashtag/recent'];
  jest.setSystemTime(Date.parse(TEST_START) + 2 * MIN);
  const one = await t(perform, bundle({}));
  jest.setSystemTime(Date.parse(TEST_START) + 4 * MIN);
  const two = await t(perform, bundle({}));
  jest.setSystemTime(Date.parse(TEST_START) + 6 * MIN);
  const three = await t(perform, bundle({}));
  const emitted = [...one, ...two, ...three].map((p: any) => p.id).filter((id: string) => !seen.has(id));
  expect(new Set(emitted).size).toBe(200);
  expect(new Set(emitted)).toEqual(new Set(published.map((p) => p.id)));
  // 5 pages, then the 2 left plus the head, then the head: 7 pages of the burst + 2 heads
  const pages = (await sb.stats()).byEndpoint['hashtag/recent'] - before;
  expect(pages).toBeLessThanOrEqual(7 + 3);
});

test("an account's pinned older posts are not new posts", async () => {
  const t = tester();
  const perform = app.triggers.new_post_by_account.operation.perform;
  const bundle = (meta: object) =>
    ({
      authData,
      inputData: { handle: 'veganfoodie', every_minutes: 1 },
      meta: { zap: { id: 'pins' }, ...meta },
    }) as any;
  await t(perform, bundle({ isPopulatingDedupe: true }));
  const pinned = sb.pinPosts('veganfoodie', 3);
  jest.setSystemTime(Date.parse(TEST_START) + 2 * MIN);
  const got = await t(perform, bundle({}));
  // Zapier sees only ids it has not seen: a pinned post is old, already seen or never newer than the head
  const fresh = got.filter((p: any) => pinned.some((q) => q.id === p.id));
  expect(fresh).toEqual([]);
});
