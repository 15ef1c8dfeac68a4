/**
 * The package in n8n's queue mode (its own scale-out): `n8n start` as main and two `n8n worker`s
 * on Redis and Postgres (queue-world.ts), on the newest supported n8n (jest project n8n-newest).
 * Proves that the executions run on the workers and give what regular mode gives: a 500-item
 * lookup (one request per distinct account, the same items and credits as a regular-mode run of
 * the same nodes). The hashtag trigger across polls: queue-mode-trigger.test.ts.
 */
import { join } from 'node:path';
import { handles, igLookup, input, link, useQueueWorld, waitActive, webhook } from './queue-world';
import { CRED, root, rt } from './setup';

jest.setTimeout(600_000);

type Item = Record<string, any>;
const world = useQueueWorld();

test('a 500-item lookup runs on a worker: one request per distinct account, the same items and credits as in regular mode', async () => {
  const { sb, apiKey, home } = world;
  const list = handles(sb);
  const wf = {
    id: 'wfQueueLookup500',
    name: 'queue lookup 500',
    nodes: [webhook('igdata-lookup-500', '6b0f7d1e-2f4a-4c1b-9a57-0e7c4f3d9a11'), input(list), igLookup()],
    connections: { ...link('Webhook', 'Input'), ...link('Input', 'Lookup') },
  };
  const id = await rt.publishWorkflow(home, wf);
  sb.resetStats();
  const queue = await rt.startQueue(home, { workers: 2 });
  let body: Item[];
  try {
    await waitActive(home, id, queue);
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
      nodes: [manual, input(list), igLookup()],
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
