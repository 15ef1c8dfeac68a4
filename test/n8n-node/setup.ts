/**
 * Shared set-up of the real-n8n suites: the package as `npm run build` made it (never rebuilt
 * here: other suites may be copying it), the sandbox in this jest process on a real port (n8n is a
 * child process and reaches it over HTTP), and an n8n home with our credentials: the one this jest
 * worker shares for this n8n version (its server already up after the first suite;
 * scripts/n8n-harness/shared.cjs), or a fresh one outside a jest run. Installs n8n on first use
 * (minutes, cold).
 */
import { join } from 'node:path';
import type { Sandbox } from '../../scripts/sandbox/server';
import { startSandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../support/clock';
import { N8N_BUILT, requireBuilt } from '../support/built';
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const rt = require('../../scripts/n8n-harness/index.cjs');

export const root = join(__dirname, '..', '..');
/** The credential the test workflows use. */
export const CRED = { id: 'igSandboxCred01', name: 'IG Data sandbox' };

export interface N8nWorld {
  sb: Sandbox;
  home: { home: string; env: Record<string, string> };
  apiKey: string;
}

/** Call in beforeAll; pass `world` to `teardownN8n` in afterAll. `extraCredentials` get the same key. */
export async function setupN8n(extraCredentials: { id: string; name: string }[] = []): Promise<N8nWorld> {
  requireBuilt(...N8N_BUILT);
  const sb = await startSandbox({ startAt: TEST_START, port: 0, seed: 42 });
  const apiKey = sb.createKey(100000);
  await rt.ensureN8n();
  const packageDir = join(root, 'n8n-node');
  const home = (await rt.sharedHome({ packageDir })) ?? (await rt.createN8nHome({ packageDir }));
  await rt.importCredentials(home, [
    { ...CRED, type: 'igDataApi', data: { apiKey, baseUrl: sb.url } },
    ...extraCredentials.map((c) => ({ ...c, type: 'igDataApi', data: { apiKey, baseUrl: sb.url } })),
  ]);
  return { sb, home, apiKey };
}

export async function teardownN8n(world: Partial<N8nWorld> | undefined): Promise<void> {
  if (world?.home) await rt.removeN8nHome(world.home);
  await world?.sb?.close();
}
