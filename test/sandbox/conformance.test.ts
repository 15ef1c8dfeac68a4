/** Every registry endpoint answers a valid call, passes core's own parsing and is billed exactly estimateCost. */
import { createClient, endpoints, estimateCost, getEndpoint, normalizeParams } from '@igdata/core';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { validInput } from '../support/testkit';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, seed: 42 });
});
afterAll(() => sb.close());

const client = (key: string, authStyle: 'bearer' | 'x-api-key' = 'bearer') =>
  createClient({ apiKey: key, baseUrl: sb.url, authStyle, retry: { attempts: 1 } });

describe('every registry endpoint', () => {
  test.each(endpoints.map((e) => [e.id, e] as const))(
    '%s answers 200, parses, and bills estimateCost',
    async (_id, endpoint) => {
      const key = sb.createKey(1000);
      const input = validInput(endpoint, sb.world);
      const expected = estimateCost(endpoint, normalizeParams(endpoint, input)).credits;
      const result = await client(key).call(endpoint.id, input);
      expect(result.meta.endpoint).toBe(endpoint.id);
      expect(typeof result.meta.request_id).toBe('string');
      expect(typeof result.meta.ms).toBe('number');
      expect(result.creditsCharged).toBe(expected);
      expect(result.creditsRemaining).toBe(1000 - expected);
      expect(sb.balance(key)).toBe(1000 - expected);
      if (endpoint.shape === 'list') {
        expect(Array.isArray((result.data as { items: unknown[] }).items)).toBe(true);
        expect('next_cursor' in result.data).toBe(true);
        if (endpoint.id !== 'profile/stories') expect(result.items.length).toBeGreaterThan(0);
      }
    },
  );

  test('window costs follow the registry rules (engagement 50 posts = 6, audit 500 = 22, best-time default = 5)', async () => {
    const key = sb.createKey(100);
    const c = client(key);
    const cases: [string, Record<string, unknown>, number][] = [
      ['insights/profile/engagement', { handle: 'nasa', posts: 50 }, 6],
      ['insights/profile/engagement', { handle: 'nasa', posts: 1 }, 2],
      ['insights/profile/audit', { handle: 'nasa', sample: 500 }, 22],
      ['insights/profile/audit', { handle: 'nasa', sample: 1 }, 4],
      [
        'insights/profile/best-time',
        { handle: 'nasa' },
        estimateCost(getEndpoint('insights/profile/best-time'), { posts: 30 }).credits,
      ],
      [
        'insights/profile/qualify',
        { handle: 'nasa', criteria: 'space', posts: 50 },
        estimateCost(getEndpoint('insights/profile/qualify'), { posts: 50 }).credits,
      ],
    ];
    let spent = 0;
    for (const [id, input, cost] of cases) {
      const r = await c.call(id, input);
      expect(r.creditsCharged).toBe(cost);
      spent += cost;
    }
    expect(sb.balance(key)).toBe(100 - spent);
  });

  test('both auth forms work, with headers x-credits-remaining and x-request-id', async () => {
    const key = sb.createKey(10);
    for (const style of ['bearer', 'x-api-key'] as const) {
      const r = await client(key, style).call('profile', { handle: '@NASA' });
      expect(r.data.username).toBe('nasa');
    }
    const res = await fetch(`${sb.url}/v1/profile?handle=nasa`, { headers: { 'x-api-key': key } });
    expect(res.headers.get('x-credits-remaining')).toBe('7');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(sb.balance(key)).toBe(7);
  });

  test('credits is free and returns data.credits_remaining', async () => {
    const key = sb.createKey(5);
    const r = await client(key).call('credits');
    expect(r.creditsCharged).toBe(0);
    expect(r.data.credits_remaining).toBe(5);
    const empty = sb.createKey(0);
    expect((await client(empty).call('credits')).data.credits_remaining).toBe(0);
  });
});

describe('insights formulas', () => {
  test('engagement is exactly §2.10 over the newest posts', async () => {
    const c = client(sb.demoKey);
    const r = await c.call('insights/profile/engagement', { handle: 'veganfoodie', posts: 12 });
    const feed = await c.call('profile/posts', { handle: 'veganfoodie' });
    const posts = feed.items as { like_count: number; comment_count: number }[];
    expect(posts.length).toBe(12);
    const likes = posts.reduce((s, p) => s + p.like_count, 0) / 12;
    const comments = posts.reduce((s, p) => s + p.comment_count, 0) / 12;
    const followers = (await c.call('profile', { handle: 'veganfoodie' })).data.followers as number;
    expect(r.data.posts_analyzed).toBe(12);
    expect(r.data.avg_likes).toBeCloseTo(likes, 2);
    expect(r.data.avg_comments).toBeCloseTo(comments, 2);
    expect(r.data.avg_engagement).toBeCloseTo(likes + comments, 2);
    expect(r.data.engagement_rate).toBeCloseTo((likes + comments) / followers, 5);
    expect(r.data.engagement_rate_pct).toBeCloseTo(((likes + comments) / followers) * 100, 2);
  });

  test('best-time shifts by the timezone; audit signals and grade are consistent', async () => {
    const c = client(sb.demoKey);
    const utc = await c.call('insights/profile/best-time', { handle: 'nasa', posts: 30, timezone: 0 });
    const plus3 = await c.call('insights/profile/best-time', { handle: 'nasa', posts: 30, timezone: 3 });
    const hours = (r: typeof utc) =>
      (r.data.by_hour as { hour: number; posts: number }[]).map((h) => `${h.hour}:${h.posts}`).sort();
    expect(hours(plus3)).toEqual(
      hours(utc)
        .map((s) => {
          const [h, n] = s.split(':').map(Number);
          return `${(h + 3) % 24}:${n}`;
        })
        .sort(),
    );
    const audit = await c.call('insights/profile/audit', { handle: 'nasa', sample: 100 });
    expect(audit.data.sampled).toBe(50); // the follower list is capped at 50
    expect(Number(audit.data.suspected_fake_pct) + Number(audit.data.estimated_real_pct)).toBeCloseTo(100, 5);
    expect(Object.keys(audit.data.signal_breakdown as object)).toEqual([
      'no profile picture',
      'no display name',
      'digit-heavy username',
      'private and nameless',
    ]);
    const summary = await c.call('insights/profile/summary', { handle: 'nasa' });
    expect(String(summary.data.one_liner)).toMatch(/^\[sandbox\]/);
  });
});
