/**
 * The package in n8n's queue mode (its own scale-out): Redis and Postgres from Debian's packages
 * on free 127.0.0.1 ports (scripts/n8n-harness/queue.cjs), `n8n start` as main and two
 * `n8n worker`s, on the newest supported n8n (jest project n8n-newest). Proves that the executions
 * run on the workers and give what regular mode gives: a 500-item lookup (one request per distinct
 * account, the same items and credits as a regular-mode run of the same nodes) and the hashtag
 * trigger across polls (polled by the main, each emitting execution run by a worker; every new
 * post once, none twice; one credit per page the sandbox counted).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { N8N_BUILT, requireBuilt } from '../support/built';
import { CRED, root, rt } from './setup';

jest.setTimeout(600_000);

type Item = Record<string, any>;
type Home = { home: string; env: Record<string, string> };
let sb: Sandbox;
let apiKey: string;
let services: { env: Record<string, string>; stop: () => Promise<void> };
let home: Home;
let workers: { stop: () => Promise<unknown>; output: () => string }[] = [];

beforeAll(async () => {
  execFileSync(process.execPath, [join(root, 'scripts/n8n-harness/queue-install.mjs')], { stdio: 'inherit' });
  requireBuilt(...N8N_BUILT);
  sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
  apiKey = sb.createKey(100000);
  await rt.ensureN8n();
  services = await rt.startQueueServices();
  // A Postgres-backed home: no SQLite template; the first command migrates the database.
  home = await rt.createN8nHome({
    fresh: true,
    env: services.env,
    packageDir: join(root, 'n8n-node'),
    credentials: [{ ...CRED, type: 'igDataApi', data: { apiKey, baseUrl: sb.url } }],
  });
}, 900_000);

afterAll(async () => {
  for (const w of workers) await w.stop();
  if (home) rt.removeN8nHome(home);
  await services?.stop();
  await sb?.close();
});

const igLookup = {
  id: 'q-ig',
  name: 'Lookup',
  type: 'n8n-nodes-igdata.igData',
  typeVersion: 1,
  position: [400, 0],
  parameters: { resource: 'profile', operation: 'profile', handle: '={{ $json.handle }}' },
  credentials: { igDataApi: CRED },
};
/** 500 input items over 120 public accounts, written the ways people paste them. */
function handles(): string[] {
  const accounts = [...sb.world.byUsername.values()]
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, 120);
  expect(accounts).toHaveLength(120);
  return Array.from({ length: 500 }, (_, i) => {
    const h = accounts[i % accounts.length];
    return [h, `@${h}`, h.toUpperCase(), `https://www.instagram.com/${h}/`][Math.floor(i / accounts.length) % 4];
  });
}
const input = (list: string[]) => ({
  id: 'q-code',
  name: 'Input',
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  position: [200, 0],
  parameters: { jsCode: `return ${JSON.stringify(list)}.map((handle) => ({ json: { handle } }));` },
});
const link = (from: string, to: string) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });

/** Polls the database until the published workflow's triggers (webhook, poller) are up. */
async function waitActive(id: string, srv: { output: () => string }) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const a = await rt.activationOf(home, id, srv.output());
    if (a.activated) return;
    if (a.failed && a.reason) throw new Error(`activation failed: ${a.reason}`);
    if (Date.now() > deadline) throw new Error(`workflow ${id} not active after 60 s:\n${srv.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

test('a 500-item lookup runs on a worker: one request per distinct account, the same items and credits as in regular mode', async () => {
  const list = handles();
  const wf = {
    id: 'wfQueueLookup500',
    name: 'queue lookup 500',
    nodes: [
      {
        id: 'q-hook',
        name: 'Webhook',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        webhookId: '6b0f7d1e-2f4a-4c1b-9a57-0e7c4f3d9a11',
        parameters: {
          httpMethod: 'GET',
          path: 'igdata-lookup-500',
          responseMode: 'lastNode',
          responseData: 'allEntries',
          options: {},
        },
      },
      input(list),
      igLookup,
    ],
    connections: { ...link('Webhook', 'Input'), ...link('Input', 'Lookup') },
  };
  const id = await rt.publishWorkflow(home, wf);
  sb.resetStats();
  const queue = await rt.startQueue(home, { workers: 2 });
  let body: Item[];
  try {
    await waitActive(id, queue);
    const res = await fetch(`${queue.url}/webhook/igdata-lookup-500`, { signal: AbortSignal.timeout(240_000) });
    expect(res.status).toBe(200);
    body = (await res.json()) as Item[];
  } finally {
    await queue.stop();
  }
  const queued = sb.stats();
  const [execution] = await rt.getExecutions(home, id);
  expect(execution).toMatchObject({ mode: 'webhook', status: 'success' });
  // Run by a worker, not by the main.
  expect(rt.workerExecutions(queue).flat()).toContain(execution.id);
  expect(queue.output()).not.toContain('Worker started execution');

  expect(body).toHaveLength(500);
  expect(execution.items).toHaveLength(500);
  expect(queued.byEndpoint.profile).toBe(120);
  expect(queued.creditsBilled).toBe(120);

  // The same nodes in regular mode (SQLite home, `n8n execute`): the same 500 items, the same bill.
  const regular = await rt.createN8nHome({
    packageDir: join(root, 'n8n-node'),
    credentials: [{ ...CRED, type: 'igDataApi', data: { apiKey, baseUrl: sb.url } }],
  });
  try {
    sb.resetStats();
    const manual = {
      id: 'q-start',
      name: 'Start',
      type: 'n8n-nodes-base.manualTrigger',
      typeVersion: 1,
      position: [0, 0],
      parameters: {},
    };
    const r = await rt.runWorkflow(regular, {
      name: 'regular lookup 500',
      nodes: [manual, input(list), igLookup],
      connections: { ...link('Start', 'Input'), ...link('Input', 'Lookup') },
    });
    expect(r.error).toBeUndefined();
    expect(execution.items).toEqual(r.data);
    expect(sb.stats().byEndpoint).toEqual(queued.byEndpoint);
    expect(sb.stats().creditsBilled).toBe(queued.creditsBilled);
  } finally {
    rt.removeN8nHome(regular);
  }
  expect(JSON.stringify(body)).not.toContain(apiKey);
});

test('the hashtag trigger across polls: polled by the main, each emitting run on a worker; new posts once, oldest first', async () => {
  const trigger = {
    id: 'wfQueueHashtag01',
    name: 'queue hashtag trigger',
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
  // Two workers for the whole test; the main is restarted for each poll (on start it activates the
  // published workflow, and activation polls once at once: one real poll per start).
  workers = [await rt.startWorker(home), await rt.startWorker(home)];
  const ranOnWorkers = () => new Set<number>(rt.workerExecutions({ workers }).flat());
  const poll = async (wf: typeof trigger | string) => {
    const r = await rt.pollOnce(home, wf, { timeoutMs: 120_000 });
    expect(r.activationError).toBeUndefined();
    expect(r.activated).toBe(true);
    // Every execution the poll caused ran on a worker, none on the main.
    for (const e of r.executions) expect(ranOnWorkers()).toContain(e.id);
    expect(r.output).not.toContain('Worker started execution');
    return r;
  };
  const emitted = (r: { executions: { items?: Item[] }[] }) =>
    r.executions.flatMap((e) => e.items ?? []).map((p) => p.id);

  sb.resetStats();
  const first = await poll(trigger);
  expect(emitted(first)).toEqual([]);
  expect(sb.stats().byEndpoint['hashtag/recent']).toBe(1);

  const three = sb.addPosts('veganrecipes', 3);
  expect(emitted(await poll(trigger.id))).toEqual(three.map((p) => p.id).reverse());
  expect(emitted(await poll(trigger.id))).toEqual([]);

  expect(sb.deletePost(three[0].id)).toBe(true);
  const two = sb.addPosts('veganrecipes', 2);
  expect(emitted(await poll(trigger.id))).toEqual(two.map((p) => p.id).reverse());

  // 75 new posts, 2 pages (60 posts) per poll: the newest 60 now, the other 15 on the next poll.
  const burst = sb.addPosts('veganrecipes', 75);
  const fifth = emitted(await poll(trigger.id));
  const sixth = emitted(await poll(trigger.id));
  expect(fifth).toEqual(
    burst
      .slice(0, 60)
      .map((p) => p.id)
      .reverse(),
  );
  expect(sixth).toEqual(
    burst
      .slice(60)
      .map((p) => p.id)
      .reverse(),
  );
  expect(emitted(await poll(trigger.id))).toEqual([]);

  // Every page read was billed once: 1 credit per hashtag/recent page, nothing else.
  const stats = sb.stats();
  expect(stats.creditsBilled).toBe(stats.byEndpoint['hashtag/recent']);
  expect(Object.keys(stats.byEndpoint)).toEqual(['hashtag/recent']);
  expect(ranOnWorkers().size).toBe(4); // the polls that emitted: 3 posts, 2 posts, 60, 15
});
