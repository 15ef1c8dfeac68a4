/**
 * The built sandbox in a worker thread, for tests whose client blocks its own thread (the Apps
 * Script stand-in's synchronous UrlFetchApp): a server on the calling thread could not answer.
 * Requires `npm run build` (npm test builds first). Admin calls go over HTTP (/_sandbox/...).
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface SandboxOptions {
  latencyMs?: number;
  seed?: number;
  faultRate?: number;
  faultStatus?: number;
}

export interface RemoteSandbox {
  url: string;
  demoKey: string;
  createKey(balance?: number): Promise<string>;
  balance(key: string): Promise<number>;
  stats(): Promise<Record<string, any>>;
  resetStats(): Promise<void>;
  setFaults(faults: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

const built = join(__dirname, '..', '..', 'dist', 'sandbox-lib.mjs');

export async function startSandboxWorker(options: SandboxOptions = {}): Promise<RemoteSandbox> {
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first (npm test does).`);
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     import(workerData.built).then(async ({ startSandbox }) => {
       const s = await startSandbox({ port: 0, host: '127.0.0.1', quiet: true, ...workerData.options });
       parentPort.postMessage({ url: s.url, demoKey: s.demoKey });
       parentPort.on('message', async (m) => { if (m === 'close') { await s.close(); parentPort.postMessage('closed'); } });
     }, (e) => parentPort.postMessage({ error: String(e && e.stack || e) }));`,
    { eval: true, workerData: { built, options } },
  );
  const ready = await new Promise<{ url: string; demoKey: string; error?: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  if (ready.error) throw new Error(ready.error);
  const { url, demoKey } = ready;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/_sandbox/${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`sandbox admin ${method} ${path}: HTTP ${res.status}`);
    return res.json() as Promise<any>;
  };
  return {
    url,
    demoKey,
    createKey: async (balance) => (await admin('POST', `keys${balance === undefined ? '' : `?balance=${balance}`}`)).key,
    balance: async (key) => {
      const res = await fetch(`${url}/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
      return (await res.json()).data.credits_remaining;
    },
    stats: () => admin('GET', 'stats'),
    resetStats: async () => void (await admin('POST', 'reset')),
    setFaults: async (faults) => void (await admin('POST', 'faults', faults)),
    close: async () => {
      worker.postMessage('close');
      await new Promise((r) => worker.once('message', r));
      await worker.terminate();
    },
  };
}
