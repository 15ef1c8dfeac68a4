/**
 * The built sandbox in a child process, for tests whose client blocks its own thread (the Apps
 * Script stand-in's synchronous UrlFetchApp, the sync driver): a server on the calling thread could
 * not answer while it blocks. Requires `npm run build` (npm test builds first). Admin calls go over
 * HTTP (/_sandbox/...).
 */
import path from 'node:path';
import fs from 'node:fs';
import type { SandboxStats } from '../../scripts/sandbox/server';
import { spawnServer } from '../../scripts/gas-standin/testServer';
import { TEST_START } from './clock';

const ROOT = path.join(__dirname, '..', '..');
export const DEMO_KEY = 'sk_test_sheets_demo_key_0123456789';

export interface SandboxProcess {
  url: string;
  demoKey: string;
  stats(): Promise<SandboxStats>;
  reset(): Promise<void>;
  createKey(balance?: number): Promise<string>;
  balance(key: string): Promise<number>;
  setFaults(f: Record<string, unknown>): Promise<void>;
  /** Adds a public account with the fields given (scripts/sandbox/overlay.ts addAccount); until the sandbox stops. */
  addAccount(spec: Record<string, unknown>): Promise<{ id: string; username: string }>;
  /** A step in a seeded account's followers or engagement at a world instant (POST /_sandbox/profile/<handle>/step). */
  step(s: { handle: string; measure: 'followers' | 'engagement'; change: number; at?: string }): Promise<unknown>;
  close(): Promise<void>;
}

/** `startAt`: the instant the sandbox's clock starts at (default TEST_START, support/clock.ts). */
export async function startSandbox(opts: { latencyMs?: number; startAt?: string } = {}): Promise<SandboxProcess> {
  const cli = path.join(ROOT, 'dist', 'sandbox.mjs');
  if (!fs.existsSync(cli)) throw new Error('dist/sandbox.mjs is missing: run `npm run build` first');
  const server = await spawnServer(process.execPath, [cli], {
    env: {
      PORT: '0',
      SANDBOX_DEMO_KEY: DEMO_KEY,
      SANDBOX_LATENCY_MS: String(opts.latencyMs ?? 0),
      SANDBOX_FAULT_RATE: '0',
      IGDATA_CLOCK_START: opts.startAt ?? TEST_START,
    },
    portPattern: /listening on http:\/\/[\d.]+:(\d+)/,
  });
  const url = server.url;
  const admin = async (p: string, method = 'GET', body?: unknown): Promise<any> => {
    // The test thread blocks while UrlFetchApp runs, so an idle keep-alive socket may have been
    // closed by the server meanwhile: retry once on a connection failure.
    let res: Response;
    try {
      res = await fetch(url + p, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    } catch {
      res = await fetch(url + p, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
    }
    if (!res.ok) throw new Error(`sandbox admin ${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    url,
    demoKey: DEMO_KEY,
    stats: () => admin('/_sandbox/stats'),
    reset: async () => void (await admin('/_sandbox/reset', 'POST')),
    createKey: async (balance?: number) =>
      (await admin(`/_sandbox/keys${balance === undefined ? '' : `?balance=${balance}`}`, 'POST')).key,
    balance: async (key: string) => (await admin(`/_sandbox/keys/${encodeURIComponent(key)}`)).balance,
    setFaults: async (f) => void (await admin('/_sandbox/faults', 'POST', f)),
    addAccount: (spec) => admin('/_sandbox/accounts', 'POST', spec),
    step: ({ handle, measure, change, at }) =>
      admin(
        `/_sandbox/profile/${encodeURIComponent(handle)}/step?measure=${measure}&change=${change}${at ? `&at=${encodeURIComponent(at)}` : ''}`,
        'POST',
      ),
    close: () => server.close(),
  };
}
