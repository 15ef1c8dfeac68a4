/**
 * What the runtime suites share: two sandboxes standing for two deployments of the API (two base
 * URLs, two billings: "sandbox" and "production"), the Zapier server (rpc.ts) and the handler
 * (lambda.ts), on jest's clock from the named instant.
 */
import type { Sandbox } from '../../../scripts/sandbox/server';
import { startSandbox } from '../../../scripts/sandbox/server';
import { TEST_START } from '../../../test/support/clock';
import type { Run } from './lambda';
import { lambda } from './lambda';
import { moveTo } from './poller';
import type { ZapierServer } from './rpc';
import { startZapierServer } from './rpc';

export interface World {
  sandbox: Sandbox;
  production: Sandbox;
  server: ZapierServer;
  run: Run;
  start: number;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  jest.useFakeTimers({ doNotFake: ['setTimeout', 'setImmediate', 'setInterval', 'nextTick', 'queueMicrotask'] });
  const start = Date.parse(TEST_START);
  jest.setSystemTime(start);
  // Two worlds of their own (seeds 42 and 43): their posts and keys differ, as two deployments' do.
  const sandbox = await startSandbox({ startAt: TEST_START, seed: 42 });
  const production = await startSandbox({ startAt: TEST_START, seed: 43 });
  moveTo(start, [sandbox, production]);
  const server = await startZapierServer();
  const { run, restore } = lambda(server);
  return {
    sandbox,
    production,
    server,
    run,
    start,
    async close() {
      restore();
      await Promise.all([sandbox.close(), production.close(), server.close()]);
      jest.useRealTimers();
    },
  };
}

/** Whether `secret` is anywhere the Zapier server saw: a cache key or value, a log line. */
export function leaked(server: ZapierServer, secret: string): string[] {
  return [...server.cacheTraffic, ...server.logLines].filter((line) => line.includes(secret));
}

/**
 * Zapier's handler kills its process after 250 runs once it holds more than 450 MB (Zapier then
 * starts a fresh one); jest's process with two sandboxes in it holds more, and a simulated day is
 * a thousand runs. The guard is Zapier's hosting, not the integration: it reads a small rss.
 */
export function smallRss(): void {
  const real = process.memoryUsage.bind(process);
  jest.spyOn(process, 'memoryUsage').mockImplementation(() => ({ ...real(), rss: 100_000_000 }));
}
