/**
 * Everything the integration keeps in `z.cache` goes through here, so what one connection bought
 * stays with that connection:
 * - the scope is always `['auth']`: Zapier keeps a key space per connection (with no scope, one
 *   space serves every user and connection of the integration);
 * - the key carries a short hash of the base URL and one of the API key (sha256, never the key):
 *   a connection edited to another key or base URL starts fresh, so a sandbox's answer never
 *   reaches the same Zap once its connection points at production;
 * - then the Zap id where Zapier gives one (`bundle.meta.zap.id`, deprecated in its types and
 *   absent outside a Zap: MCP, AI Actions, the SDK's runAction), never the only separation;
 * - then what is kept (a feed's state, a search's answer), named by the request.
 * A later piece of state (an "Account Changed" trigger's last snapshot) keeps itself the same way:
 * `keptOf(z, bundle)` and a name.
 */
import { createHash } from 'node:crypto';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { DEFAULT_BASE_URL } from '@igdata/core';

/** Changes when what is kept changes shape: older entries are then never read (they expire). */
const VERSION = 'igd2';
const SCOPE = ['auth'];

/** zapier-platform-core 19.1.0's z.cache as its runtime takes it (its types leave out `scope` on get and delete). */
interface ScopedCache {
  get(key: string, scope?: string[]): Promise<unknown>;
  set(key: string, value: unknown, ttl?: number | null, scope?: string[], nx?: boolean): Promise<boolean | null>;
  delete(key: string, scope?: string[]): Promise<boolean>;
}

const short = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

/** The base URL as the client sends to it: origin and path, no trailing slash; the default when empty. */
function baseOf(bundle: Bundle): string {
  const raw = typeof bundle.authData?.baseUrl === 'string' ? bundle.authData.baseUrl.trim() : '';
  const base = raw || DEFAULT_BASE_URL;
  try {
    const url = new URL(base);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return base.replace(/\/+$/, '');
  }
}

/** The Zap the step runs in, when Zapier says (the field is deprecated: its absence is planned for). */
export function zapIdOf(bundle: Bundle): string | undefined {
  const id = (bundle.meta as { zap?: { id?: unknown } } | undefined)?.zap?.id;
  return id === undefined || id === null || id === '' ? undefined : String(id);
}

export interface Kept {
  get<T>(name: string): Promise<T | null>;
  /** Whether it was kept: false when Zapier refused it (too large, its rate limit) or `nx` found one. */
  set(name: string, value: unknown, ttlSeconds: number, nx?: boolean): Promise<boolean>;
  delete(name: string): Promise<void>;
}

/**
 * The connection's store; `perZap` false: shared by the connection's Zaps (a target gone, a feed
 * read once for every Zap of a connection that Zapier gives no Zap id).
 */
export function keptOf(z: ZObject, bundle: Bundle, perZap = true): Kept {
  const cache = z.cache as unknown as ScopedCache;
  const key = typeof bundle.authData?.apiKey === 'string' ? bundle.authData.apiKey.trim() : '';
  const zap = perZap ? zapIdOf(bundle) : undefined;
  const prefix = [
    VERSION,
    `b${short(`base:${baseOf(bundle)}`)}`,
    `k${short(`key:${key}`)}`,
    zap === undefined ? '-' : `z${encodeURIComponent(zap)}`,
  ].join(':');
  const full = (name: string) => `${prefix}:${name}`;
  return {
    async get<T>(name: string) {
      return ((await cache.get(full(name), SCOPE)) ?? null) as T | null;
    },
    async set(name, value, ttlSeconds, nx) {
      try {
        const ttl = Math.max(1, Math.ceil(ttlSeconds));
        const done = await cache.set(full(name), value, ttl, SCOPE, nx ? true : undefined);
        return nx ? done === true : done !== false;
      } catch {
        return false; // not kept (too large, Zapier's RPC failing): the next check or replay pays again
      }
    },
    async delete(name) {
      await cache.delete(full(name), SCOPE).catch(() => undefined);
    },
  };
}
