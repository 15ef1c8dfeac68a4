/**
 * HTTP servers for stand-in tests, run OFF the test's thread: UrlFetchApp blocks the thread that
 * calls it, so a server on that same thread could never answer.
 *
 * - startServerInWorker({ file | source }): a worker thread whose code starts a server and posts
 *   `{ type: 'listening', port }` to parentPort (see ECHO_SERVER_SOURCE for an example).
 * - startEchoServer(): the built-in echo/test server (routes below), in a worker.
 * - spawnServer(cmd, args, { env, portPattern }): a child process whose output announces its port
 *   (default: the first `http://host:PORT` it prints), e.g. the API sandbox:
 *     const sb = await spawnServer(process.execPath, ['scripts/sandbox.mjs'], { env: { PORT: '0' } });
 */
import { spawn, ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startServerInWorker(opts: {
  file?: string;
  source?: string;
  workerData?: unknown;
  timeoutMs?: number;
}): Promise<RunningServer> {
  if (!opts.file === !opts.source) throw new Error('startServerInWorker: give exactly one of file, source');
  const worker = opts.source
    ? new Worker(opts.source, { eval: true, workerData: opts.workerData })
    : new Worker(opts.file as string, { workerData: opts.workerData });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('server worker did not report a port in time')),
      opts.timeoutMs ?? 10_000,
    );
    worker.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    worker.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type === 'listening' && typeof m.port === 'number') {
        clearTimeout(timer);
        resolve(m.port);
      }
    });
  });
  worker.unref();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await worker.terminate();
    },
  };
}

export async function spawnServer(
  cmd: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; portPattern?: RegExp; timeoutMs?: number } = {},
): Promise<RunningServer & { child: ChildProcess; output: () => string }> {
  const child = spawn(cmd, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const pattern = opts.portPattern ?? /https?:\/\/[^\s/:]+:(\d{2,5})/;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not announce a port in time; output:\n${output}`)),
      opts.timeoutMs ?? 15_000,
    );
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = pattern.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before announcing a port; output:\n${output}`));
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Statistics the echo server keeps (GET /__stats). */
export interface EchoStats {
  total: number;
  inFlight: number;
  maxInFlight: number;
  paths: string[];
}

/**
 * Echo/test server routes:
 *   /echo                 -> 200 JSON { method, path, headers (raw pairs), body }
 *   /status/<code>?body=  -> that status, body given or a long JSON error that repeats the query
 *   /slow?ms=N            -> waits N ms, 200 JSON { ok: true, ms }
 *   /redirect?to=/echo    -> 302 to `to`
 *   /headers              -> mixed-case headers, two Set-Cookie
 *   /gzip                 -> gzip-encoded JSON
 *   /__stats, /__reset    -> EchoStats / reset it
 */
export const ECHO_SERVER_SOURCE = String.raw`
const http = require('node:http');
const zlib = require('node:zlib');
const { parentPort } = require('node:worker_threads');
let stats = { total: 0, inFlight: 0, maxInFlight: 0, paths: [] };
const server = http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  if (u.pathname === '/__stats') { res.setHeader('Content-Type', 'application/json'); return res.end(JSON.stringify(stats)); }
  if (u.pathname === '/__reset') { stats = { total: 0, inFlight: 0, maxInFlight: 0, paths: [] }; return res.end('ok'); }
  stats.total++; stats.inFlight++; stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight); stats.paths.push(req.url);
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const finish = (status, headers, text) => { stats.inFlight--; res.writeHead(status, headers); res.end(text); };
    const json = (status, obj, extra) => finish(status, Object.assign({ 'Content-Type': 'application/json; charset=utf-8' }, extra || {}), JSON.stringify(obj));
    if (u.pathname === '/echo') {
      const headers = []; for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
      return json(200, { method: req.method, path: req.url, headers, body });
    }
    const st = /^\/status\/(\d{3})$/.exec(u.pathname);
    if (st) {
      const text = u.searchParams.has('body') ? u.searchParams.get('body') : JSON.stringify({ error: { code: 'status_' + st[1], message: 'The server answered ' + st[1] + ' to ' + req.url + ' '.repeat(20) + 'padding padding padding padding' } });
      return finish(Number(st[1]), { 'Content-Type': 'application/json' }, text);
    }
    if (u.pathname === '/slow') { const ms = Number(u.searchParams.get('ms') || 100); return setTimeout(() => json(200, { ok: true, ms, path: req.url }), ms); }
    if (u.pathname === '/redirect') return finish(302, { Location: u.searchParams.get('to') || '/echo' }, '');
    if (u.pathname === '/headers') {
      stats.inFlight--;
      res.setHeader('Content-Type', 'text/plain');
      res.setHeader('X-Request-Id', 'req-123');
      res.setHeader('X-RateLimit-Remaining', '42');
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      return res.end('headers');
    }
    if (u.pathname === '/gzip') return finish(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, zlib.gzipSync(JSON.stringify({ zipped: true })));
    return json(404, { error: { code: 'not_found', message: 'no route ' + u.pathname } });
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
`;

export async function startEchoServer(): Promise<
  RunningServer & { stats(): Promise<EchoStats>; reset(): Promise<void> }
> {
  const s = await startServerInWorker({ source: ECHO_SERVER_SOURCE });
  return {
    ...s,
    stats: async () => (await (await fetch(`${s.url}/__stats`)).json()) as EchoStats,
    reset: async () => {
      await fetch(`${s.url}/__reset`);
    },
  };
}
