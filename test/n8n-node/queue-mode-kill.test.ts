/**
 * A worker killed (SIGKILL to its process group: the worker and its task runner, as when a
 * container dies or the OOM killer strikes) in the middle of a 500-item lookup, in n8n 2.41.1's
 * queue mode (queue-world.ts: a main and two workers on Redis and Postgres), and what a user can
 * rely on then. What n8n does, from its code as installed in .cache (n8n/dist/scaling/
 * scaling.service.js, n8n/dist/workflow-runner.js, bull/lib/commands/moveStalledJobsToWait-7.lua):
 *
 * - The job stays "active" in Redis under the dead worker's lock until the lock expires
 *   (QUEUE_WORKER_LOCK_DURATION, default 60 s; renewed every QUEUE_WORKER_LOCK_RENEW_TIME). A live
 *   worker's stalled-job check (every QUEUE_WORKER_STALLED_INTERVAL, default 30 s) then finds it.
 *   n8n fixes Bull's maxStalledCount at 0 (there is no QUEUE_WORKER_MAX_STALLED_COUNT any more), so
 *   the job is failed, never put back in the queue: no other worker runs it again.
 * - The main, waiting for the job, rechecks the execution in the database for up to 30 s (a
 *   constant, not a setting: a live but slow worker may still write its success, n8n PR #38138).
 *   The leader main's queue recovery (every N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL minutes, default
 *   180) marks executions still "running" without a job as "crashed", which ends that wait; the
 *   main then stores the execution as "error" with n8n's sentence "This execution failed to be
 *   processed too many times and will no longer retry...", and a webhook waiting for the last
 *   node's output answers 500. With n8n's defaults that is 1.5 to 2 minutes after the kill (the
 *   lock, a check, the 30 s recheck); with no worker left alive, not until one starts.
 *   The settings below shorten each of these waits to seconds; nothing else changes.
 *
 * Credits: the dead worker's lookups were billed (a request that reaches the platform is billed,
 * ../shared/spec/service-api.md §7; the sandbox bills on arrival, so the answers still in flight
 * at the kill are paid and never reach n8n) and n8n keeps none of the execution's partial output,
 * so the run the user must start again pays for them a second time. The API offers no way out (no
 * idempotency key, no reuse of an answer in the spec) and the node keeps nothing between
 * executions: a gap of the product's rule "no done request billed again" (PRODUCT.md) in queue
 * mode, measured here, not fixed.
 */
import { handles, igLookup, input, link, useQueueWorld, waitActive, webhook } from './queue-world';
import { rt } from './setup';

jest.setTimeout(120_000);

type Item = Record<string, any>;
const world = useQueueWorld();

/**
 * n8n's own settings for noticing a dead worker, shortened (n8n's defaults in the comment above).
 * The lock keeps 4 s of slack over its renewal: a busy but live worker must not lose its job.
 */
const NOTICE_FAST = {
  QUEUE_WORKER_LOCK_DURATION: '5000',
  QUEUE_WORKER_LOCK_RENEW_TIME: '1000',
  QUEUE_WORKER_STALLED_INTERVAL: '1000',
  N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '0.05', // minutes: 3 s
};
/** Each answer takes 250 ms and the node sends 4 at a time: 120 lookups take about 7.5 s. */
const LATENCY_MS = 250;
const CONCURRENCY = 4;
/** The kill lands once this many lookups are billed: a quarter of the run. */
const KILL_AFTER = 30;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, get: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs: number) {
  for (const deadline = Date.now() + timeoutMs; ; await pause(20)) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms (last: ${JSON.stringify(v)})`);
  }
}

test('a worker killed mid-run: the job is not run again, the execution ends as an error the user sees, the lookups it paid are paid again by the re-run', async () => {
  const { sb, apiKey, home } = world;
  const queue = await rt.startQueue(home, { workers: 2, env: NOTICE_FAST });
  world.workers.push(queue);
  const id = await rt.publishOnMain(queue, {
    id: 'wfQueueKilled01',
    name: 'queue lookup, worker killed',
    nodes: [
      webhook('igdata-lookup-killed', '0c5e2b8a-7d41-4e9f-b3a6-5f1d2c9e8a70'),
      input(handles(sb)),
      igLookup({ concurrency: CONCURRENCY }),
    ],
    connections: { ...link('Webhook', 'Input'), ...link('Input', 'Lookup') },
  });
  await waitActive(home, id, queue);
  const call = () =>
    fetch(`${queue.url}/webhook/igdata-lookup-killed`, { signal: AbortSignal.timeout(60_000) }).then(async (r) => ({
      status: r.status,
      body: await r.text(),
    }));

  sb.setFaults({ latencyMs: LATENCY_MS });
  sb.resetStats();
  const balanceBefore = sb.balance(apiKey);
  const answer = call();
  await until(
    'lookups billed',
    () => sb.stats().creditsBilled,
    (n) => n >= KILL_AFTER,
    30_000,
  );
  const ran = rt.workerExecutions(queue) as number[][];
  const victim = ran.findIndex((ids) => ids.length > 0);
  const survivor = 1 - victim;
  expect(ran[victim]).toHaveLength(1);
  const [executionId] = ran[victim];
  await queue.workers[victim].stop('SIGKILL');
  const killedAt = Date.now();
  const atKill = sb.stats();
  // Mid-run: some lookups done, most not.
  expect(atKill.creditsBilled).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(atKill.creditsBilled).toBeLessThan(120);

  // The caller of the webhook is told it failed, once n8n has noticed.
  expect(await answer).toEqual({ status: 500, body: '{"message":"Error in workflow"}' });
  const [execution] = await until(
    'the execution stored as ended',
    () => rt.getExecutions(home, id),
    (es: Item[]) => es.length === 1 && !['new', 'running', 'crashed'].includes(es[0].status),
    30_000,
  );
  const noticedMs = Date.now() - killedAt;
  expect(execution).toMatchObject({ id: executionId, mode: 'webhook', status: 'error', finished: false });
  expect(execution.run.data.resultData.error.message).toMatch(
    /^This execution failed to be processed too many times and will no longer retry/,
  );
  // Nothing of the dead worker's work is kept: no node's output, not even the paid answers.
  expect(execution.run.data.resultData.runData).toEqual({});
  // Not run again: the live worker never took the job, and nothing was sent after the kill.
  expect(rt.workerExecutions(queue)[survivor]).toEqual([]);
  expect(sb.stats()).toMatchObject({ total: atKill.total, creditsBilled: atKill.creditsBilled });
  // Each lookup billed once, the balance down by exactly that.
  const paid = atKill.creditsBilled;
  expect(Math.max(...Object.values(atKill.byRequest))).toBe(1);
  expect(sb.balance(apiKey)).toBe(balanceBefore - paid);

  // What the user can do: run it again. The live worker runs it in full; the lookups the dead
  // worker paid for are paid again (the gap in the header comment).
  sb.setFaults({ latencyMs: 0 });
  const again = await call();
  expect(again.status).toBe(200);
  expect(JSON.parse(again.body) as Item[]).toHaveLength(500);
  const [, rerun] = await rt.getExecutions(home, id);
  expect(rerun).toMatchObject({ status: 'success' });
  expect(rt.workerExecutions(queue)[survivor]).toEqual([rerun.id]);
  const after = sb.stats();
  // (The node's free balance check, `credits`, is counted with the requests: lookups only here.)
  expect(Object.keys(after.byRequest).filter((k) => k.startsWith('profile?'))).toHaveLength(120);
  expect(after.byEndpoint.profile).toBe(atKill.byEndpoint.profile + 120);
  expect(after.creditsBilled).toBe(paid + 120);
  expect(sb.balance(apiKey)).toBe(balanceBefore - paid - 120);
  console.log(
    `worker killed after ${paid} of 120 lookups were billed; n8n stored the execution as error ` +
      `${noticedMs} ms later; the re-run billed 120, so ${paid} lookups were paid twice ` +
      `(${paid + 120} credits for 120 distinct lookups)`,
  );
});
