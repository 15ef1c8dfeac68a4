/**
 * The built package inside a real n8n (2.8.4, and 2.41.1 in the jest project n8n-newest), headless: `n8n import:workflow` + `n8n execute`
 * (scripts/n8n-harness/index.cjs) against the sandbox, which runs in this jest process on a real port
 * (n8n is a child process and reaches it over HTTP). Installs n8n on first use (minutes, cold).
 * Executions refused or stopped part-way: n8n-stops.test.ts.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { N8nWorld } from './setup';
import { CRED, root, rt, setupN8n, teardownN8n } from './setup';
import { chain, code, fanOut, ig, out } from './workflows';

jest.setTimeout(300_000);

let world: N8nWorld;
let sb: N8nWorld['sb'];
let home: N8nWorld['home'];
let apiKey: string;

beforeAll(async () => {
  // The examples' credential (n8n-node/examples).
  world = await setupN8n([{ id: 'igDataSandboxCred', name: 'IG Data (sandbox)' }]);
  ({ sb, home, apiKey } = world);
});
afterAll(() => teardownN8n(world));

test('a single lookup, Return All across pages and the credit cap, in one real run', async () => {
  sb.resetStats();
  const nasaPosts = sb.world.byUsername.get('nasa')!.posts.length;
  const r = await rt.runWorkflow(
    home,
    fanOut([
      ig('Lookup', { resource: 'profile', operation: 'profile', handle: '@NASA' }),
      ig('All posts', {
        resource: 'profile',
        operation: 'profile/posts',
        handle: 'https://www.instagram.com/nasa/',
        returnAll: true,
        options: { includeMeta: true },
      }),
      ig('Capped', {
        resource: 'hashtag',
        operation: 'hashtag/recent',
        tag: '#veganrecipes',
        returnAll: true,
        options: { creditCap: 5, simplify: true },
      }),
    ]),
  );
  expect(r.error).toBeUndefined();
  expect(r.ok).toBe(true);

  const lookup = out(r, 'Lookup');
  expect(lookup).toHaveLength(1);
  expect(lookup[0].json).toMatchObject({ username: 'nasa', full_name: 'NASA', is_verified: true });
  expect(typeof lookup[0].json.followers).toBe('number');
  expect(lookup[0].pairedItem).toEqual({ item: 0 });

  const all = out(r, 'All posts');
  expect(nasaPosts).toBeGreaterThan(12 * 5);
  expect(all).toHaveLength(nasaPosts);
  expect(new Set(all.map((i) => i.json.id)).size).toBe(nasaPosts);
  const pages = Math.ceil(nasaPosts / 12);
  expect(all[0].json.meta).toMatchObject({
    endpoint: 'profile/posts',
    pages,
    credits_charged: 2 * pages,
    stopped_by: 'end',
  });
  expect(all.every((i) => i.pairedItem?.item === 0)).toBe(true);

  const capped = out(r, 'Capped');
  expect(capped).toHaveLength(5 * 30);
  expect(Object.keys(capped[0].json)).toEqual([
    'shortcode',
    'author.username',
    'type',
    'taken_at',
    'like_count',
    'comment_count',
    'caption',
    'caption_for_sheets',
    'url',
  ]);
  expect(capped.at(-1)!.json._notice).toMatch(/Stopped at the credit cap of 5 .*more are available/);

  const stats = sb.stats();
  expect(stats.byEndpoint.profile).toBe(1);
  expect(stats.byEndpoint['profile/posts']).toBe(pages);
  expect(stats.byEndpoint['hashtag/recent']).toBe(5);
  expect(r.stdout + r.stderr).not.toContain(apiKey);
});

test("the credential sends exactly one auth header, Authorization: Bearer, added by n8n from the credential's generic form (recorded between n8n and the sandbox)", async () => {
  // A recording proxy in front of the sandbox: what n8n really sends, header by header.
  const seen: Record<string, string | string[] | undefined>[] = [];
  const proxy = http.createServer(async (req, res) => {
    seen.push({ ...req.headers });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers[k] = v;
    const answer = await fetch(`${sb.url}${req.url}`, { headers });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(await answer.text());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  try {
    await rt.importCredentials(home, [
      { id: 'recBearerCred01', name: 'recorded bearer', type: 'igDataApi', data: { apiKey, baseUrl: proxyUrl } },
      // Saved with the former Authentication Header field (x-api-key): the field is ignored now.
      {
        id: 'recXApiKeyCred1',
        name: 'recorded former x-api-key',
        type: 'igDataApi',
        data: { apiKey, baseUrl: proxyUrl, authHeader: 'x-api-key' },
      },
    ]);
    const r = await rt.runWorkflow(
      home,
      fanOut([
        ig(
          'Bearer',
          { resource: 'profile', operation: 'profile', handle: 'nasa' },
          { credentials: { igDataApi: { id: 'recBearerCred01', name: 'recorded bearer' } } },
        ),
        ig(
          'XApiKey',
          { resource: 'profile', operation: 'profile', handle: 'natgeo' },
          { credentials: { igDataApi: { id: 'recXApiKeyCred1', name: 'recorded former x-api-key' } } },
        ),
      ]),
    );
    expect(r.error).toBeUndefined();
    expect(out(r, 'Bearer')[0].json.username).toBe('nasa');
    expect(out(r, 'XApiKey')[0].json.username).toBe('natgeo');
  } finally {
    await new Promise((r) => proxy.close(r));
  }
  const authOf = (h: Record<string, unknown>) =>
    Object.keys(h).filter((k) => k === 'authorization' || k === 'x-api-key');
  expect(seen).toHaveLength(2);
  for (const h of seen) {
    expect(authOf(h)).toEqual(['authorization']);
    expect(h.authorization).toBe(`Bearer ${apiKey}`);
  }
});

test("continueOnFail: errors become items paired to their inputs, with the add-on's messages; duplicates are fetched once", async () => {
  sb.resetStats();
  const handles = ['nasa', 'no_such_account_zz', 'not a handle!', 'NASA', '@nasa', 'natgeo'];
  const r = await rt.runWorkflow(
    home,
    chain([
      code(`return ${JSON.stringify(handles)}.map((h) => ({ json: { who: h } }));`),
      ig(
        'Lookup',
        { resource: 'profile', operation: 'profile', handle: '={{ $json.who }}', options: { includeMeta: true } },
        { onError: 'continueRegularOutput' },
      ),
    ]),
  );
  expect(r.error).toBeUndefined();
  const items = out(r, 'Lookup');
  expect(items.map((i) => i.pairedItem?.item)).toEqual([0, 1, 2, 3, 4, 5]);
  expect(items[0].json).toMatchObject({ username: 'nasa', meta: { credits_charged: 1 } });
  // A billed 404 is an answer (On Not Found: Output an Item, the default), not an error item.
  expect(items[1].json).toMatchObject({
    found: false,
    handle: 'no_such_account_zz',
    message: '@no_such_account_zz has no public data: private, deleted or nonexistent. (Charged 1 credit.)',
    code: 'not_found',
    http_status: 404,
    credits_charged: 1,
  });
  expect(items[2].json.error).toBe(
    'handle must be a username, @username, numeric id or profile URL; got "not a handle!". (Not charged.)',
  );
  expect(items[3].json).toMatchObject({
    username: 'nasa',
    meta: { credits_charged: 0, credits_charged_first: 1, deduplicated: true },
  });
  expect(items[4].json).toMatchObject({ username: 'nasa', meta: { deduplicated: true } });
  expect(items[5].json.username).toBe('natgeo');
  expect(sb.stats().byEndpoint.profile).toBe(3); // nasa, no_such_account_zz, natgeo
  expect(sb.stats().creditsBilled).toBe(3);
});

test('40 lookups with one private account, no Continue On Fail: the 39 paid answers and a found: false item, 40 credits', async () => {
  const accounts = [...sb.world.byUsername.values()];
  const handles = accounts
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, 39);
  const locked = accounts.find((a) => a.is_private)!.username;
  handles.splice(20, 0, locked);
  sb.resetStats();
  const r = await rt.runWorkflow(
    home,
    chain([
      code(`return ${JSON.stringify(handles)}.map((who) => ({ json: { who } }));`),
      ig('Lookup', { resource: 'profile', operation: 'profile', handle: '={{ $json.who }}' }),
    ]),
  );
  expect(r.error).toBeUndefined();
  expect(r.ok).toBe(true);
  const items = out(r, 'Lookup');
  expect(items).toHaveLength(40);
  expect(items.map((i) => i.pairedItem?.item)).toEqual(handles.map((_, i) => i));
  expect(items.filter((_, i) => i !== 20).map((i) => i.json.username)).toEqual(handles.filter((_, i) => i !== 20));
  expect(items[20].json).toMatchObject({
    found: false,
    handle: locked,
    message: `@${locked} is private: no public data. (Charged 1 credit.)`,
    code: 'not_found',
    credits_charged: 1,
  });
  expect(sb.stats()).toMatchObject({ creditsBilled: 40, byEndpoint: { profile: 40 }, byStatus: { 404: 1 } });
  // The free balance read happens at most once: the long-running n8n skips it when an earlier
  // answer of this credential, minutes ago in the same process, showed a balance that covers the run.
  expect(sb.stats().byEndpoint.credits ?? 0).toBeLessThanOrEqual(1);
  expect(JSON.stringify(r.run)).not.toContain(apiKey);
});

test('the example "engagement for a list of handles" runs as shipped', async () => {
  sb.resetStats();
  const wf = JSON.parse(readFileSync(join(root, 'n8n-node/examples/engagement-for-handles.json'), 'utf8'));
  const r = await rt.runWorkflow(home, wf);
  expect(r.error).toBeUndefined();
  const items = out(r, 'Engagement');
  expect(items).toHaveLength(9);
  expect(items[0].json).toMatchObject({ username: 'nasa', meta: { credits_charged: 2 } });
  expect(typeof items[0].json.engagement_rate_pct).toBe('number');
  expect(items[4].json).toMatchObject({ username: 'nasa', meta: { deduplicated: true, credits_charged: 0 } });
  expect(items[8].json).toMatchObject({
    found: false,
    message: expect.stringMatching(/^@no_such_account_zz has no public data/),
  });
  expect(sb.stats().byEndpoint['insights/profile/engagement']).toBe(7); // 9 handles, 7 distinct accounts
});

describe('the hashtag trigger across successive real polls (n8n start, static data persisted)', () => {
  const trigger = {
    name: 'igdata trigger test',
    nodes: [
      {
        id: 't1',
        name: 'New posts',
        type: 'n8n-nodes-igdata.igDataTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: { event: 'hashtag', tag: 'veganrecipes', options: { maxPages: 2 } },
        credentials: { igDataApi: CRED },
      },
    ],
    connections: {},
  };
  const emitted = (r: { executions: { items?: Record<string, any>[] }[] }) =>
    r.executions.flatMap((e) => e.items ?? []);

  test('first poll records the head and emits nothing; new posts come once, oldest first; a deleted last-seen post causes no repeat; a burst beyond the page bound is caught up', async () => {
    sb.resetStats();
    const first = await rt.pollOnce(home, trigger);
    expect(first.activationError).toBeUndefined();
    expect(first.activated).toBe(true);
    expect(emitted(first)).toEqual([]);
    expect(sb.stats().byEndpoint['hashtag/recent']).toBe(1);
    const id = first.id;

    const three = sb.addPosts('veganrecipes', 3); // newest first, as the feed lists them
    const second = await rt.pollOnce(home, id);
    expect(emitted(second).map((p) => p.id)).toEqual(three.map((p) => p.id).reverse());

    const quiet = await rt.pollOnce(home, id);
    expect(emitted(quiet)).toEqual([]);

    // The last seen post is deleted; two new ones arrive: exactly those two, no repeats.
    expect(sb.deletePost(three[0].id)).toBe(true);
    const two = sb.addPosts('veganrecipes', 2);
    const fourth = await rt.pollOnce(home, id);
    expect(emitted(fourth).map((p) => p.id)).toEqual(two.map((p) => p.id).reverse());

    // 75 new posts with 2 pages (60 posts) per poll: 60 now (the newest), the other 15 next poll.
    const burst = sb.addPosts('veganrecipes', 75);
    const fifth = await rt.pollOnce(home, id);
    const sixth = await rt.pollOnce(home, id);
    const got = [...emitted(fifth), ...emitted(sixth)].map((p) => p.id);
    expect(emitted(fifth)).toHaveLength(60);
    expect(new Set(got).size).toBe(75);
    expect(got.sort()).toEqual(burst.map((p) => p.id).sort());
    expect(emitted(fifth).map((p) => p.id)).toEqual(
      burst
        .slice(0, 60)
        .map((p) => p.id)
        .reverse(),
    );
    expect(emitted(sixth).map((p) => p.id)).toEqual(
      burst
        .slice(60)
        .map((p) => p.id)
        .reverse(),
    );
    const last = await rt.pollOnce(home, id);
    expect(emitted(last)).toEqual([]);
  });
});
