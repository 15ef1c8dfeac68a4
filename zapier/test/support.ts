/** What the Zapier suites share: the built integration, Zapier's tester, a sandbox and its key. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * A slow API without waiting: a local server in front of the sandbox that moves the integration's
 * clock (jest's, faked by the caller from a named instant) on by `ms` for each request before
 * passing it through. Zapier's 30 s step limit is then read on that clock.
 */
export async function slowFront(sb: Sandbox, ms: number): Promise<{ url: string; close: () => void }> {
  const server = http.createServer(async (req, res) => {
    jest.setSystemTime(Date.now() + ms);
    const answer = await fetch(`${sb.url}${req.url}`, { headers: { 'x-api-key': String(req.headers['x-api-key']) } });
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(await answer.text());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
