/**
 * The action node's engine in-process under the sandbox's rate limit (20 requests in flight, 429
 * with Retry-After: 1 beyond, 100 ms latency): every input comes out, each distinct request is
 * billed once, and the pace is found: the first run meets refusals only in its first wave, the
 * next one, with what the first learned, has at most 5% of its requests refused. How long each
 * takes against the limit's floor (2.5x, 1.25x) is `npm run bench:n8n`'s to measure: a time bound
 * here failed a whole `npm test` on a busy machine. Without a limit the default pace grows past its
 * first wave, and the next run sends all its distinct requests at once.
 */
import { fetchIO, prepare } from '@igdata/core';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import type { ItemCall } from '../../n8n-node/nodes/IgData/engine';
import { runItemCalls } from '../../n8n-node/nodes/IgData/engine';
import { memoryOf } from '../../n8n-node/nodes/IgData/pace-memory';
import { MAX_CONCURRENCY } from '../../n8n-node/nodes/IgData/options';

const LATENCY = 100;
const LIMIT = 20;
let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42, latencyMs: LATENCY });
});
afterAll(async () => sb?.close());

/** 200 lookups of 120 distinct posts, as bench:n8n runs them. */
const jobs = (): ItemCall[] => {
  const shortcodes = [...sb.world.postsByShortcode.keys()].slice(0, 120);
  return Array.from({ length: 200 }, (_, i) => ({
    call: prepare('post', { post: shortcodes[i % 120] }),
    returnAll: false,
  }));
};

async function run(credential: string, concurrency = MAX_CONCURRENCY, concurrencySet = false) {
  sb.resetStats();
  const out = await runItemCalls({ apiKey: sb.demoKey, baseUrl: sb.url }, jobs(), fetchIO(), {
    concurrency,
    concurrencySet,
    memory: memoryOf(sb.url, credential),
  });
  return { out, stats: sb.stats() };
}

test('under a limit of 20 in flight: nothing lost, billed once; the first run meets refusals in its first wave only, the next one under 5%', async () => {
  sb.setFaults({ rateLimitInFlight: LIMIT, retryAfterSeconds: 1 });
  try {
    const first = await run('limited');
    expect(first.out.filter((o) => o?.ok)).toHaveLength(200);
    expect(first.stats.creditsBilled).toBe(120);
    // Only the first wave (50) meets refusals: the 30 the service did not admit, once each.
    expect(first.stats.byStatus['429']).toBeLessThanOrEqual(30);
    expect(first.stats.maxInFlight).toBeLessThanOrEqual(LIMIT + 1 /* the balance read */);

    const second = await run('limited');
    expect(second.out.filter((o) => o?.ok)).toHaveLength(200);
    expect(second.stats.creditsBilled).toBe(120);
    const refused = second.stats.byStatus['429'] ?? 0;
    expect(refused).toBeLessThanOrEqual(0.05 * second.stats.total);
    expect(second.stats.byEndpoint.credits).toBeUndefined(); // the balance the first run saw covers it
  } finally {
    sb.setFaults({ rateLimitInFlight: 0 });
  }
});

test('no limit: the default pace grows past its first wave, the next run is one wave; a Concurrency set is the ceiling', async () => {
  const open = await run('open');
  expect(open.out.filter((o) => o?.ok)).toHaveLength(200);
  expect(open.stats.byStatus['429']).toBeUndefined();
  expect(open.stats.maxInFlight).toBeGreaterThan(50);
  // The first run's 120 fast answers earned the width for all 120 (its queue emptied after 35).
  const next = await run('open');
  expect(next.out.filter((o) => o?.ok)).toHaveLength(200);
  expect(next.stats.byEndpoint.credits).toBeUndefined();
  expect(next.stats.maxInFlight).toBe(120);
  const set = await run('set', 30, true);
  expect(set.out.filter((o) => o?.ok)).toHaveLength(200);
  expect(set.stats.maxInFlight).toBeLessThanOrEqual(31 /* the balance read */);
});
