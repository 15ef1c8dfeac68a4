/**
 * CacheService with Apps Script's limits: key <= 250 chars ("Argument too large: key"), value
 * <= 100 KB ("Argument too large: value"), TTL <= 21600 s (default 600), values stored as
 * strings, about 1,000 items per cache with the oldest ~10 % evicted when full (FIFO by
 * creation time, as measured on the real service). Stores outlive script contexts.
 */
import type { Host } from '../internal/types';
import type { Realm } from '../internal/realm';

export interface CacheEntry {
  key: string;
  value: string;
  createdAt: number;
  expiresAt: number;
}

export type TtlOverMax = 'throw' | 'clamp';

/** One cache (document, script, or one user's). Tests may inspect it freely. */
export class CacheStore {
  protected readonly map = new Map<string, CacheEntry>();

  constructor(
    readonly name: string,
    private readonly host: Pick<Host, 'clock' | 'limits' | 'stats'>,
  ) {}

  private live(e: CacheEntry | undefined): e is CacheEntry {
    return e !== undefined && e.expiresAt > this.host.clock.now();
  }

  /** Live (unexpired) keys. */
  keys(): string[] {
    return [...this.map.values()].filter((e) => this.live(e)).map((e) => e.key);
  }

  /** Live entries as [key, value]. */
  entries(): [string, string][] {
    return [...this.map.values()].filter((e) => this.live(e)).map((e) => [e.key, e.value]);
  }

  /** Every stored entry, expired ones included, with timestamps. */
  dump(): CacheEntry[] {
    return [...this.map.values()].map((e) => ({ ...e }));
  }

  /** The value, or null (no stats, no limits: for tests). */
  peek(key: string): string | null {
    const e = this.map.get(key);
    return this.live(e) ? e.value : null;
  }

  get size(): number {
    return this.keys().length;
  }

  clear(): void {
    this.map.clear();
  }

  /** Stores without checks (test set-up). */
  seed(key: string, value: string, ttlSeconds = this.host.limits.cacheDefaultTtlSeconds): void {
    this.write(key, value, ttlSeconds);
  }

  read(key: string): string | null {
    const e = this.map.get(key);
    if (e === undefined) return null;
    if (!this.live(e)) {
      this.map.delete(key);
      return null;
    }
    return e.value;
  }

  write(key: string, value: string, ttlSeconds: number): void {
    const now = this.host.clock.now();
    if (this.map.has(key))
      this.map.delete(key); // re-put counts as a new creation (FIFO order)
    else if (this.map.size >= this.host.limits.cacheMaxItems) this.evict(now);
    this.map.set(key, { key, value, createdAt: now, expiresAt: now + ttlSeconds * 1000 });
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  /** getAll's read: one round trip for a shared (remote) store. */
  readMany(keys: string[]): (string | null)[] {
    return keys.map((k) => this.read(k));
  }

  /** putAll's write: one round trip for a shared (remote) store. */
  writeMany(items: [string, string][], ttlSeconds: number): void {
    for (const [k, v] of items) this.write(k, v, ttlSeconds);
  }

  private evict(now: number): void {
    for (const [k, e] of this.map) if (e.expiresAt <= now) this.map.delete(k);
    const { cacheMaxItems, cacheEvictFraction } = this.host.limits;
    if (this.map.size < cacheMaxItems) return;
    let n = Math.max(1, Math.ceil(cacheMaxItems * cacheEvictFraction));
    this.host.stats.cacheEvictions += n;
    for (const k of this.map.keys()) {
      if (n-- <= 0) break;
      this.map.delete(k);
    }
  }
}

export class CacheStores {
  readonly document: CacheStore;
  readonly script: CacheStore;
  private readonly users = new Map<string, CacheStore>();

  /** `document`: a store shared with other execution threads (concurrent/remote.ts); default: a local one. */
  constructor(
    private readonly host: Pick<Host, 'clock' | 'limits' | 'stats'>,
    document?: CacheStore,
  ) {
    this.document = document ?? new CacheStore('document', host);
    this.script = new CacheStore('script', host);
  }

  user(email: string): CacheStore {
    let s = this.users.get(email);
    if (!s) this.users.set(email, (s = new CacheStore(`user:${email}`, this.host)));
    return s;
  }

  all(): CacheStore[] {
    return [this.document, this.script, ...this.users.values()];
  }
}

export function createCacheService(host: Host, realm: Realm, stores: CacheStores, ttlOverMax: TtlOverMax) {
  const fail = (m: string): never => {
    throw realm.exception(m);
  };

  function checkKey(key: unknown): string {
    if (key === undefined || key === null) fail('Invalid argument: key');
    const k = String(key);
    if (k.length > host.limits.cacheKeyMaxChars) fail('Argument too large: key');
    return k;
  }

  function checkValue(value: unknown): string {
    const v = String(value);
    if (Buffer.byteLength(v, 'utf8') > host.limits.cacheValueMaxBytes) fail('Argument too large: value');
    return v;
  }

  function checkTtl(ttl: unknown): number {
    if (ttl === undefined || ttl === null) return host.limits.cacheDefaultTtlSeconds;
    const n = Math.floor(Number(ttl));
    if (Number.isNaN(n)) fail('Invalid argument: expirationInSeconds');
    if (n > host.limits.cacheMaxTtlSeconds) {
      if (ttlOverMax === 'throw') fail('Argument too large: expirationInSeconds');
      return host.limits.cacheMaxTtlSeconds;
    }
    return n < 1 ? host.limits.cacheDefaultTtlSeconds : n;
  }

  function cache(store: () => CacheStore) {
    const use = (what: string) => {
      host.ensure('cache', what, realm);
      host.checkDeadline(realm);
      return store();
    };
    return {
      get(key: unknown): string | null {
        const k = checkKey(key);
        const s = use('Cache.get');
        host.stats.cacheGets++;
        const v = s.read(k);
        if (v !== null) host.stats.cacheHits++;
        return v;
      },
      getAll(keys: unknown): Record<string, string> {
        if (!Array.isArray(keys)) fail('Invalid argument: keys');
        const ks = (keys as unknown[]).map(checkKey);
        const s = use('Cache.getAll');
        const out = realm.object();
        const values = s.readMany(ks);
        ks.forEach((k, i) => {
          host.stats.cacheGets++;
          const v = values[i];
          if (v !== null) {
            host.stats.cacheHits++;
            out[k] = v;
          }
        });
        return out;
      },
      put(key: unknown, value: unknown, expirationInSeconds?: unknown): void {
        const k = checkKey(key);
        const v = checkValue(value);
        const ttl = checkTtl(expirationInSeconds);
        const s = use('Cache.put');
        host.stats.cachePuts++;
        s.write(k, v, ttl);
      },
      putAll(values: unknown, expirationInSeconds?: unknown): void {
        if (values === null || typeof values !== 'object') fail('Invalid argument: values');
        const items = Object.keys(values as object).map(
          (k) => [checkKey(k), checkValue((values as Record<string, unknown>)[k])] as const,
        );
        const ttl = checkTtl(expirationInSeconds);
        const s = use('Cache.putAll');
        host.stats.cachePuts += items.length;
        s.writeMany(items as [string, string][], ttl);
      },
      remove(key: unknown): void {
        const k = checkKey(key);
        use('Cache.remove').delete(k);
      },
      removeAll(keys: unknown): void {
        if (!Array.isArray(keys)) fail('Invalid argument: keys');
        const ks = (keys as unknown[]).map(checkKey);
        const s = use('Cache.removeAll');
        for (const k of ks) s.delete(k);
      },
      toString: () => 'Cache',
    };
  }

  // In a custom function the user cache is the spreadsheet owner's (the function runs anonymously).
  const userEmail = () => {
    const exec = host.current();
    return exec.kind === 'custom' ? host.owner : exec.user;
  };

  return {
    getDocumentCache: () => cache(() => stores.document),
    getScriptCache: () => cache(() => stores.script),
    getUserCache: () => cache(() => stores.user(userEmail())),
    toString: () => 'CacheService',
  };
}
