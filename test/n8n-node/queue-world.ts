/**
 * The world of the queue-mode suites (queue-mode.test.ts, queue-mode-trigger.test.ts): the sandbox
 * in this jest process, Redis and Postgres from Debian's packages on free 127.0.0.1 ports
 * (scripts/n8n-harness/queue.cjs) and a Postgres-backed n8n home with our credential, on the
 * newest supported n8n (jest project n8n-newest). Three suites, not one, so none passes the
 * 120 s budget of a suite (CONTRIBUTING.md); each has its own services. Also the workflow parts
 * the lookup suites share (queue-mode.test.ts, queue-mode-kill.test.ts).
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

/**
 * The suite's world, set up before its tests and torn down after them (call it at the top level):
 * its fields are there once the tests run.
 */
export function useQueueWorld(): QueueWorld {
  const world = { workers: [] } as unknown as QueueWorld;
  beforeAll(async () => {
    Object.assign(world, await setupQueue());
  }, 900_000);
  afterAll(() => teardownQueue(world));
  return world;
}

export async function teardownQueue(world: Partial<QueueWorld> | undefined): Promise<void> {
  for (const w of world?.workers ?? []) await w.stop();
  if (world?.home) rt.removeN8nHome(world.home);
  await world?.services?.stop();
  await world?.sb?.close();
}

/** The IG Data node looking up the profile of each item's `handle`; `options` as the node's Options. */
export const igLookup = (options: Record<string, unknown> = {}) => ({
  id: 'q-ig',
  name: 'Lookup',
  type: 'n8n-nodes-igdata.igData',
  typeVersion: 1,
  position: [400, 0],
  parameters: { resource: 'profile', operation: 'profile', handle: '={{ $json.handle }}', options },
  credentials: { igDataApi: CRED },
});

/** 500 input items over 120 public accounts, written the ways people paste them. */
export function handles(sb: Sandbox): string[] {
  const accounts = [...sb.world.byUsername.values()]
    .filter((a) => !a.is_private)
    .map((a) => a.username)
    .slice(0, 120);
  if (accounts.length !== 120) throw new Error(`the sandbox's world has ${accounts.length} public accounts, not 120`);
  return Array.from({ length: 500 }, (_, i) => {
    const h = accounts[i % accounts.length];
    return [h, `@${h}`, h.toUpperCase(), `https://www.instagram.com/${h}/`][Math.floor(i / accounts.length) % 4];
  });
}

/** A Code node that outputs one item `{handle}` per entry of the list. */
export const input = (list: string[]) => ({
  id: 'q-code',
  name: 'Input',
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  position: [200, 0],
  parameters: { jsCode: `return ${JSON.stringify(list)}.map((handle) => ({ json: { handle } }));` },
});

/** A GET webhook at `path` that answers with the last node's items once the run ends. */
export const webhook = (path: string, webhookId: string) => ({
  id: 'q-hook',
  name: 'Webhook',
  type: 'n8n-nodes-base.webhook',
  typeVersion: 2,
  position: [0, 0],
  webhookId,
  parameters: { httpMethod: 'GET', path, responseMode: 'lastNode', responseData: 'allEntries', options: {} },
});

export const link = (from: string, to: string) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });

/** Polls the database until the published workflow's triggers (webhook, poller) are up. */
export async function waitActive(home: Home, id: string, srv: { output: () => string }): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const a = await rt.activationOf(home, id, srv.output());
    if (a.activated) return;
    if (a.failed && a.reason) throw new Error(`activation failed: ${a.reason}`);
    if (Date.now() > deadline) throw new Error(`workflow ${id} not active after 60 s:\n${srv.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
