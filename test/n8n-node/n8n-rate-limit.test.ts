/**
 * The action node under the sandbox's rate limit inside a real, long-running n8n (`n8n start`,
 * the jest worker's, executions by webhook, as production runs them): 200 lookups of 120 accounts at the default
 * settings, twice in the same n8n process, against 20 requests admitted in flight (429 with
 * Retry-After: 1 beyond, 100 ms latency). Every input comes out, paired, each distinct request
 * billed once; the first execution meets the limit, the second starts at the pace the first learned
 * and meets no refusal. Times are `npm run bench:n8n`'s (this machine may be busy under jest).
 */
import type { N8nWorld } from './setup';
import { CRED, rt, setupN8n, teardownN8n } from './setup';

jest.setTimeout(300_000);

let world: N8nWorld;
beforeAll(async () => {
  world = await setupN8n();
});
afterAll(() => teardownN8n(world));

/** 200 input handles over 120 public accounts, as bench:n8n's lookup. */
function handles(): string[] {
  const accounts = [...world.sb.world.byUsername.values()]
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, 120);
  return [...accounts, ...accounts.slice(0, 80).map((h, i) => (i % 2 ? `@${h}` : h.toUpperCase()))];
}

const workflow = (list: string[]) => ({
  id: 'wfRateLimit00001',
  name: 'lookups under a rate limit',
  nodes: [
    {
      id: 'r-hook',
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: '3c9e1a52-7b1d-4e0a-9f3e-5d2b8c6a4f10',
      parameters: {
        httpMethod: 'GET',
        path: 'igdata-rate-limit',
        responseMode: 'lastNode',
        responseData: 'noData',
        options: {},
      },
    },
    {
      id: 'r-code',
      name: 'Input',
      type: 'n8n-nodes-base.code',
      typeVersion: 2,
      position: [200, 0],
      parameters: { jsCode: `return ${JSON.stringify(list)}.map((handle) => ({ json: { handle } }));` },
    },
    {
      id: 'r-ig',
      name: 'Lookup',
      type: 'n8n-nodes-igdata.igData',
      typeVersion: 1,
      position: [400, 0],
      parameters: { resource: 'profile', operation: 'profile', handle: '={{ $json.handle }}' },
      credentials: { igDataApi: CRED },
    },
  ],
  connections: {
    Webhook: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
    Input: { main: [[{ node: 'Lookup', type: 'main', index: 0 }]] },
  },
});

test('20 in flight, 429 beyond: every input comes out paired, credits = unique requests; the second execution meets no refusal', async () => {
  const { sb, home } = world;
  // Published and activated on the worker's live n8n (its webhook); the pace the node learns is
  // kept per credential and address, so this suite's new credential starts with nothing learned.
  const id = await rt.publishWorkflow(home, workflow(handles()));
  const activation = await rt.runActive(home, id);
  expect(activation).toMatchObject({ activated: true });
  const { srv } = await rt.liveServer(home);
  sb.setFaults({ latencyMs: 100, rateLimitInFlight: 20, retryAfterSeconds: 1 });
  const runs: {
    items: { json: Record<string, unknown>; pairedItem?: { item: number } }[];
    stats: ReturnType<typeof sb.stats>;
  }[] = [];
  try {
    for (let k = 0; k < 2; k++) {
      const after = await rt.maxExecutionId(home);
      sb.resetStats();
      const res = await fetch(`${srv.url}/webhook/igdata-rate-limit`, { signal: AbortSignal.timeout(120_000) });
      expect(res.status).toBe(200);
      const stats = sb.stats();
      let execution;
      for (const until = Date.now() + 30_000; !execution?.finished && Date.now() < until;)
        [execution] = await rt.getExecutions(home, id, { afterId: after });
      expect(execution).toMatchObject({ status: 'success' });
      runs.push({ items: rt.nodeOutput(execution.run, 'Lookup', { full: true }), stats });
    }
  } finally {
    sb.setFaults({ latencyMs: 0, rateLimitInFlight: 0 });
  }
  for (const { items, stats } of runs) {
    expect(items).toHaveLength(200);
    expect(items.map((it) => it.pairedItem?.item)).toEqual(items.map((_, k) => k));
    expect(items.filter((it) => it.json.delivered === false)).toEqual([]);
    expect(stats.creditsBilled).toBe(120);
    expect(stats.byEndpoint.profile - (stats.byStatus['429'] ?? 0)).toBe(120);
  }
  const [first, second] = runs.map((r) => r.stats);
  expect(first.byStatus['429']).toBeGreaterThan(0); // the first wave (50) met the limit
  expect(first.byStatus['429']).toBeLessThanOrEqual(30);
  expect(second.byStatus['429'] ?? 0).toBeLessThanOrEqual(0.05 * second.total);
  expect(second.maxInFlight).toBeLessThanOrEqual(20);
  expect(second.byEndpoint.credits).toBeUndefined(); // the balance the first saw covers the second
});
