/**
 * Shared set-up of the Sheets tests: the sandbox in a child process (UrlFetchApp blocks the test's
 * thread, so the server must live elsewhere), and the *built* add-on (sheets-addon/dist) loaded
 * into the Apps Script stand-in with requests to the production host rewritten to the sandbox.
 */
import path from 'node:path';
import fs from 'node:fs';
import { createGasRuntime, GasRuntime, GasRuntimeOptions } from '../gas/runtime';
import { spawnServer } from '../gas/testServer';

export const ROOT = path.join(__dirname, '..', '..');
export const DIST = path.join(ROOT, 'sheets-addon', 'dist');
export const PROD = 'https://api.igdata.dev';
export const DEMO_KEY = 'sk_test_sheets_demo_key_0123456789';

export interface SandboxStats {
  total: number;
  byEndpoint: Record<string, number>;
  byRequest: Record<string, number>;
  byStatus: Record<string, number>;
  creditsBilled: number;
  maxInFlight: number;
}

export interface SandboxProcess {
  url: string;
  demoKey: string;
  stats(): Promise<SandboxStats>;
  reset(): Promise<void>;
  createKey(balance?: number): Promise<string>;
  balance(key: string): Promise<number>;
  setFaults(f: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export async function startSandbox(opts: { latencyMs?: number } = {}): Promise<SandboxProcess> {
  const cli = path.join(ROOT, 'dist', 'sandbox.mjs');
  if (!fs.existsSync(cli)) throw new Error('dist/sandbox.mjs is missing: run `npm run build` first');
  const server = await spawnServer(process.execPath, [cli], {
    env: { PORT: '0', HOST: '127.0.0.1', SANDBOX_DEMO_KEY: DEMO_KEY, SANDBOX_LATENCY_MS: String(opts.latencyMs ?? 0), SANDBOX_FAULT_RATE: '0' },
    portPattern: /listening on http:\/\/[\d.]+:(\d+)/,
  });
  const url = server.url;
  const admin = async (p: string, method = 'GET', body?: unknown): Promise<any> => {
    // The test thread blocks while UrlFetchApp runs, so an idle keep-alive socket may have been
    // closed by the server meanwhile: retry once on a connection failure.
    let res: Response;
    try {
      res = await fetch(url + p, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    } catch {
      res = await fetch(url + p, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    }
    if (!res.ok) throw new Error(`sandbox admin ${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  return {
    url,
    demoKey: DEMO_KEY,
    stats: () => admin('/_sandbox/stats'),
    reset: async () => void (await admin('/_sandbox/reset', 'POST')),
    createKey: async (balance?: number) => (await admin(`/_sandbox/keys${balance === undefined ? '' : `?balance=${balance}`}`, 'POST')).key,
    balance: async (key: string) => (await admin(`/_sandbox/keys/${encodeURIComponent(key)}`)).balance,
    setFaults: async (f) => void (await admin('/_sandbox/faults', 'POST', f)),
    close: () => server.close(),
  };
}

/** Property names, as documented in sheets-addon/README.md. */
export const PROP = { apiKey: 'IGDATA_API_KEY', keySetBy: 'IGDATA_KEY_SET_BY', keySetAt: 'IGDATA_KEY_SET_AT', baseUrl: 'IGDATA_BASE_URL', job: 'IGDATA_BULK_JOB' };

export function addonRuntime(sandboxUrl: string, opts: Partial<GasRuntimeOptions> & { key?: string | null } = {}): GasRuntime {
  for (const f of ['bundle.js', 'Code.js', 'Sidebar.html', 'appsscript.json']) {
    if (!fs.existsSync(path.join(DIST, f))) throw new Error(`sheets-addon/dist/${f} is missing: run \`npm run build\` first`);
  }
  const { key, ...rest } = opts;
  const rt = createGasRuntime({
    files: [path.join(DIST, 'bundle.js'), path.join(DIST, 'Code.js')],
    dir: DIST,
    addonName: 'IG Data',
    enforceUrlFetchWhitelist: true,
    rewriteUrl: (u) => (u.startsWith(PROD) ? sandboxUrl + u.slice(PROD.length) : u),
    ...rest,
  });
  if (key !== null) rt.properties.document.set(PROP.apiKey, key ?? DEMO_KEY);
  return rt;
}

/** A column of values as Sheets passes a range: [[a],[b],...]. */
export const column = (values: unknown[]): unknown[][] => values.map((v) => [v]);

/** Requests the stand-in made (each request of a fetchAll counts). */
export const requestCount = (rt: GasRuntime) => rt.stats.requests;
