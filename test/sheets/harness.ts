/**
 * Shared set-up of the Sheets tests: the sandbox in a child process (test/support/sandbox.ts), and
 * the *built* add-on (sheets-addon/dist) loaded into the Apps Script stand-in with requests to the
 * production host rewritten to the sandbox.
 */
import path from 'node:path';
import fs from 'node:fs';
import { buildSync } from 'esbuild';
import { DEFAULT_BASE_URL } from '@igdata/core';
import { createGasRuntime, GasRuntime, GasRuntimeOptions } from '../../scripts/gas-standin/runtime';
import type { SandboxProcess } from '../support/sandbox';
import { DEMO_KEY, startSandbox } from '../support/sandbox';
import { TEST_START } from '../support/clock';

export const ROOT = path.join(__dirname, '..', '..');
export const DIST = path.join(ROOT, 'sheets-addon', 'dist');
export const PROD = DEFAULT_BASE_URL;

export { startSandbox, DEMO_KEY } from '../support/sandbox';
export type { SandboxProcess } from '../support/sandbox';

/** Property names, as documented in sheets-addon/README.md. */
export const PROP = {
  apiKey: 'IGDATA_API_KEY',
  keySetBy: 'IGDATA_KEY_SET_BY',
  keySetAt: 'IGDATA_KEY_SET_AT',
  baseUrl: 'IGDATA_BASE_URL',
  job: 'IGDATA_BULK_JOB',
};

export function addonRuntime(
  sandboxUrl: string,
  opts: Partial<GasRuntimeOptions> & { key?: string | null; store?: boolean } = {},
): GasRuntime {
  for (const f of ['bundle.js', 'Code.js', 'Sidebar.html', 'appsscript.json']) {
    if (!fs.existsSync(path.join(DIST, f)))
      throw new Error(`sheets-addon/dist/${f} is missing: run \`npm run build\` first`);
  }
  const { key, store, ...rest } = opts;
  const rt = createGasRuntime({
    files: [path.join(DIST, 'bundle.js'), path.join(DIST, 'Code.js'), ...(store ? [storeProbe()] : [])],
    dir: DIST,
    addonName: 'IG Data',
    enforceUrlFetchWhitelist: true,
    rewriteUrl: (u) => (u.startsWith(PROD) ? sandboxUrl + u.slice(PROD.length) : u),
    startAt: TEST_START,
    ...rest,
  });
  if (key !== null) rt.properties.document.set(PROP.apiKey, key ?? DEMO_KEY);
  return rt;
}

/** A column of values as Sheets passes a range: [[a],[b],...]. */
export const column = (values: unknown[]): unknown[][] => values.map((v) => [v]);

/** Requests the stand-in made (each request of a fetchAll counts). */
export const requestCount = (rt: GasRuntime) => rt.stats.requests;

/** The add-on's answer store as a script of its own (global IGSTORE: getMany, putMany), see cache-probe.ts. */
export function storeProbe(): { name: string; code: string } {
  const out = buildSync({
    entryPoints: [path.join(__dirname, 'cache-probe.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'IGSTORE',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2020',
    write: false,
    logLevel: 'warning',
  });
  return { name: 'store-probe.js', code: out.outputFiles[0].text };
}

/**
 * A sandbox for the test file (reset before each test) and add-on runtimes against it, closed
 * after the file's tests: `const env = sandboxedAddon(); ... env.runtime(); env.sandbox.stats()`.
 */
export function sandboxedAddon() {
  const runtimes: GasRuntime[] = [];
  const env = {
    sandbox: undefined as unknown as SandboxProcess,
    runtime(opts: Parameters<typeof addonRuntime>[1] = {}): GasRuntime {
      const rt = addonRuntime(env.sandbox.url, opts);
      runtimes.push(rt);
      return rt;
    },
  };
  beforeAll(async () => {
    env.sandbox = await startSandbox();
  });
  afterAll(async () => {
    for (const rt of runtimes) await rt.close();
    await env.sandbox?.close();
  });
  beforeEach(async () => {
    await env.sandbox.reset();
  });
  return env;
}
