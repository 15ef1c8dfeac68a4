/**
 * Soak under upstream faults, n8n side (issue 8): the action node's engine in-process, over real
 * HTTP, to the sandbox behind seeded faults (10% 502 + 5% 504, test/support/fault-proxy.ts). A
 * lookup of 500 items (200 unique, typed differently) and a Return All: no item lost, every item
 * aligned with its own input, nothing billed twice (credits billed == unique successful requests).
 */
import { fetchIO, prepare } from '@igdata/core';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import type { RunningServer } from '../../scripts/gas-standin/testServer';
import type { ItemCall, ItemResult } from '../../n8n-node/nodes/IgData/engine';
import { runItemCalls } from '../../n8n-node/nodes/IgData/engine';
import { startFaultProxy } from '../support/fault-proxy';

let sb: Sandbox;
let proxy: RunningServer;
beforeAll(async () => {
  sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
  proxy = await startFaultProxy(sb.url, { seed: 7 });
});
afterAll(async () => {
  await proxy?.close();
  await sb?.close();
});

const config = () => ({ apiKey: sb.demoKey, baseUrl: proxy.url });
const TRANSIENT = /^(upstream_error|upstream_timeout)$/;
const codeOf = (o: ItemResult | undefined) => (o && !o.ok ? String((o.error as { code?: unknown }).code) : '');

test('a lookup of 500 items under faults, failed items run again until complete: 0 lost, 0 billed twice, all aligned', async () => {
  const names = [...sb.world.byUsername.values()]
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, 170);
  const unique = [...names, ...Array.from({ length: 30 }, (_, i) => `nobody_${i}`)];
  const inputs = Array.from({ length: 500 }, (_, i) => {
    const h = unique[(i * 7) % unique.length];
    return i % 3 === 0 ? `@${h.toUpperCase()}` : i % 3 === 1 ? `https://www.instagram.com/${h}/` : h;
  });
  const want = (i: number) => unique[(i * 7) % unique.length];
  sb.resetStats();
  const final: (ItemResult | undefined)[] = new Array(inputs.length);
  let todo = inputs.map((_, i) => i);
  let runs = 0;
  while (todo.length && runs < 8) {
    const out = await runItemCalls(
      config(),
      todo.map((i) => ({ call: prepare('profile', { handle: inputs[i] }), returnAll: false }) as ItemCall),
      fetchIO(),
      { concurrency: 8 },
    );
    expect(out).toHaveLength(todo.length);
    todo.forEach((i, j) => (final[i] = out[j]));
    todo = todo.filter((i) => TRANSIENT.test(codeOf(final[i])));
    runs++;
  }
  const s = sb.stats();
  console.log(
    `n8n lookup: ${runs} runs, ${s.faults} faults injected, ${s.creditsBilled} credits for ${unique.length} unique`,
  );
  expect(s.faults).toBeGreaterThan(10);
  expect(todo).toEqual([]);
  final.forEach((o, i) => {
    if (want(i).startsWith('nobody_')) {
      // Charged 1 where first looked up; an item that asked it again in the same run is served that
      // answer and says it was free (charged 0, its first charge kept).
      const { charged, first } = (o as { error: { charged: number; first?: { charged: number } } }).error;
      expect([codeOf(o), charged + (first?.charged ?? 0)]).toEqual(['not_found', 1]);
    } else expect(o && o.ok && o.items.map((x) => x.username)).toEqual([want(i)]);
  });
  // Within one run identical requests are sent once; a failed request is never billed, so each is paid once.
  expect(s.creditsBilled).toBe(unique.length);
});

test('Return All under faults: every page once, every item once, billed once per page', async () => {
  sb.resetStats();
  const [o] = await runItemCalls(
    config(),
    [{ call: prepare('hashtag/recent', { tag: 'veganrecipes' }), returnAll: true }],
    fetchIO(),
    { concurrency: 4 },
  );
  const s = sb.stats();
  console.log(
    `Return All: ${s.faults} faults injected, ${s.creditsBilled} credits, outcome ${o?.ok ? `${o.items.length} items in ${o.meta.pages} pages` : codeOf(o)}`,
  );
  expect(s.faults).toBeGreaterThan(5);
  if (!o || !o.ok) throw new Error(`Return All failed: ${codeOf(o)}`);
  expect(o.meta.stopped_by).toBe('end');
  expect(o.items.length).toBeGreaterThanOrEqual(2500);
  expect(new Set(o.items.map((p) => p.id)).size).toBe(o.items.length);
  expect(s.creditsBilled).toBe(o.meta.pages);
  expect(o.meta.credits_charged).toBe(o.meta.pages);
  // The same list without faults: the same items in the same order.
  const [clean] = await runItemCalls(
    { apiKey: sb.demoKey, baseUrl: sb.url },
    [{ call: prepare('hashtag/recent', { tag: 'veganrecipes' }), returnAll: true }],
    fetchIO(),
    { concurrency: 4 },
  );
  expect(clean && clean.ok && clean.items.map((p) => p.id)).toEqual(o.items.map((p) => p.id));
});
