/** Paging, caps, stories, cursors, the trigger surface (publish/delete), stats, determinism. */
import { createClient } from '@igdata/core';
import { startSandbox, fixtures, PAGE_SIZE, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { buildWorld } from '../../scripts/sandbox/world/build';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, seed: 42 });
});
afterAll(() => sb.close());
const api = () => createClient({ apiKey: sb.demoKey, baseUrl: sb.url, retry: { attempts: 1 } });

test('followers of a normal public account page to the end, 25 a page, no duplicates', async () => {
  const target = fixtures(sb.world).public_full_follower_list.find((a) => a.followers >= 100 && a.followers <= 300)!;
  const run = await api().paginate('profile/followers', { handle: target.username }, { maxPages: 100 });
  expect(run.stoppedBy).toBe('end');
  expect(run.items.length).toBe(target.followers);
  expect(run.pages).toBe(Math.ceil(target.followers / PAGE_SIZE.followers));
  expect(new Set(run.items.map((u) => u.id)).size).toBe(target.followers);
  expect(run.creditsCharged).toBe(2 * run.pages);
});

test('a huge account caps its follower list at 50: two pages of 25, then next_cursor null', async () => {
  const c = api();
  const p1 = await c.call('profile/followers', { handle: 'nasa' });
  expect(p1.items.length).toBe(25);
  expect(p1.nextCursor).not.toBeNull();
  const p2 = await c.call('profile/followers', { handle: 'nasa', cursor: p1.nextCursor });
  expect(p2.items.length).toBe(25);
  expect(p2.nextCursor).toBeNull();
  expect((await c.call('profile', { handle: 'nasa' })).data.followers).toBeGreaterThan(1_000_000);
});

test('cursors hold odd characters (+ / =) and pass back unchanged through the client', async () => {
  const p1 = await api().call('profile/posts', { handle: 'nasa' });
  expect(p1.nextCursor).toMatch(/\+/);
  const run = await api().paginate('profile/posts', { handle: 'nasa' }, { maxPages: 3 });
  expect(run.items.length).toBe(36);
  expect(new Set(run.items.map((p) => p.id)).size).toBe(36);
  const times = run.items.map((p) => Date.parse(String(p.taken_at)));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  // an unencoded "+" arrives as a space and is refused rather than misread
  const res = await fetch(`${sb.url}/v1/profile/posts?handle=nasa&cursor=${p1.nextCursor}`, {
    headers: { 'x-api-key': sb.demoKey },
  });
  expect(res.status).toBe(400);
});

test('profile posts count equals what pages to the end; reels carry view counts', async () => {
  const c = api();
  const profile = await c.call('profile', { handle: 'veganfoodie' });
  const run = await c.paginate('profile/posts', { handle: 'veganfoodie' }, { maxPages: 50 });
  expect(run.stoppedBy).toBe('end');
  expect(run.items.length).toBe(profile.data.posts);
  expect(new Set(run.items.map((p) => p.type))).toEqual(new Set(['photo', 'video', 'carousel']));
  expect(run.items.some((p) => p.location !== null)).toBe(true);
  const reels = await c.call('profile/reels', { handle: 'nasa' });
  expect(reels.items.length).toBeGreaterThan(0);
  for (const r of reels.items) {
    expect(r.product_type).toBe('clips');
    expect(typeof r.view_count).toBe('number');
  }
});

test('hashtag veganrecipes: 2,000 recent posts page back newest first; top is ranked', async () => {
  const run = await api().paginate('hashtag/recent', { tag: 'veganrecipes' }, { maxItems: 2000 });
  expect(run.items.length).toBe(2000);
  expect(new Set(run.items.map((p) => p.id)).size).toBe(2000);
  const times = run.items.map((p) => Date.parse(String(p.taken_at)));
  for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
  const top = await api().call('hashtag/top', { tag: 'veganrecipes' });
  const eng = top.items.map((p) => Number(p.like_count) + Number(p.comment_count));
  expect([...eng].sort((a, b) => b - a)).toEqual(eng);
});

test('stories: only live ones (last 24 h of the sandbox clock), next_cursor null', async () => {
  const r = await api().call('profile/stories', { handle: 'nasa' });
  expect(r.items.length).toBe(sb.world.byUsername.get('nasa')!.liveStories);
  expect(r.nextCursor).toBeNull();
  for (const s of r.items) {
    const age = sb.clock.now() - Date.parse(String(s.taken_at));
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(24 * 3600_000);
  }
  // an account with expired stories only returns the live ones
  const withExpired = sb.world.accounts.find((a) => !a.is_private && a.expiredStories > 0 && a.liveStories > 0)!;
  const s2 = await api().call('profile/stories', { handle: withExpired.username });
  expect(s2.items.length).toBe(withExpired.liveStories);
});

test("stories expire with the sandbox's clock: fetched again 25 hours later, they are gone", async () => {
  const other = await startSandbox({ startAt: TEST_START, seed: 42 });
  try {
    const c = createClient({ apiKey: other.demoKey, baseUrl: other.url });
    const first = await c.call('profile/stories', { handle: 'nasa' });
    expect(first.items.length).toBeGreaterThan(0);
    other.clock.advance(25 * 3600_000);
    const later = await c.call('profile/stories', { handle: 'nasa' });
    // gone; the ones nasa posted meanwhile (world/moving.ts) are younger than 24 h
    const firstIds = first.items.map((s) => s.id);
    expect(later.items.filter((s) => firstIds.includes(s.id))).toEqual([]);
    for (const s of later.items)
      expect(other.clock.worldNow() - Date.parse(String(s.taken_at))).toBeLessThan(24 * 3600_000);
  } finally {
    await other.close();
  }
});

test('publish puts new posts at the head of hashtag/recent; delete removes a post everywhere', async () => {
  const c = api();
  const before = await c.call('hashtag/recent', { tag: 'veganrecipes' });
  const res = await fetch(`${sb.url}/_sandbox/hashtag/veganrecipes/publish?count=3`, { method: 'POST' });
  const { published } = (await res.json()) as { published: { id: string }[] };
  expect(published).toHaveLength(3);
  const after = await c.call('hashtag/recent', { tag: 'veganrecipes' });
  expect(after.items.slice(0, 3).map((p) => p.id)).toEqual(published.map((p) => p.id));
  expect(after.items[3].id).toBe(before.items[0].id);
  // a published post is a real post
  expect((await c.call('post', { post: published[0].id })).data.id).toBe(published[0].id);
  // delete the newest (the "last seen" of a trigger): it disappears from the feed and /post 404s
  const del = await fetch(`${sb.url}/_sandbox/post/${published[0].id}/delete`, { method: 'POST' });
  expect(del.status).toBe(200);
  const again = await c.call('hashtag/recent', { tag: 'veganrecipes' });
  expect(again.items[0].id).toBe(published[1].id);
  await expect(c.call('post', { post: published[0].id })).rejects.toMatchObject({ status: 404 });
  // paging with a cursor taken before a deletion still continues after the right item
  const page1 = await c.call('hashtag/recent', { tag: 'veganrecipes' });
  sb.deletePost(String(page1.items[page1.items.length - 1].id));
  const page2 = await c.call('hashtag/recent', { tag: 'veganrecipes', cursor: page1.nextCursor });
  const page1Ids = new Set(page1.items.map((p) => p.id));
  expect(page2.items.some((p) => page1Ids.has(p.id))).toBe(false);
  expect(sb.addPosts('#VeganRecipes', 2)).toHaveLength(2);
});

test('stats count requests per endpoint and per normalised target, credits and concurrency', async () => {
  sb.resetStats();
  const c = api();
  await Promise.all([
    c.call('profile', { handle: 'nasa' }),
    c.call('profile', { handle: '@NASA' }),
    c.call('profile', { handle: 'natgeo' }),
  ]);
  await c.call('credits');
  const s = sb.stats();
  expect(s.total).toBe(4);
  expect(s.byEndpoint).toEqual({ profile: 3, credits: 1 });
  expect(s.byRequest['profile?handle=nasa']).toBe(2);
  expect(s.byRequest['profile?handle=natgeo']).toBe(1);
  expect(s.creditsBilled).toBe(3);
  expect(s.maxInFlight).toBeGreaterThanOrEqual(1);
  expect(s.inFlight).toBe(0);
  const http = (await (await fetch(`${sb.url}/_sandbox/stats`)).json()) as { total: number };
  expect(http.total).toBe(4);
  await fetch(`${sb.url}/_sandbox/reset`, { method: 'POST' });
  expect(sb.stats().total).toBe(0);
});

test('admin: keys with a balance (default 50) and faults over HTTP', async () => {
  const k1 = (await (await fetch(`${sb.url}/_sandbox/keys`, { method: 'POST' })).json()) as {
    key: string;
    balance: number;
  };
  expect(k1.balance).toBe(50);
  expect(sb.balance(k1.key)).toBe(50);
  const k2 = (await (await fetch(`${sb.url}/_sandbox/keys?balance=7`, { method: 'POST' })).json()) as { key: string };
  expect(sb.balance(k2.key)).toBe(7);
  const set = await fetch(`${sb.url}/_sandbox/faults`, {
    method: 'POST',
    body: JSON.stringify({ faultRate: 1, faultStatus: 502 }),
  });
  expect(await set.json()).toMatchObject({ faultRate: 1, faultStatus: 502 });
  expect((await fetch(`${sb.url}/v1/credits`, { headers: { 'x-api-key': k2.key } })).status).toBe(502);
  await fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', body: JSON.stringify({ faultRate: 0 }) });
  expect((await fetch(`${sb.url}/v1/credits`, { headers: { 'x-api-key': k2.key } })).status).toBe(200);
  expect((await fetch(`${sb.url}/_sandbox/faults`, { method: 'POST', body: '{"faultRate": 7}' })).status).toBe(400);
});

test('determinism: the same seed gives the same data and cursors; another seed differs', async () => {
  const other = await startSandbox({ startAt: TEST_START, seed: 42 });
  const seven = await startSandbox({ startAt: TEST_START, seed: 7 });
  try {
    // Media links point at the sandbox that answered and expire relative to its start: compare
    // what they link to.
    const get = async (s: Sandbox, path: string) => {
      const body = (await (await fetch(`${s.url}${path}`, { headers: { 'x-api-key': s.demoKey } })).json()) as {
        data: unknown;
      };
      return JSON.stringify(body.data)
        .replaceAll(`${s.url}/media/`, '/media/')
        .replace(/\?exp=\d+&sig=[0-9a-f]+"/g, '"');
    };
    for (const path of [
      '/v1/profile/posts?handle=nasa',
      '/v1/profile/followers?handle=veganfoodie',
      '/v1/insights/profile/audit?handle=veganfoodie',
      '/v1/hashtag/top?tag=space',
    ]) {
      expect(await get(other, path)).toBe(await get(sb, path));
    }
    expect(other.demoKey).toBe(sb.demoKey);
    expect(await get(seven, '/v1/profile/posts?handle=nasa')).not.toBe(await get(sb, '/v1/profile/posts?handle=nasa'));
    const a = buildWorld(42);
    const b = buildWorld(42);
    expect(a.accounts.map((x) => `${x.id}:${x.username}:${x.followers}`)).toEqual(
      b.accounts.map((x) => `${x.id}:${x.username}:${x.followers}`),
    );
    expect([...a.postsById.keys()]).toEqual([...b.postsById.keys()]);
  } finally {
    await other.close();
    await seven.close();
  }
});

test('many concurrent requests are served (and counted in flight)', async () => {
  // One turn of the event loop first. The test before builds two worlds synchronously (12 s on a
  // loaded machine): past the sandbox's 5 s keep-alive, the sockets fetch pooled earlier are closed
  // by the server's timers only once the loop turns, and a burst sent before that reuses some and
  // meets ECONNRESET (reproduced outside jest: a 6 s block before 400 fetches, 6-7 resets; none
  // after a setTimeout). It was not the import order records.ts once kept for it.
  await new Promise((resolve) => setTimeout(resolve, 0));
  sb.resetStats();
  const n = 400;
  const t0 = Date.now();
  const res = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      fetch(`${sb.url}/v1/profile/posts?handle=nasa&sandbox_latency=${i % 2 ? 5 : 0}`, {
        headers: { 'x-api-key': sb.demoKey },
      }).then((r) => r.status),
    ),
  );
  expect(res.every((s) => s === 200)).toBe(true);
  expect(sb.stats().maxInFlight).toBeGreaterThan(1);
  expect(Date.now() - t0).toBeLessThan(10000);
});

test('pinned posts: the first page of profile/posts shows them first, out of their place; every post once; 0 unpins; also over HTTP', async () => {
  const c = api();
  const before = await c.paginate('profile/posts', { handle: 'veganfoodie' }, { maxPages: 50 });
  const pinned = sb.pinPosts('@veganfoodie', 2);
  try {
    expect(pinned.map((p) => p.id)).toEqual(before.items.slice(-2).map((p) => p.id)); // the two oldest
    const p1 = await c.call('profile/posts', { handle: 'veganfoodie' });
    expect(p1.items).toHaveLength(PAGE_SIZE.posts);
    expect(p1.items.slice(0, 2).map((p) => p.id)).toEqual(pinned.map((p) => p.id));
    expect(p1.items.slice(2).map((p) => p.id)).toEqual(before.items.slice(0, PAGE_SIZE.posts - 2).map((p) => p.id));
    const after = await c.paginate('profile/posts', { handle: 'veganfoodie' }, { maxPages: 50 });
    expect(after.items.map((p) => p.id).sort()).toEqual(before.items.map((p) => p.id).sort());
    expect(() => sb.pinPosts('veganfoodie', 4)).toThrow(/0 to 3/);
  } finally {
    sb.pinPosts('veganfoodie', 0);
  }
  expect((await c.call('profile/posts', { handle: 'veganfoodie' })).items.map((p) => p.id)).toEqual(
    before.items.slice(0, PAGE_SIZE.posts).map((p) => p.id),
  );
  const res = await fetch(`${sb.url}/_sandbox/profile/veganfoodie/pin?count=1`, { method: 'POST' });
  expect(((await res.json()) as { pinned: { id: string }[] }).pinned.map((p) => p.id)).toEqual([
    before.items.at(-1)!.id,
  ]);
  sb.pinPosts('veganfoodie', 0);
});
