/**
 * What the engine suites (engine.test.ts, engine-stop.test.ts) share: the sandbox they run against
 * (one per suite, reset before each test) and the small builders of item calls and answers.
 */
import type { AsyncIO } from '@igdata/core';
import { fetchIO, prepare } from '@igdata/core';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import type { ItemCall, ItemResult } from '../../n8n-node/nodes/IgData/engine';

/** The suite's sandbox, set in its beforeAll (a live binding: read it inside tests). */
export let sb: Sandbox;
/** Call once at the top of a suite: starts the sandbox before it, resets it before each test. */
export function useSandbox() {
  beforeAll(async () => {
    sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
  });
  afterAll(async () => sb?.close());
  beforeEach(() => {
    sb.setFaults({ latencyMs: 0 });
    sb.resetStats();
  });
}

export const config = () => ({ apiKey: sb.demoKey, baseUrl: sb.url });
export const job = (endpoint: string, input: Record<string, unknown>, extra: Partial<ItemCall> = {}): ItemCall => ({
  call: prepare(endpoint, input),
  returnAll: false,
  ...extra,
});
export const ok = (o: ItemResult | undefined) => {
  if (!o || !o.ok) throw new Error(`expected success, got ${JSON.stringify(o)}`);
  return o;
};
export const errorOf = (o: ItemResult | undefined) => {
  if (!o || o.ok) throw new Error(`expected a failure, got ${JSON.stringify(o)}`);
  return o.error;
};
/** `n` distinct accounts that need not exist: for runs refused before any request. */
export const handles = (n: number) => Array.from({ length: n }, (_, i) => `someone_${i}`);
/** `n` distinct public posts of the sandbox's world, by shortcode (1 credit a lookup). */
export const posts = (n: number) => [...sb.world.postsByShortcode.keys()].slice(0, n);
/**
 * fetchIO, with `after(n)` called as the n-th answer comes back from the sandbox: another consumer
 * of the same key acting in the middle of a run.
 */
export function meanwhile(after: (answers: number) => void): AsyncIO {
  const io = fetchIO();
  let answers = 0;
  return {
    ...io,
    fetch: async (request) => {
      const res = await io.fetch(request);
      after(++answers);
      return res;
    },
  };
}
