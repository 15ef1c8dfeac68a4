/** HTTP helpers shared by the router, the API pipeline and the admin routes. */
import type * as http from 'node:http';
import { hash32 } from './world/random';

export function send(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  if (res.writableEnded || res.destroyed) return;
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

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
      if (body.length > 100_000) reject(new Error('body too large'));
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** Request ids unique to one sandbox run: a counter, salted with the seed and start time. */
export function requestIds(seed: number, startedAt: number): () => string {
  let counter = 0;
  return () => `req_${(++counter).toString(36).padStart(7, '0')}${hash32(seed, startedAt, counter).toString(36).padStart(7, '0')}`;
}
