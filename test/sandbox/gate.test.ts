/**
 * The sandbox's border (scripts/lib/gate.ts, scripts/sandbox/border.ts), over real HTTP to the
 * built sandbox in a child process, as `npm run sandbox` runs it: requests addressed to another
 * name (DNS rebinding), pages of other sites changing state or calling the MCP tools, 200 MB
 * bodies to every kind of route (refused at the route's limit, the server's memory flat), and
 * where it listens (IGDATA_LISTEN, never HOST). Needs `npm run build`.
 */
import * as http from 'node:http';
import { join } from 'node:path';
import { networkInterfaces } from 'node:os';
import { spawnServer } from '../../scripts/gas-standin/testServer';
import { listenOf } from '../../scripts/lib/listen';
import { TEST_START } from '../support/clock';
import { listeningAddresses, sendWatching } from '../support/border-probes';

const CLI = join(__dirname, '..', '..', 'dist', 'sandbox.mjs');
const DEMO_KEY = 'sk_test_gate_demo_key_0123456789';
const MB = 1 << 20;

type Server = Awaited<ReturnType<typeof spawnServer>>;
const start = (env: Record<string, string> = {}) =>
  spawnServer(process.execPath, [CLI], {
    env: { PORT: '0', SANDBOX_DEMO_KEY: DEMO_KEY, IGDATA_CLOCK_START: TEST_START, IGDATA_LISTEN: '', HOST: '', ...env },
    portPattern: /listening on http:\/\/[\d.]+:(\d+)/,
  });

/** One request with the headers given (Host included), its answer parsed. */
function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gate-test', version: '1' } },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('the sandbox on 127.0.0.1 (IGDATA_LISTEN unset)', () => {
  let sb: Server;
  beforeAll(async () => {
    sb = await start();
  });
  afterAll(() => sb?.close());

  test('a request addressed to another name (Host: evil.example) is refused on every kind of route; 127.0.0.1, localhost and [::1] are served', async () => {
    for (const path of ['/', '/v1/profile?handle=nasa', '/_sandbox/stats', '/openapi.json', '/mcp']) {
      const r = await request(`${sb.url}${path}`, { headers: { host: 'evil.example', 'x-api-key': DEMO_KEY } });
      expect([path, r.status, r.headers.connection]).toEqual([path, 403, 'close']);
      expect(r.text).toContain('evil.example');
      expect(r.text).toContain('IGDATA_LISTEN');
    }
    const rebound = await request(`${sb.url}/v1/profile?handle=nasa`, {
      headers: { host: `evil.example:${sb.port}`, 'x-api-key': DEMO_KEY },
    });
    expect([rebound.status, JSON.parse(rebound.text).error.code]).toEqual([403, 'host_not_allowed']);
    for (const host of [`127.0.0.1:${sb.port}`, `localhost:${sb.port}`, `[::1]:${sb.port}`, 'LOCALHOST.']) {
      const ok = await request(`${sb.url}/v1/profile?handle=nasa`, { headers: { host, 'x-api-key': DEMO_KEY } });
      expect([host, ok.status]).toEqual([host, 200]);
    }
  });

  test("a page of another site may not POST (a text/plain form to /_sandbox/keys made a 50-credit key); this machine's pages and clients without Origin may", async () => {
    for (const origin of ['http://evil.example', 'null', 'https://127.0.0.1.evil.example']) {
      const r = await request(`${sb.url}/_sandbox/keys?balance=50`, {
        method: 'POST',
        headers: { origin, 'content-type': 'text/plain' },
      });
      expect([origin, r.status, JSON.parse(r.text).error.code]).toEqual([origin, 403, 'cross_site_refused']);
      expect(r.text).not.toContain('sk_');
    }
    const reset = await request(`${sb.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: '{"faultRate":1}',
    });
    expect(reset.status).toBe(403);
    expect(JSON.parse((await request(`${sb.url}/_sandbox/faults`)).text).faultRate).toBe(0);
    // Same site: a page on another port of this machine, and a client that sends no Origin.
    const sameSite: Record<string, string>[] = [
      { origin: 'http://localhost:5173' },
      { origin: `http://127.0.0.1:${sb.port}` },
      {},
    ];
    for (const headers of sameSite) {
      const r = await request(`${sb.url}/_sandbox/keys?balance=50`, { method: 'POST', headers });
      expect([headers, r.status, JSON.parse(r.text).balance]).toEqual([headers, 200, 50]);
    }
    // Reading is not changing: a GET with a foreign Origin is served (CORS keeps the answer from the page).
    expect((await request(`${sb.url}/openapi.json`, { headers: { origin: 'http://evil.example' } })).status).toBe(200);
  });

  test('MCP: an initialize from a foreign Origin is refused with 403 and a JSON-RPC error without id; no Access-Control-Allow-Origin: * anywhere', async () => {
    const foreign = await request(`${sb.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: 'http://evil.example' },
      body: INIT,
    });
    expect(foreign.status).toBe(403);
    const refusal = JSON.parse(foreign.text);
    expect(refusal).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('evil.example') },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(`${sb.url}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([403, undefined]);
    // No Origin (an MCP client that is not a browser): served, with no CORS grant.
    const plain = await request(`${sb.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: INIT });
    expect([plain.status, plain.headers['access-control-allow-origin']]).toEqual([200, undefined]);
    expect(JSON.parse(plain.text).result.serverInfo.name).toBe('igdata-sandbox');
    // A page of this machine (a browser MCP client on localhost): served, its origin named back.
    const local = await request(`${sb.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, origin: 'http://localhost:6274' },
      body: INIT,
    });
    expect([local.status, local.headers['access-control-allow-origin']]).toEqual([200, 'http://localhost:6274']);
    const bad = await request(`${sb.url}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: '{not json' });
    expect([bad.status, JSON.parse(bad.text).error.code]).toEqual([400, -32700]);
  });

  // Each route with the most it takes: 0 where the handler reads no body.
  const ROUTES: [string, string, number][] = [
    ['POST', '/_sandbox/keys?balance=50', 0],
    ['POST', '/_sandbox/accounts', 100_000],
    ['POST', '/_sandbox/faults', 100_000],
    ['POST', '/mcp', 1_000_000],
    ['GET', '/v1/profile?handle=nasa', 0],
    ['POST', '/v1/profile?handle=nasa', 0],
    ['GET', '/openapi.json', 0],
    ['POST', '/no/such/route', 0],
  ];

  test('a 200 MB body to any route is refused at its limit (413, connection closed), announced or in chunks, with the memory flat', async () => {
    const pid = sb.child.pid!;
    const send = (method: string, path: string, total: number, announce: boolean) =>
      sendWatching(pid, `${sb.url}${path}`, {
        method,
        total,
        announce,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      });
    // Each route once past its limit first, so what a first request sets up (the MCP SDK, the
    // OpenAPI document) is not counted as the body's.
    for (const [method, path, limit] of ROUTES)
      expect((await send(method, path, limit + 64 * 1024, false)).status).toBe(413);
    for (const [method, path, limit] of ROUTES) {
      for (const announce of [true, false]) {
        const r = await send(method, path, 200 * MB, announce);
        const what = `${method} ${path} ${announce ? 'Content-Length' : 'chunked'}`;
        expect([what, r.status, r.error]).toEqual([what, 413, undefined]);
        const error = JSON.parse(r.body).error; // the API's error, or JSON-RPC's on /mcp
        expect(error.code).toBe(path === '/mcp' ? -32000 : 'body_too_large');
        expect(error.message).toContain(limit ? `at most ${limit.toLocaleString('en-US')} bytes` : 'takes no body');
        // Refused where the limit is, not after reading on: what the client wrote before the
        // answer is the limit plus what the sockets' buffers hold, far from 200 MB.
        expect([what, r.sent < 32 * MB]).toEqual([what, true]);
        expect([what, r.rssGrowth < 20 * MB, `${(r.rssGrowth / MB).toFixed(1)} MB`]).toEqual([
          what,
          true,
          expect.any(String),
        ]);
      }
    }
    // Still serving, on a new connection.
    expect((await request(`${sb.url}/health`)).status).toBe(200);
  }, 120_000);

  test('within its limit a body is read whole (an account of 60 KB), a body-less POST still works', async () => {
    const biography = 'b'.repeat(60_000);
    const r = await request(`${sb.url}/_sandbox/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'gate_sized_account', biography }),
    });
    expect(r.status).toBe(200);
    const profile = await request(`${sb.url}/v1/profile?handle=gate_sized_account`, {
      headers: { 'x-api-key': DEMO_KEY },
    });
    expect(JSON.parse(profile.text).data.biography).toBe(biography);
  });
});

const otherAddress = () =>
  Object.values(networkInterfaces())
    .flat()
    .find((a) => a && !a.internal && a.family === 'IPv4')?.address;
const connects = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const req = http.get({ host, port, path: '/health', agent: false, timeout: 5000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });

test('HOST=0.0.0.0 without IGDATA_LISTEN: the sandbox listens on 127.0.0.1 only, and its banner says so', async () => {
  const sb = await start({ HOST: '0.0.0.0' });
  try {
    const banner = sb.output();
    expect(banner).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(banner).toContain('HOST=0.0.0.0 is not read');
    expect(banner).not.toContain('WARNING');
    expect(listeningAddresses(sb.port)).toEqual(['127.0.0.1']);
    const other = otherAddress();
    if (other) expect(await connects(other, sb.port)).toBe(false);
    expect(await connects('127.0.0.1', sb.port)).toBe(true);
  } finally {
    await sb.close();
  }
});

test('IGDATA_LISTEN=0.0.0.0,sandbox.test: every interface, with a warning; the name it lists is served, others refused', async () => {
  const sb = await start({ IGDATA_LISTEN: '0.0.0.0,sandbox.test' });
  try {
    await new Promise((r) => setTimeout(r, 100)); // the warning is written to stderr right after the banner
    const out = sb.output();
    expect(out).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ and every other address of this machine/);
    expect(out).toMatch(
      /WARNING: IGDATA_LISTEN=0\.0\.0\.0,sandbox\.test: the sandbox listens on every network interface/,
    );
    expect(listeningAddresses(sb.port)).toEqual(['0.0.0.0']);
    const named = await request(`${sb.url}/v1/profile?handle=nasa`, {
      headers: { host: `sandbox.test:${sb.port}`, 'x-api-key': DEMO_KEY },
    });
    expect(named.status).toBe(200);
    // Media links follow the name the client used.
    expect(JSON.parse(named.text).data.profile_pic_url).toMatch(/^http:\/\/sandbox\.test:\d+\/media\//);
    expect((await request(`${sb.url}/health`, { headers: { host: 'evil.example' } })).status).toBe(403);
    const other = otherAddress();
    if (other) {
      const viaLan = await request(`http://${other}:${sb.port}/health`);
      expect(viaLan.status).toBe(200); // this machine's own address, as listened on
    }
  } finally {
    await sb.close();
  }
});

test('IGDATA_LISTEN that is not an address and names: the sandbox does not start, and says what is expected', async () => {
  await expect(start({ IGDATA_LISTEN: 'sandbox' })).rejects.toThrow(
    /IGDATA_LISTEN starts with the address to listen on/,
  );
  expect(() => listenOf('0.0.0.0,bad name/')).toThrow(/"bad" is not|"name\/" is not/);
  expect(listenOf(undefined)).toEqual({ address: '127.0.0.1', names: [] });
  expect(listenOf(' [::1] , Sandbox.Test ')).toEqual({ address: '::1', names: ['sandbox.test'] });
});
