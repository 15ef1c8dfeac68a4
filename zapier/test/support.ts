/** What the Zapier suites share: the built integration, Zapier's tester, a sandbox and its key. */
import { createAppTester } from 'zapier-platform-core';
import { startSandbox, type Sandbox } from '../../scripts/sandbox/server';
import { TEST_START } from '../../test/support/clock';
import { requireBuilt } from '../../test/support/built';

requireBuilt('zapier/dist/index.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built bundle, as Zapier loads it
export const app = require('../dist');
/** Zapier's tester, its answers untyped (the integration's own JSON). */
export type Tester = (method: unknown, bundle: unknown) => Promise<any>;
export const tester = (): Tester => createAppTester(app) as unknown as Tester;

export async function sandbox(): Promise<{ sb: Sandbox; authData: { apiKey: string; baseUrl: string } }> {
  const sb = await startSandbox({ startAt: TEST_START, seed: 42 });
  return { sb, authData: { apiKey: sb.demoKey, baseUrl: sb.url } };
}
