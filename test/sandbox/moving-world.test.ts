/**
 * The sandbox's world moves with its world clock (scripts/sandbox/world/moving.ts), over real HTTP:
 * followers drift, hashtags and feeds gain posts newest first, likes grow, stories expire and
 * appear; nothing moves without an explicit clock move, and the same start and moves give the
 * same answers however the moves were cut.
 */
import { createClient, type Client } from '@igdata/core';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { followerRate, postsPerDay } from '../../scripts/sandbox/world/moving';
import { TEST_START } from '../support/clock';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
type Item = Record<string, unknown>;

const sandboxes: Sandbox[] = [];
async function sandbox(): Promise<{ sb: Sandbox; c: Client }> {
  const sb = await startSandbox({ startAt: TEST_START, seed: 42 });
  sandboxes.push(sb);
  return { sb, c: createClient({ apiKey: sb.demoKey, baseUrl: sb.url, retry: { attempts: 1 } }) };
}
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

const move = async (sb: Sandbox, q: string) => {
  const res = await fetch(`${sb.url}/_sandbox/clock?${q}`, { method: 'POST' });
  expect(res.status).toBe(200);
  return (await res.json()) as { now: string; world: string; startedAt: string };
};
const ids = (items: Item[]) => items.map((p) => String(p.id));

test("without a clock move nothing moves: the seeded world's answers", async () => {
  const { sb, c } = await sandbox();
  const nasa = sb.world.byUsername.get('nasa')!;
  const tag = sb.world.hashtags.get('veganrecipes')!;
  const first = await c.call('hashtag/recent', { tag: 'veganrecipes' });
  expect(ids(first.items)).toEqual(tag.recent.slice(0, 30).map((p) => p.id));
  const profile = await c.call('profile', { handle: 'nasa' });
  expect(profile.data.followers).toBe(nasa.followers);
  expect(profile.data.posts).toBe(nasa.posts.length);
  // a move of 0 is no move
  const clock = await move(sb, 'advance=0');
  expect(clock.world).toBe(new Date(TEST_START).toISOString());
  expect((await c.call('profile', { handle: 'nasa' })).data.followers).toBe(nasa.followers);
});

test("after +1 week followers changed by each account's own compounded rate: some grow, some shrink", async () => {
  const { sb, c } = await sandbox();
  const public_ = sb.world.accounts.filter((a) => !a.is_private && a.followers > 0);
  const grower = public_.find((a) => followerRate(sb.world, a) > 0.005 && a.followers > 100)!;
  const shrinker = public_.find((a) => followerRate(sb.world, a) < -0.002 && a.followers > 100)!;
  await move(sb, `advance=${WEEK}`);
  for (const a of [sb.world.byUsername.get('nasa')!, grower, shrinker]) {
    const expected = Math.round(a.followers * (1 + followerRate(sb.world, a)) ** 7);
    const got = (await c.call('profile', { handle: a.username })).data;
    expect(got.followers).toBe(expected);
  }
  expect((await c.call('profile', { handle: grower.username })).data.followers as number).toBeGreaterThan(
    grower.followers,
  );
  expect((await c.call('profile', { handle: shrinker.username })).data.followers as number).toBeLessThan(
    shrinker.followers,
  );
  // a small account's visible follower list follows its count
  const small = sb.world.byUsername.get('veganfoodie')!;
  const run = await c.paginate('profile/followers', { handle: 'veganfoodie' }, { maxPages: 50 });
  expect(run.items.length).toBe(Math.round(small.followers * (1 + followerRate(sb.world, small)) ** 7));
});

test('a hashtag gains posts at the top, newest first, no duplicates across pages, even with posts arriving between pages', async () => {
  const { sb, c } = await sandbox();
  const seededTop = String((await c.call('hashtag/recent', { tag: 'veganrecipes' })).items[0].id);
  await move(sb, `advance=${3 * DAY}`);
  // a watcher's rule: page newest first and stop at the last id seen
  const fresh: Item[] = [];
  let cursor: string | null | undefined;
  let pages = 0;
  for (;;) {
    const page = await c.call('hashtag/recent', { tag: 'veganrecipes', ...(cursor ? { cursor } : {}) });
    pages++;
    const stop = page.items.findIndex((p) => p.id === seededTop);
    fresh.push(...(stop < 0 ? page.items : page.items.slice(0, stop)));
    if (stop >= 0 || !page.nextCursor) break;
    cursor = page.nextCursor;
    // more posts arrive between pages: the next page goes on from the last one seen
    if (pages === 1) await move(sb, `advance=${HOUR * 6}`);
  }
  expect(pages).toBeGreaterThanOrEqual(2);
  // vegan accounts post ~0.43 a day and 96 % of their posts carry #veganrecipes
  expect(fresh.length).toBeGreaterThan(20);
  expect(new Set(ids(fresh)).size).toBe(fresh.length);
  const times = fresh.map((p) => Date.parse(String(p.taken_at)));
  for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
  expect(times[times.length - 1]).toBeGreaterThan(Date.parse(TEST_START));
  expect(times[0]).toBeLessThanOrEqual(Date.parse(TEST_START) + 3 * DAY);
  for (const p of fresh) expect(String(p.caption)).toMatch(/#veganrecipes/);
  // each new post is a post: looked up by shortcode, on its author's feed, its likes growing
  const p0 = fresh[fresh.length - 1];
  const post = (await c.call('post', { post: String(p0.shortcode) })).data;
  expect(post.id).toBe(p0.id);
  const author = (post.author as Item).username as string;
  const feed = await c.paginate('profile/posts', { handle: author }, { maxPages: 2 });
  expect(ids(feed.items)).toContain(p0.id);
  const likes = post.like_count as number;
  await move(sb, `advance=${2 * DAY}`);
  const later = (await c.call('post', { post: String(p0.id) })).data;
  expect(later.like_count as number).toBeGreaterThanOrEqual(likes);
  expect(later.taken_at).toBe(post.taken_at);
  expect(later.caption).toBe(post.caption);
  // the comments so far of the posts of the last day, none dated after the world's time
  const world = Date.parse((await move(sb, 'advance=0')).world);
  const young = (await c.call('hashtag/recent', { tag: 'veganrecipes' })).items.filter(
    (p) => Number(p.comment_count) > 0 && world - Date.parse(String(p.taken_at)) < DAY,
  );
  expect(young.length).toBeGreaterThan(3);
  for (const p of young) {
    const comments = await c.paginate('post/comments', { post: String(p.id) }, { maxPages: 20 });
    for (const k of comments.items) expect(Date.parse(String(k.created_at))).toBeLessThanOrEqual(world);
  }
});

test('an account gains posts at its own rate: profile.posts counts them, the feed shows them first', async () => {
  const { sb, c } = await sandbox();
  const nasa = sb.world.byUsername.get('nasa')!;
  await move(sb, `advance=${WEEK}`);
  const profile = (await c.call('profile', { handle: 'nasa' })).data;
  const gained = (profile.posts as number) - nasa.posts.length;
  // nasa posts 1/(0.15 + 1.2) = 0.74 a day: about 5 in a week
  expect(postsPerDay(nasa)).toBeCloseTo(0.74, 2);
  expect(gained).toBeGreaterThanOrEqual(1);
  expect(gained).toBeLessThanOrEqual(15);
  const page = await c.call('profile/posts', { handle: 'nasa' });
  for (const p of page.items.slice(0, gained))
    expect(Date.parse(String(p.taken_at))).toBeGreaterThan(Date.parse(TEST_START));
  expect(page.items[gained].id).toBe(nasa.posts[0].id);
});

test('a story fetched and fetched again 25 hours later is gone; new ones have appeared meanwhile', async () => {
  const { sb, c } = await sandbox();
  const first = await c.call('profile/stories', { handle: 'nasa' });
  expect(first.items.length).toBe(sb.world.byUsername.get('nasa')!.liveStories);
  await move(sb, `advance=${25 * HOUR}`);
  const later = await c.call('profile/stories', { handle: 'nasa' });
  for (const id of ids(first.items)) expect(ids(later.items)).not.toContain(id);
  // nasa, natgeo and instagram had 3, 4 and 5 live at the start: they post as many a day
  const world = Date.parse(TEST_START) + 25 * HOUR;
  const fresh = [...later.items];
  for (const handle of ['natgeo', 'instagram']) fresh.push(...(await c.call('profile/stories', { handle })).items);
  expect(fresh.length).toBeGreaterThan(3);
  for (const s of fresh) {
    const age = world - Date.parse(String(s.taken_at));
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(DAY);
  }
});

test('two sandboxes with the same start and moves answer the same, one move of a week or 168 of an hour', async () => {
  const a = await sandbox();
  const b = await sandbox();
  await move(a.sb, `advance=${WEEK}`);
  for (let h = 1; h <= 168; h++) await move(b.sb, `to=${new Date(Date.parse(TEST_START) + h * HOUR).toISOString()}`);
  expect((await move(b.sb, 'advance=0')).world).toBe(new Date(Date.parse(TEST_START) + WEEK).toISOString());
  const answers = async ({ c }: { c: Client }) => {
    const out: unknown[] = [];
    const recent = await c.call('hashtag/recent', { tag: 'veganrecipes' });
    out.push(recent.items, (await c.call('hashtag/recent', { tag: 'veganrecipes', cursor: recent.nextCursor! })).items);
    for (const handle of ['nasa', 'veganfoodie', 'small.cafe']) {
      out.push(
        (await c.call('profile', { handle })).data,
        (await c.call('profile/posts', { handle })).items,
        (await c.call('profile/stories', { handle })).items,
      );
      out.push((await c.call('insights/profile/engagement', { handle })).data);
    }
    out.push((await c.call('location/posts', { id: '213385402' })).items);
    out.push((await c.call('post/comments', { post: String(recent.items[0].id) })).items);
    return out;
  };
  // media links name the sandbox they came from
  const [x, y] = [
    JSON.stringify(await answers(a)).replaceAll(a.sb.url, ''),
    JSON.stringify(await answers(b)).replaceAll(b.sb.url, ''),
  ];
  expect(y.length).toBeGreaterThan(10_000);
  expect(y).toBe(x);
});
