/**
 * The IG Data Trigger in n8n's queue mode (queue-world.ts: Redis, Postgres, the newest supported
 * n8n): the hashtag trigger across polls, polled by the main, each emitting execution run by one of
 * two `n8n worker`s; every new post once, none twice; one credit per page the sandbox counted.
 * The 500-item lookup on a worker: queue-mode.test.ts.
 */
import type { Sandbox } from '../../scripts/sandbox/server';
import type { QueueWorld } from './queue-world';
import { setupQueue, teardownQueue } from './queue-world';
import { CRED, rt } from './setup';

jest.setTimeout(600_000);

type Item = Record<string, any>;
let world: QueueWorld;
let sb: Sandbox;
let home: QueueWorld['home'];

beforeAll(async () => {
  world = await setupQueue();
  ({ sb, home } = world);
}, 900_000);
afterAll(() => teardownQueue(world));

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
  world.workers = [await rt.startWorker(home), await rt.startWorker(home)];
  const { workers } = world;
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
