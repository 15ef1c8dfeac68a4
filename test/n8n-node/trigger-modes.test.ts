/**
 * The IG Data Trigger's other modes in a real n8n 2.8.4, driven as n8n-real.test.ts drives the
 * hashtag mode (scripts/n8n-harness/index.cjs: `publish:workflow` + `n8n start` per poll, static data
 * persisted in the home's db between polls):
 * - "New Account Post" (`profile/posts`) across successive polls;
 * - the manual run ("Fetch Test Event"): the editor's REST call `POST /rest/workflows/:id/run`
 *   with `triggerToStartFrom`, against `n8n start`. `n8n execute` cannot do it: it runs in mode
 *   `cli` and only starts from a Manual/Execute Workflow Trigger, and n8n calls a polling node's
 *   `poll()` in a workflow run only in mode `manual` (n8n-core WorkflowExecute.executePollNode);
 * - what each item carries for a notification (url, caption, author, taken_at), never the key.
 * The sandbox publishes a post by a random account among those whose topic uses the tag; only
 * @bbcnews uses #breakingnews, so `addPosts('breakingnews', n)` publishes n posts by @bbcnews.
 */
import type { PublishedPost } from '../../scripts/sandbox/server';
import type { N8nWorld } from './setup';
import { join } from 'node:path';
import { CRED, root, rt, setupN8n, teardownN8n } from './setup';

jest.setTimeout(300_000);

let world: N8nWorld;
let sb: N8nWorld['sb'];
let home: N8nWorld['home'];
let apiKey: string;

beforeAll(async () => {
  world = await setupN8n();
  ({ sb, home, apiKey } = world);
});
afterAll(() => teardownN8n(world));

type Item = Record<string, any>;
const NODE = 'New account posts';
const accountTrigger = (options: Record<string, unknown> = {}) => ({
  id: 'wfAccountTrig01',
  name: 'igdata account trigger test',
  nodes: [
    {
      id: 't1',
      name: NODE,
      type: 'n8n-nodes-igdata.igDataTrigger',
      typeVersion: 1,
      position: [0, 0],
      parameters: { event: 'account', handle: '@bbcnews', options: { maxPages: 2, ...options } },
      credentials: { igDataApi: CRED },
    },
  ],
  connections: {},
});
const emitted = (r: { executions: { items?: Item[] }[] }): Item[] => r.executions.flatMap((e) => e.items ?? []);
const ids = (xs: { id?: unknown }[]) => xs.map((x) => x.id);
const publish = (n: number): PublishedPost[] => {
  const posts = sb.addPosts('breakingnews', n); // newest first, like the feed
  expect(posts.every((p) => p.author === 'bbcnews')).toBe(true);
  return posts;
};
/** What a Slack message "New post by @x: <caption> <url> (<time>)" needs, from a full item. */
const forSlack = (p: Item) => ({ url: p.url, caption: p.caption, username: p.author?.username, taken_at: p.taken_at });
const expectSlackReady = (items: Item[], published: PublishedPost[]) => {
  const byId = new Map(published.map((p) => [p.id, p]));
  for (const item of items) {
    const want = byId.get(item.id)!;
    expect(forSlack(item)).toEqual({
      url: want.url,
      caption: expect.stringMatching(/\S/),
      username: 'bbcnews',
      taken_at: want.taken_at,
    });
    expect(JSON.stringify(item)).not.toContain(apiKey);
  }
};

describe('account mode ("New Account Post", profile/posts) and the manual run, in real n8n', () => {
  let id: string;
  let burst: PublishedPost[];

  test('first poll emits nothing; new posts come once, oldest first; a deleted last-seen post causes no repeat and no gap; a burst beyond the page bound is caught up', async () => {
    sb.resetStats();
    const first = await rt.pollOnce(home, accountTrigger());
    expect(first.activationError).toBeUndefined();
    expect(first.activated).toBe(true);
    expect(emitted(first)).toEqual([]);
    expect(sb.stats().byEndpoint['profile/posts']).toBe(1);
    expect(first.staticData[`node:${NODE}`]?.state?.feed).toMatch(/profile\/posts/);
    id = first.id;

    const three = publish(3);
    const second = await rt.pollOnce(home, id);
    expect(ids(emitted(second))).toEqual(ids(three).reverse());
    expectSlackReady(emitted(second), three);

    // The last seen post is deleted: a poll with nothing new emits nothing (no repeat of older posts)...
    expect(sb.deletePost(three[0].id)).toBe(true);
    const afterDelete = await rt.pollOnce(home, id);
    expect(emitted(afterDelete)).toEqual([]);
    // ...and the posts published after it come exactly once, none missing.
    const two = publish(2);
    const fourth = await rt.pollOnce(home, id);
    expect(ids(emitted(fourth))).toEqual(ids(two).reverse());

    // 30 new posts, 12 per page, 2 pages per poll: the newest 24 now, the other 6 next poll.
    burst = publish(30);
    const fifth = await rt.pollOnce(home, id);
    const sixth = await rt.pollOnce(home, id);
    expect(ids(emitted(fifth))).toEqual(ids(burst.slice(0, 24)).reverse());
    expect(ids(emitted(sixth))).toEqual(ids(burst.slice(24)).reverse());
    expectSlackReady([...emitted(fifth), ...emitted(sixth)], burst);

    for (const r of [first, second, afterDelete, fourth, fifth, sixth]) {
      expect(r.executions.every((e: { status: string }) => e.status === 'success')).toBe(true);
      expect(JSON.stringify(r.executions) + r.output).not.toContain(apiKey);
    }
  });

  test('the manual run ("Fetch Test Event") returns the 5 newest posts, oldest first, and leaves the state alone: the next poll emits what it would have', async () => {
    expect(id).toBeDefined();
    const [{ maxId }] = await rt.query(home, 'select max(id) as maxId from execution_entity');
    // The editor of the running n8n, where the workflow is published and active (its cron never
    // fires: pollOnce), as a person opens it: nothing polls meanwhile.
    const editor = await rt.editorOf(home);
    let manualRun: { items?: Item[]; status: string; mode: string } | undefined;
    let before: Record<string, any>;
    let fresh: PublishedPost[];
    try {
      before = await rt.getStaticData(home, id);
      expect(before[`node:${NODE}`]?.state).toBeDefined();
      fresh = publish(2);
      sb.resetStats();

      // The owner's session the harness holds (n8n allows an account 5 logins a minute, shared by the run).
      const headers = { 'content-type': 'application/json', ...editor.headers };
      const wf = ((await (await fetch(`${editor.url}/rest/workflows/${id}`, { headers })).json()) as { data: Item })
        .data;
      // What the editor sends for "Fetch Test Event" on the trigger node.
      const res = await fetch(`${editor.url}/rest/workflows/${id}/run`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          workflowData: wf,
          triggerToStartFrom: { name: NODE },
          destinationNode: { nodeName: NODE, mode: 'inclusive' },
        }),
      });
      const body = (await res.json()) as Item;
      expect(res.status).toBe(200);
      expect(body.data?.executionId).toBeDefined();

      const deadline = Date.now() + 30_000;
      while (!manualRun && Date.now() < deadline) {
        const runs = await rt.getExecutions(home, id, { afterId: maxId ?? 0 });
        manualRun = runs.find(
          (e: { mode: string; status: string }) =>
            e.mode === 'manual' && ['success', 'error', 'crashed', 'canceled'].includes(e.status),
        );
        if (!manualRun) await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await editor.stop();
    }
    expect(manualRun?.status).toBe('success');
    const sample = manualRun!.items ?? [];
    const newestFive = [...fresh!, ...burst.slice(0, 3)]; // newest first
    expect(ids(sample)).toEqual(ids(newestFive).reverse());
    expectSlackReady(sample, newestFive);
    expect(sb.stats().byEndpoint['profile/posts']).toBe(1); // one page, no paging
    expect(JSON.stringify(manualRun)).not.toContain(apiKey);

    // The stored state is what it was before the manual run...
    expect(await rt.getStaticData(home, id)).toEqual(before!);
    // ...so the next poll emits the two posts the manual run showed, as if it never happened.
    const next = await rt.pollOnce(home, id);
    expect(ids(emitted(next))).toEqual(ids(fresh!).reverse());
  });

  test('Simplify keeps what a notification needs (url, caption, author.username, taken_at); changing an option keeps the state', async () => {
    expect(id).toBeDefined();
    const one = publish(1);
    // Re-importing with another option keeps the static data (same feed): no first poll again.
    const r = await rt.pollOnce(home, accountTrigger({ simplify: true }));
    expect(r.id).toBe(id);
    const items = emitted(r);
    expect(items).toEqual([
      {
        shortcode: one[0].shortcode,
        'author.username': 'bbcnews',
        type: 'photo',
        taken_at: one[0].taken_at,
        like_count: expect.any(Number),
        comment_count: expect.any(Number),
        view_count: null,
        caption: expect.stringMatching(/\S/),
        caption_for_sheets: items[0].caption, // a plain caption: its spreadsheet twin is the same text
        url: one[0].url,
      },
    ]);
    expect(JSON.stringify(r.executions) + r.output).not.toContain(apiKey);
  });
});

describe('"New Account Post" on an account with pinned older posts at the head of its feed (sandbox pinPosts), in real n8n', () => {
  const PINNED = 'Pinned account posts';
  const pinnedTrigger = {
    ...accountTrigger(),
    id: 'wfPinnedTrig01',
    name: 'igdata account trigger with pinned posts',
    nodes: [{ ...accountTrigger().nodes[0], id: 't2', name: PINNED }],
  };

  test('with 2, then 3 pinned posts: every new post fires once, in order, across polls and a burst beyond the page bound', async () => {
    sb.pinPosts('bbcnews', 2);
    try {
      const first = await rt.pollOnce(home, pinnedTrigger);
      expect(first.activationError).toBeUndefined();
      expect(emitted(first)).toEqual([]);
      const id = first.id;
      const got: unknown[] = [];
      const published: unknown[] = [];
      const poll = async (fresh: PublishedPost[], expected: PublishedPost[] = fresh) => {
        published.push(...ids(fresh).reverse());
        const r = await rt.pollOnce(home, id);
        expect(r.executions.every((e: { status: string }) => e.status === 'success')).toBe(true);
        expect(ids(emitted(r))).toEqual(ids(expected).reverse());
        got.push(...ids(emitted(r)));
        return r;
      };
      await poll(publish(3));
      sb.pinPosts('bbcnews', 3);
      await poll(publish(1));
      // 30 new posts, 12 a page with 3 pinned on the first, 2 pages a poll: the newest 21, then 9.
      const burst = publish(30);
      await poll(burst, burst.slice(0, 21));
      const rest = await rt.pollOnce(home, id);
      expect(ids(emitted(rest))).toEqual(ids(burst.slice(21)).reverse());
      got.push(...ids(emitted(rest)));
      expect(new Set(got).size).toBe(got.length);
      expect([...got].sort()).toEqual([...published].sort());
    } finally {
      sb.pinPosts('bbcnews', 0);
    }
  });
});

describe('the manual run in-process: poll() in mode "manual" never reads or writes the stored state', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { IgDataTrigger } = require(join(root, 'n8n-node/dist/nodes/IgData/IgDataTrigger.node.js'));
  /** The API requests sent, and whether pages after the first answer 502 (the sandbox's per-request fault). */
  const sent: string[] = [];
  let failLaterPages = false;
  const context = (mode: string, params: Record<string, unknown>, staticData: Record<string, unknown>) => ({
    getMode: () => mode,
    getNodeParameter: (name: string, fallback?: unknown) => (name in params ? params[name] : fallback),
    getWorkflowStaticData: jest.fn(() => staticData),
    getNode: () => ({
      id: 't1',
      name: NODE,
      type: 'n8n-nodes-igdata.igDataTrigger',
      typeVersion: 1,
      position: [0, 0],
      parameters: params,
    }),
    getCredentials: async () => ({ apiKey, baseUrl: sb.url }),
    helpers: {
      // What n8n does for the node: the transport hands over a request without any key, n8n adds
      // the credential's one header (real n8n runs of this are in n8n-real.test.ts).
      httpRequestWithAuthentication: async (
        credential: string,
        o: { url: string; method: string; headers: Record<string, string> },
      ) => {
        expect(credential).toBe('igDataApi');
        expect(Object.keys(o.headers).map((h) => h.toLowerCase())).toEqual(
          expect.not.arrayContaining(['authorization', 'x-api-key']),
        );
        sent.push(o.url);
        const fault: Record<string, string> =
          failLaterPages && new URL(o.url).searchParams.has('cursor') ? { 'x-sandbox-fault': '502' } : {};
        const res = await fetch(o.url, {
          method: o.method,
          headers: { ...o.headers, ...fault, Authorization: `Bearer ${apiKey}` },
        });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        return { statusCode: res.status, headers, body: await res.text() };
      },
    },
  });

  test('a sample of the newest 5, oldest first, without touching static data; then polls start as if it never ran', async () => {
    const params = { event: 'account', handle: 'bbcnews', options: {} };
    const staticData: Record<string, unknown> = {};
    const manual = context('manual', params, staticData);
    const out = await new IgDataTrigger().poll.call(manual);
    const feed = (await (
      await fetch(`${sb.url}/v1/profile/posts?handle=bbcnews`, { headers: { authorization: `Bearer ${apiKey}` } })
    ).json()) as { data: { items: Item[] } };
    expect(ids(out[0].map((i: { json: Item }) => i.json))).toEqual(ids(feed.data.items.slice(0, 5)).reverse());
    expect(manual.getWorkflowStaticData).not.toHaveBeenCalled();
    expect(staticData).toEqual({});

    // A trigger poll after it: first poll records the head and emits nothing.
    const trigger = context('trigger', params, staticData);
    expect(await new IgDataTrigger().poll.call(trigger)).toBeNull();
    expect((staticData.state as Item).feed).toMatch(/profile\/posts/);

    // A manual run with state stored leaves it byte for byte; a new post still comes on the next poll.
    const frozen = JSON.stringify(staticData);
    const one = publish(1);
    const sample = await new IgDataTrigger().poll.call(context('manual', params, staticData));
    expect(sample[0].at(-1).json.id).toBe(one[0].id);
    expect(JSON.stringify(staticData)).toBe(frozen);
    const polled = await new IgDataTrigger().poll.call(context('trigger', params, staticData));
    expect(ids(polled[0].map((i: { json: Item }) => i.json))).toEqual([one[0].id]);
  });

  test("a second page that fails (502 after the retries): the first page's posts come out with a notice; the next poll resumes at the failed page and does not pay for the first again", async () => {
    const params = { event: 'account', handle: 'bbcnews', options: { maxPages: 5 } };
    const staticData: Record<string, unknown> = {};
    expect(await new IgDataTrigger().poll.call(context('trigger', params, staticData))).toBeNull();
    const fresh = publish(30); // three pages of 12
    failLaterPages = true;
    sb.resetStats();
    let first;
    try {
      first = await new IgDataTrigger().poll.call(context('trigger', params, staticData));
    } finally {
      failLaterPages = false;
    }
    const items = first[0].map((i: { json: Item }) => i.json);
    expect(ids(items)).toEqual(ids(fresh.slice(0, 12)).reverse());
    expect(items.at(-1)._notice).toMatch(
      /^A later page of this poll failed \(The data provider failed after 3 tries\. .*\): the new posts read before it are here; the next poll resumes at that page without reading these again\.$/,
    );
    expect(sb.stats().creditsBilled).toBe(2); // the first page; the 502s were not billed

    sb.resetStats();
    const before = sent.length;
    const second = await new IgDataTrigger().poll.call(context('trigger', params, staticData));
    expect(ids(second[0].map((i: { json: Item }) => i.json))).toEqual(ids(fresh.slice(12)).reverse());
    // Two pages read, both after the first: the first page is not paid for again.
    expect(sent.slice(before).map((u) => new URL(u).searchParams.has('cursor'))).toEqual([true, true]);
    expect(sb.stats().creditsBilled).toBe(4);
  });

  test('an account with no posts: the manual run returns nothing (null), not an error', async () => {
    const out = await new IgDataTrigger().poll.call(
      context('manual', { event: 'account', handle: 'empty.account', options: {} }, {}),
    );
    expect(out).toBeNull();
  });
});
