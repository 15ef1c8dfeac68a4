/**
 * The border of the local servers (the sandbox, the Sheets preview): the one place that decides
 * what crosses, before any route sees a request.
 *
 * - `Host` must name this machine as the server listens (scripts/lib/listen.ts: 127.0.0.1,
 *   localhost, ::1, the address listened on, the names IGDATA_LISTEN lists). A web page can point a
 *   name of its own at 127.0.0.1 (DNS rebinding) and then talk to the server as a page of that
 *   name; its requests still say `Host: <its name>`, which is refused here.
 * - A page of another site may not change state: a request with any method but GET, HEAD and
 *   OPTIONS, or any request to a route the server names (the MCP endpoint), whose `Origin` is not
 *   one of those names (any port), or `null`, is refused. A plain `<form>` or a `text/plain` fetch
 *   needs no CORS preflight, so CORS alone does not stop it. Clients that are not browsers send no
 *   `Origin` and are not refused for it.
 * - A body is refused past its route's limit (0 unless the server says otherwise): up front by
 *   `Content-Length`, while it streams in by readBody, and a body no route read is not drained for
 *   the next request: its connection is closed.
 * Refusals are 403 and 413 with `Connection: close`, in the server's own error shape; a route
 * answers nothing more once `res.headersSent` (a body refused while it was being read).
 */
import type * as http from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { answersTo, hostKey, isWildcard, type Listen, LISTEN_ENV } from './listen';

export interface Rules {
  /** Bytes of body `method path` takes; 0, a route that reads none, unless said. */
  bodyLimit?(method: string, path: string): number;
  /** Routes no page of another site may call whatever the method (beyond every method but GET, HEAD, OPTIONS). */
  crossSiteRefused?(method: string, path: string): boolean;
  /** A refusal in the server's own error shape. */
  refusal?(path: string, status: number, code: string, message: string): { type: string; body: string };
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
type Refuse = (status: number, code: string, message: string) => void;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** What the gate let through, for readBody: the route's limit and how to refuse. */
const admitted = new WeakMap<http.IncomingMessage, { limit: number; what: string; refuse: Refuse }>();

const ownAddresses = () =>
  new Set(
    Object.values(networkInterfaces())
      .flat()
      .map((a) => a?.address.toLowerCase()),
  );

/** Whether a host name (hostKey form) names this server as it listens. */
function namesUs(listen: Listen): (key: string) => boolean {
  const fixed = new Set(['localhost', '127.0.0.1', '::1', hostKey(listen.address), ...listen.names]);
  return (key) => fixed.has(key) || (isWildcard(listen.address) && isIP(key) !== 0 && ownAddresses().has(key));
}

/** The host name of a `Host` header (host, host:port, [v6]:port), in hostKey form. */
function hostOfHeader(header: string | undefined): string | undefined {
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d{1,5})?$/.exec((header ?? '').trim());
  return m ? hostKey(m[1]) : undefined;
}

function originHost(origin: string): string | undefined {
  try {
    const u = new URL(origin);
    return u.protocol === 'http:' || u.protocol === 'https:' ? hostKey(u.hostname) : undefined;
  } catch {
    return undefined;
  }
}

const quoted = (s: string) => JSON.stringify(s.length > 100 ? `${s.slice(0, 100)}...` : s);
const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;

/** How long a refused connection waits for its client to close it after the answer. */
const LINGER_MS = 2000;

/**
 * The refusal's answer, then the connection closed in stages (RFC 9112 section 9.6, "Tear-down"):
 * the answer written, the sending side closed, nothing more read, and the connection ended when
 * the client closes it or LINGER_MS later. Not res.end(): Node would then either read the rest of
 * the body (to keep the connection) or, with `Connection: close`, close at once, and a close with
 * unread data is a reset, which reaches a client still writing its body before the answer does.
 * The answer is whole (its Content-Length); `res.headersSent` tells the route it was answered.
 */
function lingeringClose(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
  const socket = req.socket;
  req.pause();
  res.write(body);
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Serves `handler` on `server` behind the gate: only requests it admits reach the handler. */
export function guard(server: http.Server, listen: Listen, rules: Rules, handler: Handler): void {
  const isUs = namesUs(listen);
  const admit = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const method = req.method ?? 'GET';
    let path = '/';
    try {
      path = new URL(req.url ?? '/', 'http://gate').pathname;
    } catch {
      // the server answers a URL it cannot read itself
    }
    const what = `${method} ${path}`;
    const refuse: Refuse = (status, code, message) => {
      if (res.headersSent) return void res.destroy();
      const r = rules.refusal?.(path, status, code, message) ?? { type: 'text/plain; charset=utf-8', body: message };
      res.writeHead(status, {
        'content-type': r.type,
        'content-length': String(Buffer.byteLength(r.body)),
        'cache-control': 'no-store',
        connection: 'close',
      });
      lingeringClose(req, res, r.body);
    };
    // A body the route did not read is not read: Node would otherwise drain it whole to keep the
    // connection for the next request. The connection closes instead.
    res.once('finish', () => {
      if (!req.complete) req.socket.destroy();
    });

    const host = hostOfHeader(req.headers.host);
    if (!host || !isUs(host)) {
      refuse(
        403,
        'host_not_allowed',
        `This server answers requests addressed to ${answersTo(listen)}; this one was addressed to ${quoted(req.headers.host ?? '')}. ` +
          `Other names are refused: a web page can point a name of its own at this machine (DNS rebinding). ` +
          `To call the server by another name (a container network's), list it in ${LISTEN_ENV}, e.g. ${LISTEN_ENV}=${listen.address},sandbox`,
      );
      return false;
    }
    const origin = req.headers.origin;
    const guarded = !SAFE_METHODS.has(method) || !!rules.crossSiteRefused?.(method, path);
    if (guarded && origin !== undefined) {
      const from = originHost(origin);
      if (!from || !isUs(from)) {
        refuse(
          403,
          'cross_site_refused',
          `A page of another site (Origin ${quoted(origin)}) may not send ${what} here; pages of ${answersTo(listen)} may. ` +
            `Clients that are not browsers send no Origin and are not refused for it.`,
        );
        return false;
      }
    }
    const limit = rules.bodyLimit?.(method, path) ?? 0;
    const announced = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    const streamed = req.headers['transfer-encoding'] !== undefined;
    if ((announced !== undefined && !(announced <= limit)) || (limit === 0 && streamed && announced === undefined)) {
      refuse(
        413,
        'body_too_large',
        limit === 0
          ? `${what} takes no body; this one ${announced ? `announced ${bytes(announced)}` : 'came in chunks'}. The connection is closed.`
          : `${what} takes a body of at most ${bytes(limit)}; this one announced ${bytes(announced ?? 0)}. The connection is closed.`,
      );
      return false;
    }
    admitted.set(req, { limit, what, refuse });
    return true;
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (admit(req, res)) handler(req, res);
  });
  // `Expect: 100-continue`: the client waits for the gate's word before it sends the body.
  server.on('checkContinue', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!admit(req, res)) return;
    res.writeContinue();
    handler(req, res);
  });
}

/**
 * The request's body as text, read up to its route's limit (guard's rules): past it the gate
 * answers 413, the connection closes, nothing more is read, and this rejects.
 */
export function readBody(req: http.IncomingMessage): Promise<string> {
  const gate = admitted.get(req);
  const limit = gate?.limit ?? 0;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      const message = `${gate?.what ?? 'This route'} takes a body of at most ${bytes(limit)}; this one went past it. The connection is closed.`;
      if (gate) gate.refuse(413, 'body_too_large', message);
      else req.socket.destroy();
      reject(new Error(message));
    };
    const onEnd = () => resolve(Buffer.concat(chunks).toString('utf8'));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
    // A client gone before the end of its body: settled, not left waiting (after 'end' this is a no-op).
    req.once('close', () => reject(new Error('The client closed the connection before the end of its body.')));
  });
}
