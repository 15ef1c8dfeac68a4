/**
 * The world of the queue-mode suites (queue-mode.test.ts, queue-mode-trigger.test.ts): the sandbox
 * in this jest process, Redis and Postgres from Debian's packages on free 127.0.0.1 ports
 * (scripts/n8n-harness/queue.cjs) and a Postgres-backed n8n home with our credential, on the
 * newest supported n8n (jest project n8n-newest). Two suites, not one, so neither passes the
 * 120 s budget of a suite (CONTRIBUTING.md); each has its own services.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { N8N_BUILT, requireBuilt } from '../support/built';
import { CRED, root, rt } from './setup';

type Home = { home: string; env: Record<string, string> };
export interface QueueWorld {
  sb: Sandbox;
  apiKey: string;
  services: { env: Record<string, string>; stop: () => Promise<void> };
  home: Home;
  /** Workers a test starts itself; stopped in teardownQueue. */
  workers: { stop: () => Promise<unknown>; output: () => string }[];
}

/** Call in beforeAll; pass the world to teardownQueue in afterAll. */
export async function setupQueue(): Promise<QueueWorld> {
  execFileSync(process.execPath, [join(root, 'scripts/n8n-harness/queue-install.mjs')], { stdio: 'inherit' });
  requireBuilt(...N8N_BUILT);
  const sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
  const apiKey = sb.createKey(100000);
  await rt.ensureN8n();
  const services = await rt.startQueueServices();
  // A Postgres-backed home: no SQLite template; the first command migrates the database.
  const home = await rt.createN8nHome({
    fresh: true,
    env: services.env,
    packageDir: join(root, 'n8n-node'),
    credentials: [{ ...CRED, type: 'igDataApi', data: { apiKey, baseUrl: sb.url } }],
  });
  return { sb, apiKey, services, home, workers: [] };
}

export async function teardownQueue(world: Partial<QueueWorld> | undefined): Promise<void> {
  for (const w of world?.workers ?? []) await w.stop();
  if (world?.home) rt.removeN8nHome(world.home);
  await world?.services?.stop();
  await world?.sb?.close();
}
