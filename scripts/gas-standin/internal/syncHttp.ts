/**
 * Synchronous real HTTP for the stand-in's UrlFetchApp.
 *
 * A worker thread does the requests (node:http/https, all requests of a batch at once); the
 * calling thread posts the batch, blocks on Atomics.wait over a SharedArrayBuffer counter and
 * picks the answer up with receiveMessageOnPort (which is synchronous). While it blocks, nothing
 * else runs on the calling thread, exactly like Apps Script.
 *
 * node:http is used rather than fetch() because Apps Script reports response header names in the
 * case the server sent them (`Content-Type`, not `content-type`); fetch() lowercases them, and a
 * test stand-in that lowercases would hide a real bug in the add-on.
 *
 * Consequence: the server being called must NOT run on the thread that calls UrlFetchApp (it could
 * not answer while that thread blocks). Run it in a worker thread or child process; see
 * scripts/gas-standin/testServer.ts. `findSameThreadServer` detects the mistake and the runtime reports it.
 */
import { MessageChannel, MessagePort, Worker, receiveMessageOnPort } from 'node:worker_threads';

export interface WireRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
  followRedirects: boolean;
  validateHttpsCertificates: boolean;
  timeoutMs: number;
}

export type WireResult =
  | {
      ok: true;
      status: number;
      rawHeaders: string[];
      body: Uint8Array;
      finalUrl: string;
      startedAt: number;
      endedAt: number;
    }
  | { ok: false; code: string; message: string; startedAt: number; endedAt: number };

interface WireReply {
  id: number;
  results: WireResult[];
  maxInFlight: number;
}

const WORKER_SOURCE = String.raw`
const { workerData } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');
const zlib = require('node:zlib');
const { port, signal } = workerData;
// An idle connection is dropped after 1 s, well before a Node server's 5 s keepAliveTimeout, so a
// request never goes out on a connection the server is closing (nothing here retries a request).
const IDLE_MS = 1000;
const httpAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity, timeout: IDLE_MS });
const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: Infinity, timeout: IDLE_MS });
let inFlight = 0;
let maxInFlight = 0;

function decode(buf, encoding) {
  try {
    switch ((encoding || '').trim().toLowerCase()) {
      case 'gzip': case 'x-gzip': return zlib.gunzipSync(buf);
      case 'deflate': return zlib.inflateSync(buf);
      case 'br': return zlib.brotliDecompressSync(buf);
      default: return buf;
    }
  } catch { return buf; }
}

function withoutBodyHeaders(headers) {
  const out = {};
  for (const k of Object.keys(headers)) {
    const l = k.toLowerCase();
    if (l !== 'content-type' && l !== 'content-length') out[k] = headers[k];
  }
  return out;
}

function one(req) {
  const startedAt = Date.now();
  inFlight++;
  if (inFlight > maxInFlight) maxInFlight = inFlight;
  return new Promise((resolve) => {
    let finished = false;
    const done = (r) => { if (!finished) { finished = true; inFlight--; resolve(Object.assign(r, { startedAt, endedAt: Date.now() })); } };
    const timer = setTimeout(() => done({ ok: false, code: 'ETIMEDOUT', message: 'timed out after ' + req.timeoutMs + ' ms' }), Math.max(1, req.timeoutMs));
    let redirects = 0;
    const go = (url, method, headers, body) => {
      let u;
      try { u = new URL(url); } catch (e) { clearTimeout(timer); return done({ ok: false, code: 'EINVALIDURL', message: String(e && e.message) }); }
      const isHttps = u.protocol === 'https:';
      const mod = isHttps ? https : http;
      const h = Object.assign({}, headers);
      if (body && body.length && !Object.keys(h).some((k) => k.toLowerCase() === 'content-length')) h['Content-Length'] = String(body.length);
      let r;
      try {
        r = mod.request(u, { method, headers: h, agent: isHttps ? httpsAgent : httpAgent, rejectUnauthorized: req.validateHttpsCertificates !== false }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('error', (e) => { clearTimeout(timer); done({ ok: false, code: e.code || 'ERR', message: String(e.message) }); });
          res.on('end', () => {
            const status = res.statusCode || 0;
            const loc = res.headers.location;
            if (req.followRedirects && [301, 302, 303, 307, 308].includes(status) && loc && redirects < 10) {
              redirects++;
              const next = new URL(loc, u).toString();
              const toGet = status === 303 || ((status === 301 || status === 302) && method !== 'GET' && method !== 'HEAD');
              return go(next, toGet ? 'GET' : method, toGet ? withoutBodyHeaders(headers) : headers, toGet ? null : body);
            }
            clearTimeout(timer);
            const buf = decode(Buffer.concat(chunks), res.headers['content-encoding']);
            done({ ok: true, status, rawHeaders: res.rawHeaders, body: new Uint8Array(buf), finalUrl: u.toString() });
          });
        });
      } catch (e) { clearTimeout(timer); return done({ ok: false, code: (e && e.code) || 'ERR', message: String(e && e.message) }); }
      r.on('error', (e) => { clearTimeout(timer); done({ ok: false, code: e.code || 'ERR', message: String(e.message) }); });
      if (body && body.length) r.end(Buffer.from(body)); else r.end();
    };
    go(req.url, req.method, req.headers, req.body);
  });
}

port.on('message', async (msg) => {
  const results = await Promise.all(msg.requests.map(one));
  port.postMessage({ id: msg.id, results, maxInFlight });
  Atomics.add(signal, 0, 1);
  Atomics.notify(signal, 0);
});
`;

export class SyncHttpClient {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private seq = 0;
  /** Most requests the thread had open at once, over its life (all runtimes sharing it). */
  maxInFlight = 0;

  /** Starts the HTTP thread (idempotent); the first request does it otherwise. */
  start(): MessagePort {
    if (this.port) return this.port;
    const { port1, port2 } = new MessageChannel();
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: port2, signal: this.signal },
      transferList: [port2],
    });
    this.worker.unref();
    port1.unref();
    this.port = port1;
    return port1;
  }

  /**
   * Sends all `requests` at once and blocks until every one has an answer, or until `waitMs`
   * passes (then returns 'timeout'; a late answer is dropped).
   */
  request(requests: WireRequest[], waitMs: number): WireResult[] | 'timeout' {
    const port = this.start();
    const id = ++this.seq;
    port.postMessage({ id, requests });
    const deadline = performance.now() + waitMs;
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      const reply = this.take(port, id);
      if (reply) return reply;
      const remaining = deadline - performance.now();
      if (remaining <= 0) return 'timeout';
      Atomics.wait(this.signal, 0, seen, Math.min(remaining, 1000));
    }
  }

  private take(port: MessagePort, id: number): WireResult[] | null {
    for (;;) {
      const m = receiveMessageOnPort(port) as { message: WireReply } | undefined;
      if (!m) return null;
      this.maxInFlight = Math.max(this.maxInFlight, m.message.maxInFlight);
      if (m.message.id === id) return m.message.results;
      // else: the answer to an earlier batch that timed out; drop it.
    }
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.port?.close();
    this.port = null;
    if (w) await w.terminate();
  }
}

/**
 * One HTTP thread for every runtime on this thread, as Apps Script's fetch service is one service
 * that outlives any execution: a runtime made after another finds its thread started and its
 * connections open (each closed after 1 s idle). The thread ends LINGER_MS after the last runtime
 * using it closes (or with the process: it does not keep it alive).
 */
const LINGER_MS = 2000;
let shared: SyncHttpClient | null = null;
let users = 0;
let lingering: ReturnType<typeof setTimeout> | null = null;

export function acquireHttpClient(): SyncHttpClient {
  users++;
  if (lingering) clearTimeout(lingering);
  lingering = null;
  return (shared ??= new SyncHttpClient());
}

export function releaseHttpClient(): void {
  users = Math.max(0, users - 1);
  if (users > 0 || !shared) return;
  const client = shared;
  lingering = setTimeout(() => {
    lingering = null;
    if (users > 0 || shared !== client) return;
    shared = null;
    void client.close();
  }, LINGER_MS);
  lingering.unref();
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0)$/i;

/**
 * True when `url` points at a loopback port that a server on *this* thread listens on: such a
 * server cannot answer while this thread blocks in UrlFetchApp.fetch (deadlock until timeout).
 */
export function findSameThreadServer(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!LOOPBACK.test(u.hostname)) return false;
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const getHandles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles;
  if (typeof getHandles !== 'function') return false;
  try {
    for (const h of getHandles.call(process)) {
      const s = h as { address?: () => unknown; listen?: unknown; listening?: boolean };
      if (typeof s?.address !== 'function' || typeof s.listen !== 'function' || s.listening === false) continue;
      const a = s.address() as { port?: number } | null;
      if (a && typeof a === 'object' && a.port === port) return true;
    }
  } catch {
    return false;
  }
  return false;
}
