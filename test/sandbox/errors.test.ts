/** §7: every error code, its body and whether it is billed, asserted against balances. */
import { createClient } from '@igdata/core';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, seed: 42, slowMs: 300 });
});
afterAll(() => sb.close());

/** Every `error.docs` link an answer of this file carried, with the code it came with (the last test follows each). */
const docsSeen = new Map<string, string>();

async function raw(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const res = await fetch(`${sb.url}${path}`, { headers, method });
  const body = (await res.json()) as {
    error?: Record<string, unknown>;
    meta: Record<string, unknown>;
    data?: Record<string, unknown>;
  };
  if (body.error) docsSeen.set(String(body.error.docs), String(body.error.code));
  return { status: res.status, headers: res.headers, body };
}
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

test('401 invalid_api_key for missing, malformed and unknown keys; not billed', async () => {
  const key = sb.createKey(10);
  for (const headers of [
    {},
    { authorization: 'Bearer' },
    { authorization: 'Basic abc' },
    bearer('sk_sandbox_doesnotexist123'),
    { 'x-api-key': 'nope' },
  ] as Record<string, string>[]) {
    const r = await raw('/v1/profile?handle=nasa', headers);
    expect(r.status).toBe(401);
    expect(r.body.error).toMatchObject({ code: 'invalid_api_key' });
    expect(typeof r.body.error?.message).toBe('string');
    expect(typeof r.body.error?.docs).toBe('string');
    expect(typeof r.body.meta.request_id).toBe('string');
  }
  sb.revokeKey(key);
  expect((await raw('/v1/profile?handle=nasa', bearer(key))).status).toBe(401);
});

test('400 missing_parameter names the parameter (absent, out of range, wrong type, bad input); not billed', async () => {
  const key = sb.createKey(10);
  const cases: [string, string][] = [
    ['/v1/profile', 'handle'],
    ['/v1/profile?handle=', 'handle'],
    ['/v1/profile?handle=has%20space', 'handle'],
    ['/v1/insights/profile/engagement?handle=nasa&posts=99', 'posts'],
    ['/v1/insights/profile/engagement?handle=nasa&posts=0', 'posts'],
    ['/v1/insights/profile/engagement?handle=nasa&posts=abc', 'posts'],
    ['/v1/insights/profile/audit?handle=nasa&sample=501', 'sample'],
    ['/v1/insights/profile/best-time?handle=nasa&timezone=15', 'timezone'],
    ['/v1/insights/profile/qualify?handle=nasa', 'criteria'],
    ['/v1/post?post=https://example.com/p/x', 'post'],
    ['/v1/hashtag/recent?tag=no%20spaces', 'tag'],
    ['/v1/location/posts?id=abc', 'id'],
    ['/v1/search/users', 'q'],
    ['/v1/profile/posts?handle=nasa&cursor=v1%2Bbm90LWEtY3Vyc29y', 'cursor'],
    ['/v1/profile/posts?handle=nasa&cursor=garbage', 'cursor'],
  ];
  for (const [path, param] of cases) {
    const r = await raw(path, bearer(key));
    expect([path, r.status]).toEqual([path, 400]);
    expect(r.body.error?.code).toBe('missing_parameter');
    expect(String(r.body.error?.message)).toContain(param);
    expect(r.body.meta.credits_charged).toBe(0);
  }
  expect(sb.balance(key)).toBe(10);
});

test('a cursor from another target or another endpoint is refused', async () => {
  const c = createClient({ apiKey: sb.demoKey, baseUrl: sb.url });
  const page = await c.call('profile/followers', { handle: 'veganfoodie' });
  expect(page.nextCursor).not.toBeNull();
  const other = await raw(
    `/v1/profile/followers?handle=plantbasedpaula&cursor=${encodeURIComponent(page.nextCursor as string)}`,
    bearer(sb.demoKey),
  );
  expect(other.status).toBe(400);
  const tampered = (page.nextCursor as string).slice(0, -2) + 'AA';
  expect(
    (await raw(`/v1/profile/followers?handle=veganfoodie&cursor=${encodeURIComponent(tampered)}`, bearer(sb.demoKey)))
      .status,
  ).toBe(400);
});

test('402 insufficient_credits when the balance is below the cost; not billed', async () => {
  const key = sb.createKey(1);
  const r = await raw('/v1/profile/posts?handle=nasa', bearer(key)); // costs 2
  expect(r.status).toBe(402);
  expect(r.body.error?.code).toBe('insufficient_credits');
  expect(sb.balance(key)).toBe(1);
  expect((await raw('/v1/profile?handle=nasa', bearer(key))).status).toBe(200); // costs 1
  expect(sb.balance(key)).toBe(0);
  expect((await raw('/v1/profile?handle=nasa', bearer(key))).status).toBe(402);
  expect((await raw('/v1/credits', bearer(key))).status).toBe(200); // free, even at 0
});

test('404 not_found is billed at the endpoint cost, with meta.endpoint/credits_charged/credits_remaining', async () => {
  const key = sb.createKey(20);
  const priv = await raw('/v1/profile?handle=locked_acc', bearer(key));
  expect(priv.status).toBe(404);
  expect(priv.body.error).toMatchObject({ code: 'not_found', reason: 'private_account' });
  expect(priv.body.meta).toMatchObject({ endpoint: 'profile', credits_charged: 1, credits_remaining: 19 });
  const missing = await raw('/v1/insights/profile/engagement?handle=no.such.user.xyz&posts=50', bearer(key));
  expect(missing.status).toBe(404);
  expect(missing.body.meta).toMatchObject({
    endpoint: 'insights/profile/engagement',
    credits_charged: 6,
    credits_remaining: 13,
  });
  const renamedOld = await raw('/v1/profile?handle=greenkitchen_old', bearer(key));
  expect(renamedOld.status).toBe(404);
  expect(sb.balance(key)).toBe(12);
  // the client maps it to an IgApiError that says it was charged
  const c = createClient({ apiKey: key, baseUrl: sb.url });
  await expect(c.call('profile/followers', { handle: 'locked_acc' })).rejects.toMatchObject({
    status: 404,
    code: 'not_found',
    charged: 2,
  });
  expect(sb.balance(key)).toBe(10);
});

test('502/504 faults (per request header, query or sandbox-wide) are not billed', async () => {
  const key = sb.createKey(10);
  const r502 = await raw('/v1/profile?handle=nasa', { ...bearer(key), 'x-sandbox-fault': '502' });
  expect(r502.status).toBe(502);
  expect(r502.body.error?.code).toBe('upstream_error');
  const r504 = await raw('/v1/profile?handle=nasa&sandbox_fault=504', bearer(key));
  expect(r504.status).toBe(504);
  expect(r504.body.error?.code).toBe('upstream_timeout');
  const t0 = Date.now();
  const slow = await raw('/v1/profile?handle=nasa', { ...bearer(key), 'x-sandbox-fault': 'timeout' });
  expect(slow.status).toBe(504);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
  expect(sb.balance(key)).toBe(10);
  sb.setFaults({ faultRate: 1, faultStatus: 504 });
  try {
    expect((await raw('/v1/profile?handle=nasa', bearer(key))).status).toBe(504);
  } finally {
    sb.setFaults({ faultRate: 0 });
  }
  expect(sb.balance(key)).toBe(10);
  // the client retries a 502 and succeeds, billed once
  sb.setFaults({ faultRate: 0.5, faultStatus: 502 });
  try {
    const c = createClient({ apiKey: key, baseUrl: sb.url, retry: { attempts: 10, baseDelayMs: 1, maxDelayMs: 2 } });
    const r = await c.call('profile', { handle: 'nasa' });
    expect(r.creditsCharged).toBe(1);
  } finally {
    sb.setFaults({ faultRate: 0 });
  }
  expect(sb.balance(key)).toBe(9);
});

test('per-request latency header delays the answer', async () => {
  const t0 = Date.now();
  expect((await raw('/v1/credits', { ...bearer(sb.demoKey), 'x-sandbox-latency': '120' })).status).toBe(200);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(100);
});

test('the latency includes the work: the answer reports it, and a client gone while it is held was served and billed', async () => {
  const key = sb.createKey(5);
  // (600 ms: far longer than the work, even on a busy machine)
  const r = await raw('/v1/profile?handle=nasa', { ...bearer(key), 'x-sandbox-latency': '600' });
  expect(r.body.meta.ms).toBe(600);
  expect(sb.balance(key)).toBe(4);
  // Gone 500 ms into a 5 s latency: the work was done on arrival, the answer is lost on the way back.
  await expect(
    fetch(`${sb.url}/v1/profile?handle=nasa`, {
      headers: { ...bearer(key), 'x-sandbox-latency': '5000' },
      signal: AbortSignal.timeout(500),
    }),
  ).rejects.toThrow();
  expect(sb.balance(key)).toBe(3);
});

test('unknown path: 404 not_found-style JSON, not billed, no key needed', async () => {
  const key = sb.createKey(3);
  const r = await raw('/v1/profile/nonsense?handle=nasa', bearer(key));
  expect(r.status).toBe(404);
  expect(r.body.error?.code).toBe('not_found');
  expect(r.body.meta.credits_charged).toBe(0);
  expect(sb.balance(key)).toBe(3);
  expect((await raw('/elsewhere')).status).toBe(404);
});

test('inputs resolve like the service: @name, URL, numeric id, ?url= alias, #tag, location URL', async () => {
  const c = createClient({ apiKey: sb.demoKey, baseUrl: sb.url });
  const nasa = sb.world.byUsername.get('nasa')!;
  for (const h of ['nasa', '@NASA', 'https://www.instagram.com/nasa/?hl=en', nasa.id]) {
    expect((await raw(`/v1/profile?handle=${encodeURIComponent(h)}`, bearer(sb.demoKey))).body.data?.id).toBe(nasa.id);
  }
  const p = nasa.posts[0];
  for (const q of [
    `post=${p.shortcode}`,
    `post=${p.id}`,
    `post=${encodeURIComponent(p.url)}`,
    `url=${encodeURIComponent(p.url)}`,
  ]) {
    const r = await raw(`/v1/post?${q}`, bearer(sb.demoKey));
    expect([q, r.status, r.body.data?.id]).toEqual([q, 200, p.id]);
  }
  expect((await c.call('hashtag/recent', { tag: '#VeganRecipes' })).items.length).toBeGreaterThan(0);
  const loc = await raw(
    `/v1/location/posts?id=${encodeURIComponent('https://www.instagram.com/explore/locations/213385402/new-york-new-york/')}`,
    bearer(sb.demoKey),
  );
  expect(loc.status).toBe(200);
  expect((loc.body.data?.items as { location: { id: string } }[])[0].location.id).toBe('213385402');
  // a renamed account keeps its id, and about says so
  const about = await c.call('profile/about', { handle: 'green.kitchen' });
  expect(about.data).toMatchObject({
    has_changed_username: true,
    former_usernames: ['greenkitchen_old', 'gk.recipes'],
  });
});

test('the rate limit (off by default): past the requests in flight or per second, 429 rate_limited at once with Retry-After, not billed', async () => {
  const key = sb.createKey(100);
  const burst = (n: number) =>
    Promise.all(Array.from({ length: n }, (_, i) => raw(`/v1/profile?handle=nasa&i=${i}`, bearer(key))));
  sb.setFaults({ latencyMs: 1000, rateLimitInFlight: 2, retryAfterSeconds: 3 }); // a long latency: a busy machine spreads a burst
  try {
    const answers = await burst(5);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.body.error).toMatchObject({ code: 'rate_limited' });
    expect(refused.body.meta).toMatchObject({ credits_charged: 0 });
    expect(sb.balance(key)).toBe(98);
    // Answered ones free their places: the next burst is admitted the same way.
    expect((await burst(2)).map((a) => a.status)).toEqual([200, 200]);
    sb.setFaults({ latencyMs: 0, rateLimitInFlight: 0, rateLimitPerSecond: 3 });
    expect((await burst(4)).map((a) => a.status).sort()).toEqual([200, 200, 200, 429]);
    expect(() => sb.setFaults({ rateLimitInFlight: 1.5 })).toThrow(/rateLimitInFlight must be a whole number/);
  } finally {
    sb.setFaults({ latencyMs: 0, rateLimitInFlight: 0, rateLimitPerSecond: 0, retryAfterSeconds: 1 });
  }
});

test('every error.docs link the sandbox returned answers 200: a reference page, with an anchor for its code', async () => {
  // the errors no test above met: a wrong method, and a missing key's own code (observed variant)
  expect((await raw('/v1/profile?handle=nasa', bearer(sb.demoKey), 'POST')).status).toBe(405);
  const codes = new Set(docsSeen.values());
  for (const code of [
    'invalid_api_key',
    'missing_parameter',
    'insufficient_credits',
    'not_found',
    'upstream_error',
    'upstream_timeout',
    'rate_limited',
    'method_not_allowed',
  ])
    expect([code, codes.has(code)]).toEqual([code, true]);
  for (const [docs, code] of docsSeen) {
    expect(docs).toMatch(/^\/docs\/[a-z]+(#[a-z_/-]+)?$/);
    const res = await fetch(new URL(docs, sb.url));
    expect([docs, res.status]).toEqual([docs, 200]);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const anchor = new URL(docs, sb.url).hash.slice(1);
    if (anchor) expect([code, html.includes(`id="${anchor}"`)]).toEqual([code, true]);
  }
  // The page lists every code with the sentence users read for it, from core.
  const page = await (await fetch(`${sb.url}/docs/errors`)).text();
  expect(page).toContain('id="not_found"');
  expect(page).toContain('@nasa has no public data: private, deleted or nonexistent. (Charged 1 credit.)');
  expect(page).toContain('id="service_unavailable"');
});
