/**
 * The Sheets preview's border (scripts/sheets-preview/server.mjs behind scripts/lib/gate.ts, the
 * sandbox's gate), over real HTTP to the preview in its own process: a request addressed to
 * another name, a page of another site POSTing to it, 200 MB bodies to its routes (refused at
 * 1 MB or at 0, its memory flat), where it listens. Needs `npm run build` (dist/border.mjs, the
 * add-on). None of these requests gets to the add-on, so the sandbox it is pointed at is not started.
 */
import * as http from 'node:http';
import path from 'node:path';
import { spawnServer } from '../../scripts/gas-standin/testServer';
import { listeningAddresses, sendWatching } from '../support/border-probes';
import { ROOT } from './harness';

const MB = 1 << 20;
const start = (env: Record<string, string> = {}) =>
  spawnServer(process.execPath, [path.join(ROOT, 'scripts/sheets-preview/server.mjs')], {
    env: {
      // Never reached: every request here stops at the border or stays in the preview.
      SANDBOX_URL: 'http://127.0.0.1:9',
      IGDATA_API_KEY: 'sk_test_preview_gate',
      SHEETS_PREVIEW_PORT: '0',
      IGDATA_CLOCK_START: '2026-11-25T10:00:00Z',
      IGDATA_LISTEN: '',
      HOST: '',
      ...env,
    },
    portPattern: /sheets-preview listening on http:\/\/[\d.]+:(\d+)/,
    timeoutMs: 60_000,
  });
type Preview = Awaited<ReturnType<typeof start>>;

function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let json: unknown = text;
        try {
          json = JSON.parse(text);
        } catch {
          // the page, a script
        }
        resolve({ status: res.statusCode!, headers: res.headers, json });
      });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('the preview on 127.0.0.1', () => {
  let preview: Preview;
  beforeAll(async () => {
    preview = await start({ HOST: '0.0.0.0' });
  }, 90_000);
  afterAll(() => preview?.close());

  test('HOST=0.0.0.0 is not read: it listens on 127.0.0.1 only', () => {
    expect(preview.output()).toMatch(/sheets-preview listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(listeningAddresses(preview.port)).toEqual(['127.0.0.1']);
  });

  test('a request addressed to another name (Host: evil.example) is refused; localhost is served', async () => {
    for (const [method, p] of [
      ['GET', '/'],
      ['GET', '/grid'],
      ['POST', '/run'],
    ]) {
      const r = await request(`${preview.url}${p}`, {
        method,
        headers: { host: 'evil.example', 'content-type': 'application/json' },
        body: method === 'POST' ? '{"fn":"getSettings"}' : undefined,
      });
      expect([p, r.status, r.headers.connection]).toEqual([p, 403, 'close']);
      expect(r.json.error.message).toContain('"evil.example"');
    }
    const page = await request(`${preview.url}/`, { headers: { host: `localhost:${preview.port}` } });
    expect(page.status).toBe(200);
  });

  test('a page of another site may not POST (not even text/plain, which needs no preflight); its own page may', async () => {
    for (const origin of ['http://evil.example', 'null']) {
      const r = await request(`${preview.url}/select`, {
        method: 'POST',
        headers: { origin, 'content-type': 'text/plain' },
        body: '{"a1":"B2"}',
      });
      expect([origin, r.status]).toEqual([origin, 403]);
      expect(r.json.error.message).toContain('may not send POST /select');
    }
    const own = await request(`${preview.url}/select`, {
      method: 'POST',
      headers: { origin: preview.url, 'content-type': 'application/json' },
      body: '{"a1":"B2"}',
    });
    expect([own.status, own.json]).toEqual([200, { ok: true }]);
  });

  test('a 200 MB body to any route is refused at its limit (413, connection closed), with the memory flat', async () => {
    const pid = preview.child.pid!;
    const routes: [string, string, number][] = [
      ['POST', '/cell', 1_000_000],
      ['POST', '/paste', 1_000_000],
      ['POST', '/run', 1_000_000],
      ['GET', '/', 0],
      ['POST', '/no-such-route', 0],
    ];
    const send = (method: string, p: string, total: number, announce: boolean) =>
      sendWatching(pid, `${preview.url}${p}`, {
        method,
        total,
        announce,
        headers: { 'content-type': 'application/json' },
      });
    for (const [method, p, limit] of routes) expect((await send(method, p, limit + 64 * 1024, false)).status).toBe(413);
    for (const [method, p, limit] of routes) {
      for (const announce of [true, false]) {
        const r = await send(method, p, 200 * MB, announce);
        const what = `${method} ${p} ${announce ? 'Content-Length' : 'chunked'}`;
        expect([what, r.status, r.error]).toEqual([what, 413, undefined]);
        expect(JSON.parse(r.body).error.message).toContain(
          limit ? `at most ${limit.toLocaleString('en-US')} bytes` : 'takes no body',
        );
        expect([what, r.sent < 32 * MB]).toEqual([what, true]);
        expect([what, r.rssGrowth < 20 * MB, `${(r.rssGrowth / MB).toFixed(1)} MB`]).toEqual([
          what,
          true,
          expect.any(String),
        ]);
      }
    }
    expect((await request(`${preview.url}/grid`)).status).toBe(200);
  }, 120_000);
});

test('IGDATA_LISTEN that is not an address: the preview does not start, and says what is expected', async () => {
  await expect(start({ IGDATA_LISTEN: 'preview.local' })).rejects.toThrow(
    /IGDATA_LISTEN starts with the address to listen on/,
  );
});
