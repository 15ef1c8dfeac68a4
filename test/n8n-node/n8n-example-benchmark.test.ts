/**
 * The benchmark job of issue 40 as a shipped example, run in a real n8n (2.8.4, and 2.41.1 in the
 * jest project n8n-newest) against the sandbox in this jest process:
 * n8n-node/examples/competitor-benchmark-to-slack.json, started from its Schedule Trigger as the
 * editor's "Execute workflow" starts it, with only its Slack webhook URL pointed at an HTTP server of
 * this test's own (a Slack incoming webhook answers 200 `ok`). The server receives exactly one POST;
 * its `text` names every account and, per measure, marks the leader and gives our rank as the
 * sandbox's own figures (asked directly) say; the credits billed are what the example's note and
 * the registry's prices say. A display name holding Slack's control characters arrives escaped.
 */
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateCost, getEndpoint } from '@igdata/core';
import type { N8nWorld } from './setup';
import { root, rt, setupN8n, teardownN8n } from './setup';

jest.setTimeout(400_000);

type Node = { name: string; type: string; parameters: Record<string, any> };
type Workflow = { nodes: Node[]; connections: Record<string, unknown> };
type Post = { method: string; url: string; contentType: string; body: string };

const SHIPPED_URL = 'https://hooks.slack.com/services/...';
const example = (): Workflow =>
  JSON.parse(readFileSync(join(root, 'n8n-node/examples/competitor-benchmark-to-slack.json'), 'utf8'));
const node = (wf: Workflow, name: string) => wf.nodes.find((n) => n.name === name)!;
const handlesOf = (wf: Workflow) =>
  [...node(wf, 'Accounts').parameters.jsCode.matchAll(/'([^']+)'/g)].map((m: RegExpMatchArray) => m[1]);

let world: N8nWorld;
let slack: { url: string; posts: Post[]; close(): Promise<void> };
beforeAll(async () => {
  // The examples' credential (n8n-node/examples).
  world = await setupN8n([{ id: 'igDataSandboxCred', name: 'IG Data (sandbox)' }]);
  const posts: Post[] = [];
  const read = async (req: IncomingMessage) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    return body;
  };
  const server = createServer((req, res) => {
    void read(req).then((body) => {
      posts.push({ method: req.method!, url: req.url!, contentType: req.headers['content-type'] ?? '', body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  slack = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T0000/B0000/test`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
afterAll(async () => {
  await teardownN8n(world);
  await slack?.close();
});

/** What the sandbox answers for a call, asked directly with a key of the test's own. */
async function ask(key: string, path: string): Promise<Record<string, any>> {
  const res = await fetch(`${world.sb.url}/v1/${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

const MEASURES = [
  { title: 'Followers', key: 'followers' },
  { title: 'Engagement rate', key: 'engagement_rate_pct' },
  { title: 'Posts per week', key: 'posts_per_week' },
] as const;
type Figures = {
  username: string;
  full_name: string;
  best_format: string | null;
  format_mix: { type: string; share_pct: number }[];
} & Record<(typeof MEASURES)[number]['key'], number>;

/** The accounts of the example's list, in its order, each with the sandbox's own figures. */
async function known(wf: Workflow): Promise<Figures[]> {
  const key = world.sb.createKey(1000);
  const out = [];
  for (const handle of handlesOf(wf)) {
    const p = await ask(key, `profile?handle=${encodeURIComponent(handle)}`);
    const e = await ask(key, `insights/profile/engagement?handle=${p.username}&posts=12`);
    const s = await ask(key, `insights/profile/stats?handle=${p.username}&posts=30`);
    out.push({
      username: p.username,
      full_name: p.full_name,
      followers: e.followers,
      engagement_rate_pct: e.engagement_rate_pct,
      posts_per_week: s.posts_per_week,
      best_format: s.best_format,
      format_mix: s.format_mix,
    });
  }
  return out;
}

/** The message's sections by title: the heading line and one line per account. */
function sectionsOf(text: string) {
  const [title, ...blocks] = text.split('\n\n');
  const sections = Object.fromEntries(
    blocks.map((b) => {
      const [head, ...lines] = b.split('\n');
      return [/^\*([^*]+)\*/.exec(head)![1], { head, lines }];
    }),
  );
  return { title, sections };
}

/** Runs the example with its webhook pointed at the test's server; the POSTs it made and the bill. */
async function run(wf: Workflow) {
  const slackNode = node(wf, 'Send to Slack');
  expect(slackNode.parameters.url).toBe(SHIPPED_URL);
  slackNode.parameters.url = slack.url;
  slack.posts.length = 0;
  world.sb.resetStats();
  const r = await rt.runWorkflow(world.home, wf);
  expect(r.error).toBeUndefined();
  expect(r.run.status).toBe('success');
  return { posts: [...slack.posts], stats: world.sb.stats(), r };
}

test('one Slack message: every account, the leader of each measure and our rank as the sandbox figures say; the credits the note says', async () => {
  const wf = example();
  // Its one start: the weekly schedule (run here as the editor's "Execute workflow" runs it).
  const starts = wf.nodes.filter((n) => /trigger/i.test(n.type));
  expect(starts.map((n) => n.type)).toEqual(['n8n-nodes-base.scheduleTrigger']);
  const [start] = starts;
  expect(start.parameters.rule.interval).toEqual([
    { field: 'weeks', weeksInterval: 1, triggerAtDay: [1], triggerAtHour: 8, triggerAtMinute: 0 },
  ]);
  const accounts = await known(wf);
  expect(accounts.map((a) => a.username)).toEqual(['nasa', 'natgeo', 'nike', 'starbucks', 'bbcnews', 'instagram']);

  const { posts, stats, r } = await run(wf);
  expect(posts).toHaveLength(1);
  expect(posts[0]).toMatchObject({ method: 'POST', url: '/services/T0000/B0000/test' });
  expect(posts[0].contentType).toMatch(/^application\/json/);
  const body = JSON.parse(posts[0].body);
  expect(Object.keys(body)).toEqual(['text']);
  const { title, sections } = sectionsOf(body.text);
  const label = (a: Figures) => `${a.full_name} (@${a.username})`;
  expect(title).toBe(`*Weekly Instagram benchmark:* ${label(accounts[0])} against 5 competitors`);
  expect(Object.keys(sections)).toEqual([...MEASURES.map((m) => m.title), 'Best format', 'Format mix']);

  for (const m of MEASURES) {
    const { head, lines } = sections[m.title];
    // One line per account, in the list's order, its value the sandbox's (as shown: grouped, at most 2 decimals).
    expect(lines.map((l) => l.split(': ')[0])).toEqual(accounts.map((a) => `• ${label(a)}`));
    expect(lines.map((l) => Number(/: ([\d,.]+)%?( |$)/.exec(l)![1].replace(/,/g, '')))).toEqual(
      accounts.map((a) => a[m.key]),
    );
    const best = Math.max(...accounts.map((a) => a[m.key]));
    const leaders = accounts.filter((a) => a[m.key] === best).map(label);
    expect(leaders).toHaveLength(1);
    expect(lines.filter((l) => l.endsWith(' :trophy: leader')).map((l) => l.slice(2).split(': ')[0])).toEqual(leaders);
    const rank = 1 + accounts.filter((a) => a[m.key] > accounts[0][m.key]).length;
    expect(head).toBe(`*${m.title}* (our rank: ${rank} of 6)`);
  }
  // The leaders differ by measure: the marks are not one account's.
  expect(
    new Set(MEASURES.map((m) => sections[m.title].lines.find((l) => l.endsWith('leader'))!.split(': ')[0])).size,
  ).toBeGreaterThan(1);
  expect(sections['Best format'].lines).toEqual(accounts.map((a) => `• ${label(a)}: ${a.best_format}`));
  expect(sections['Format mix'].lines).toEqual(
    accounts.map((a) => `• ${label(a)}: ${a.format_mix.map((f) => `${f.type} ${f.share_pct}%`).join(', ')}`),
  );

  // Profile 1 + engagement over 12 posts 2 + stats over 30 posts 5, from the registry: the note's figures.
  const perAccount = ['Profile', 'Engagement', 'Posting stats']
    .map((name) => node(wf, name).parameters)
    .reduce((sum, p) => sum + estimateCost(getEndpoint(p.operation)!, p).credits, 0);
  const note = node(wf, 'About this workflow').parameters.content;
  expect(note).toContain(`**${perAccount} credits an account**`);
  expect(note).toContain(`**${perAccount * 6} credits a week**`);
  expect(perAccount).toBe(8);
  expect(stats.byEndpoint).toEqual({ profile: 6, 'insights/profile/engagement': 6, 'insights/profile/stats': 6 });
  expect(stats.creditsBilled).toBe(48);
  expect(JSON.stringify(r.run)).not.toContain(world.apiKey);
  expect(posts[0].body).not.toContain(world.apiKey);
});

test("a display name holding Slack's control characters arrives escaped; accounts with no public data are named at the end, for 1 credit each", async () => {
  // A stranger names their account; Slack would read <!channel> as a mention of everyone and
  // <https://...|win> as a link, and an &amp; already written as one.
  const name = '<!channel> Tom &amp; Jerry & <https://evil.example|win>';
  const res = await fetch(`${world.sb.url}/_sandbox/accounts`, {
    method: 'POST',
    body: JSON.stringify({ username: 'odd.rival', full_name: name, followers: 5000 }),
  });
  expect(res.status).toBe(200);
  const wf = example();
  const list = node(wf, 'Accounts');
  // Besides it, a private account and one that does not exist (the sandbox's fixtures).
  list.parameters.jsCode = list.parameters.jsCode.replace(
    "'instagram'",
    "'instagram', 'odd.rival', 'locked_acc', 'no_such_account'",
  );
  expect(handlesOf(wf)).toHaveLength(9);

  const { posts, stats } = await run(wf);
  expect(posts).toHaveLength(1);
  const { text } = JSON.parse(posts[0].body) as { text: string };
  const escaped = '&lt;!channel&gt; Tom &amp;amp; Jerry &amp; &lt;https://evil.example|win&gt; (@odd.rival)';
  const { sections } = sectionsOf(text);
  for (const m of MEASURES) {
    expect(sections[m.title].head).toMatch(/\(our rank: \d of 7\)$/);
    expect(sections[m.title].lines.filter((l) => l.startsWith(`• ${escaped}: `))).toHaveLength(1);
  }
  // The message's own markup uses none of them: any < or > would be the stranger's.
  expect(text).not.toMatch(/[<>]/);
  // An account with no posts yet: zeros, and no format.
  expect(sections['Best format'].lines).toContain(`• ${escaped}: no posts`);
  expect(sections['Format mix'].lines).toContain(`• ${escaped}: no posts`);
  // The two without public data: one line each with the node's message (what it cost), after the measures.
  expect(Object.keys(sections).at(-1)).toBe('Could not be read');
  expect(sections['Could not be read'].lines).toEqual([
    '• locked_acc: @locked_acc is private: no public data. (Charged 1 credit.)',
    '• no_such_account: @no_such_account has no public data: private, deleted or nonexistent. (Charged 1 credit.)',
  ]);
  // 7 public accounts at 8 credits, and a profile lookup (1 credit) for each of the other two.
  expect(stats.byEndpoint).toEqual({ profile: 9, 'insights/profile/engagement': 7, 'insights/profile/stats': 7 });
  expect(stats.creditsBilled).toBe(7 * 8 + 2);
});

test('our account unreadable: the competitors still compared, without a rank, and ours named as not read', async () => {
  const wf = example();
  const list = node(wf, 'Accounts');
  list.parameters.jsCode = list.parameters.jsCode.replace("const ours = 'nasa'", "const ours = 'locked_acc'");
  expect(handlesOf(wf)[0]).toBe('locked_acc');
  const { posts } = await run(wf);
  expect(posts).toHaveLength(1);
  const { title, sections } = sectionsOf((JSON.parse(posts[0].body) as { text: string }).text);
  expect(title).toBe('*Weekly Instagram benchmark:* 5 competitors (our account could not be read)');
  for (const m of MEASURES) {
    expect(sections[m.title].head).toBe(`*${m.title}*`);
    expect(sections[m.title].lines).toHaveLength(5);
  }
  expect(sections['Could not be read'].lines).toEqual([
    '• locked_acc: @locked_acc is private: no public data. (Charged 1 credit.)',
  ]);
});
