// Both drivers of the one core against the sandbox over real HTTP: the async one over fetch, the
// sync one over a blocking HTTP transport (the same worker + Atomics technique the Apps Script
// stand-in uses for UrlFetchApp). Same generators, same answers.
import {
  createClient,
  fetchIO,
  getEndpoint,
  paginate,
  prepare,
  request,
  driveAsync,
  driveSync,
  sendAll,
  isIgError,
} from '@igdata/core';
import type { HttpRequest, RawResponse, SyncIO } from '@igdata/core';
import { SyncHttpClient } from '../scripts/gas-standin/internal/syncHttp';
import type { WireResult } from '../scripts/gas-standin/internal/syncHttp';
import { startSandbox } from './support/sandbox';
import type { SandboxProcess } from './support/sandbox';

let sandbox: SandboxProcess;
let syncIO: SyncIO & { close?: () => void };

beforeAll(async () => {
  sandbox = await startSandbox();
  syncIO = makeSyncIO();
});
afterAll(async () => {
  syncIO?.close?.();
  await sandbox?.close();
});

/** A blocking SyncIO in Node, as UrlFetchApp is in Apps Script (worker + Atomics.wait). */
function makeSyncIO(): SyncIO & { close: () => void } {
  const http = new SyncHttpClient();
  const wire = (req: HttpRequest) => ({
    url: req.url,
    method: req.method,
    headers: req.headers,
    body: null,
    followRedirects: true,
    validateHttpsCertificates: true,
    timeoutMs: 30000,
  });
  const toRaw = (r: WireResult): RawResponse => {
    if (!r.ok) return { status: 0, headers: {}, body: '', error: r.message };
    const headers: Record<string, string> = {};
    for (let i = 0; i < r.rawHeaders.length; i += 2) headers[r.rawHeaders[i].toLowerCase()] = r.rawHeaders[i + 1];
    return { status: r.status, headers, body: Buffer.from(r.body).toString('utf8') };
  };
  const all = (reqs: HttpRequest[]) => {
    const out = http.request(reqs.map(wire), 60000);
    if (out === 'timeout') throw new Error('timeout');
    return out.map(toRaw);
  };
  return {
    fetch: (req) => all([req])[0],
    fetchAll: all,
    sleep: (ms) => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms),
    close: () => void http.close(),
  };
}

const cfg = () => ({ apiKey: sandbox.demoKey, baseUrl: sandbox.url });

it('the same generator gives the same answer through both drivers', async () => {
  const op = () => request(cfg(), 'profile', { handle: '@NASA' });
  const a = await driveAsync(op(), fetchIO());
  const b = driveSync(op(), syncIO);
  expect(a.data).toEqual(b.data);
  expect(a.data).toMatchObject({ username: 'nasa' });
  expect(a.creditsCharged).toBe(1);
});

it('a batch through fetchAll (sync) and Promise.all (async) keeps order and reports per-call errors', async () => {
  const calls = () => [
    prepare('profile', { handle: 'nasa' }),
    prepare('profile', { handle: 'no_such_account_zz' }),
    prepare('profile', { handle: 'natgeo' }),
  ];
  const viaSync = driveSync(sendAll(cfg(), calls()), syncIO);
  const viaAsync = await driveAsync(sendAll(cfg(), calls()), fetchIO());
  for (const out of [viaSync, viaAsync]) {
    expect((out[0] as unknown as { data: { username: string } }).data.username).toBe('nasa');
    expect(isIgError(out[1]) && out[1].name === 'IgApiError' && out[1].code).toBe('not_found');
    expect((out[2] as unknown as { data: { username: string } }).data.username).toBe('natgeo');
  }
});

it('pages a follower list with a cap through both drivers', async () => {
  const call = prepare(getEndpoint('profile/followers'), { handle: 'nasa' });
  const a = await driveAsync(paginate(cfg(), call, { maxPages: 10 }), fetchIO());
  const b = driveSync(paginate(cfg(), call, { maxPages: 10 }), syncIO);
  expect(a.items.map((x) => x.id)).toEqual(b.items.map((x) => x.id));
  expect(a.stoppedBy).toBe('end');
});

it('the promise client reports errors with the service code and billing', async () => {
  const key = await sandbox.createKey(3);
  const client = createClient({ apiKey: key, baseUrl: sandbox.url });
  await expect(client.call('profile', { handle: 'no_such_account_zz' })).rejects.toMatchObject({
    code: 'not_found',
    charged: 1,
  });
  await expect(
    createClient({ apiKey: 'wrong', baseUrl: sandbox.url }).call('profile', { handle: 'nasa' }),
  ).rejects.toMatchObject({
    code: 'invalid_api_key',
    status: 401,
  });
});

it('retries injected 502s and succeeds without being billed for them', async () => {
  const key = await sandbox.createKey(10);
  const before = await sandbox.balance(key);
  const client = createClient({
    apiKey: key,
    baseUrl: sandbox.url,
    retry: { attempts: 8, baseDelayMs: 1, maxDelayMs: 5 },
  });
  // Half of the requests fail with 502 at the sandbox; the client retries until one succeeds.
  const io = fetchIO({
    fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as object), 'x-sandbox-fault': '502' } }),
  });
  let faulted = 0;
  const flaky = {
    ...io,
    fetch: async (req: Parameters<typeof io.fetch>[0]) => (faulted++ < 2 ? io.fetch(req) : fetchIO().fetch(req)),
  };
  const res = await driveAsync(request(client.config, 'profile', { handle: 'nasa' }), flaky);
  expect(res.attempts).toBe(3);
  expect(await sandbox.balance(key)).toBe(before - 1);
});
