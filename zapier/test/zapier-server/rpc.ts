/**
 * Zapier's side of a step's RPC and logs, as zapier-platform-core 19.1.0 talks to them
 * (src/tools/create-rpc-client.js, create-cache.js, create-logger.js): a POST of
 * `{id, storeKey, method, params}` with the invocation's token in `X-Token`, answered
 * `{id, result}` or `{id, error}`; the log lines streamed as NDJSON to LOGGING_ENDPOINT.
 *
 * z.cache as Zapier's runtime keeps it: `zcache_get(key, scope)`, `zcache_set(key, value, ttl,
 * scope, nx)`, `zcache_delete(key, scope)`, the value a JSON string. With no scope (or []) one key
 * space for the whole integration; `['auth']` one per connection (the invocation's connection,
 * which keeps its identity when the user edits its fields); `['user']` one per user; both: one per
 * connection of that user. A TTL (seconds) is read on the test clock; `nx` sets only a key absent
 * (or expired) and answers false otherwise.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Who a step runs for: Zapier knows it from the invocation, the step from its bundle. */
export interface Invocation {
  connection: string;
  user: string;
}

interface Entry {
  value: string;
  expiresAt?: number;
}

export interface ZapierServer {
  url: string;
  rpcUrl: string;
  logUrl: string;
  /** A token for one step's run, standing for the connection and user it runs for. */
  tokenFor(who: Invocation): string;
  /** Every z.cache key asked for and every value set, as sent (what must never hold an API key). */
  cacheTraffic: string[];
  /** Every log line received (message and data as JSON). */
  logLines: string[];
  /** The largest value set, in bytes. */
  largestValue: () => number;
  calls: Record<string, number>;
  close(): Promise<void>;
}

/** The key space a scope names, for the invocation. */
function spaceOf(scope: unknown, who: Invocation): string {
  const s = Array.isArray(scope) ? new Set(scope) : new Set();
  const parts = ['integration'];
  if (s.has('user')) parts.push(`user:${who.user}`);
  if (s.has('auth')) parts.push(`auth:${who.connection}`);
  return parts.join('/');
}

export async function startZapierServer(now: () => number = Date.now): Promise<ZapierServer> {
  const store = new Map<string, Entry>();
  const tokens = new Map<string, Invocation>();
  const cacheTraffic: string[] = [];
  const logLines: string[] = [];
  const calls: Record<string, number> = {};
  let largest = 0;
  let tokenCount = 0;

  const live = (k: string): Entry | undefined => {
    const e = store.get(k);
    if (e && e.expiresAt !== undefined && e.expiresAt <= now()) {
      store.delete(k);
      return undefined;
    }
    return e;
  };

  function zcache(method: string, params: unknown[], who: Invocation): unknown {
    const [key, a, b, c, d] = params;
    if (typeof key !== 'string') throw new Error('key must be a string');
    cacheTraffic.push(key);
    if (method === 'zcache_get') return live(`${spaceOf(a, who)}|${key}`)?.value ?? null;
    if (method === 'zcache_delete') return store.delete(`${spaceOf(a, who)}|${key}`);
    // zcache_set: value (a JSON string), ttl, scope, nx
    const value = String(a);
    cacheTraffic.push(value);
    largest = Math.max(largest, Buffer.byteLength(value));
    const k = `${spaceOf(c, who)}|${key}`;
    if (d === true && live(k)) return false;
    store.set(k, { value, ...(typeof b === 'number' ? { expiresAt: now() + b * 1000 } : {}) });
    return true;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/log') {
        logLines.push(...body.split('\n').filter(Boolean));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const who = tokens.get(String(req.headers['x-token'] ?? ''));
      let id: unknown;
      try {
        const call = JSON.parse(body) as { id: unknown; method: string; params: unknown[] };
        id = call.id;
        if (!who) throw new Error('unknown token');
        calls[call.method] = (calls[call.method] ?? 0) + 1;
        if (!call.method.startsWith('zcache_')) throw new Error(`not modelled: ${call.method}`);
        const result = zcache(call.method, call.params, who);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, result }));
      } catch (e) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id, error: String(e) }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    rpcUrl: `${url}/rpc`,
    logUrl: `${url}/log`,
    tokenFor(who) {
      const token = `token-${++tokenCount}`;
      tokens.set(token, who);
      return token;
    },
    cacheTraffic,
    logLines,
    largestValue: () => largest,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
