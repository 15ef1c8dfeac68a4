/** HTTP helpers shared by the router, the API pipeline and the admin routes. */
import type * as http from 'node:http';
import { hash32 } from './world/random';

export function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  // headersSent: already answered (the gate refused a body while the route read it).
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

/** The presented API key: undefined if none was sent, '' if an Authorization header is not a Bearer token. */
export function keyOf(req: http.IncomingMessage): string | undefined {
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && auth.trim()) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth.trim());
    return m ? m[1] : '';
  }
  const x = req.headers['x-api-key'];
  return typeof x === 'string' ? x.trim() : undefined;
}

// host, host:port, [v6]:port; anything else (a forged Host) is not echoed into links.
const HOST = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The sandbox's base URL as this client reaches it (its Host header: 127.0.0.1, localhost, a name
 * in a container network), so that links in answers work from where the client is; `fallback`
 * (the address the sandbox listens on) when the header is missing or not a host.
 */
export function originOf(req: http.IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  return typeof host === 'string' && HOST.test(host) ? `http://${host}` : fallback;
}

/** Request ids unique to one sandbox run: a counter, salted with the seed and start time. */
export function requestIds(seed: number, startedAt: number): () => string {
  let counter = 0;
  return () =>
    `req_${(++counter).toString(36).padStart(7, '0')}${hash32(seed, startedAt, counter).toString(36).padStart(7, '0')}`;
}
