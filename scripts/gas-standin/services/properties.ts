/**
 * PropertiesService with Apps Script's limits: 9 KB per value ("Argument too large: value"),
 * 500 KB per store (keys + values; "You have exceeded the property storage quota. Please remove
 * some properties and try again."). User properties are per user; in a custom function
 * getUserProperties() reads the spreadsheet owner's store, read-only.
 */
import { QUOTA_MESSAGES } from '../internal/quota';
import type { Host } from '../internal/types';
import type { Realm } from '../internal/realm';

const QUOTA_MESSAGE = 'You have exceeded the property storage quota. Please remove some properties and try again.';

/** One property store. Tests may read and seed it directly. */
export class PropertyStore {
  private readonly map = new Map<string, string>();
  constructor(readonly name: string) {}

  get(key: string): string | null {
    return this.map.has(key) ? (this.map.get(key) as string) : null;
  }

  /** Seeds a value without limits or permission checks (test set-up). */
  set(key: string, value: string): void {
    this.map.set(key, value);
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  keys(): string[] {
    return [...this.map.keys()];
  }

  toObject(): Record<string, string> {
    return Object.fromEntries(this.map);
  }

  clear(): void {
    this.map.clear();
  }

  /** Bytes used: UTF-8 of keys plus values. */
  bytes(): number {
    let n = 0;
    for (const [k, v] of this.map) n += Buffer.byteLength(k) + Buffer.byteLength(v);
    return n;
  }
}

export class PropertyStores {
  readonly document = new PropertyStore('document');
  readonly script = new PropertyStore('script');
  private readonly users = new Map<string, PropertyStore>();

  user(email: string): PropertyStore {
    let s = this.users.get(email);
    if (!s) this.users.set(email, (s = new PropertyStore(`user:${email}`)));
    return s;
  }

  all(): PropertyStore[] {
    return [this.document, this.script, ...this.users.values()];
  }
}

export function createPropertiesService(host: Host, realm: Realm, stores: PropertyStores) {
  const fail = (m: string): never => {
    throw realm.exception(m);
  };

  /** One read or write of the day's quota (each call counts, getProperties as one: Google does not say otherwise). */
  const spend = () => {
    if (!host.quotas.properties.take(host.clock.now(), 1)) fail(QUOTA_MESSAGES.properties);
  };

  function properties(store: () => PropertyStore) {
    const read = (what: string) => {
      host.ensure('properties.read', what, realm);
      host.checkDeadline(realm);
      host.stats.propertyReads++;
      spend();
      return store();
    };
    const write = (what: string) => {
      host.ensure('properties.write', what, realm);
      host.checkDeadline(realm);
      host.stats.propertyWrites++;
      spend();
      return store();
    };
    const checkValue = (v: string) => {
      if (Buffer.byteLength(v, 'utf8') > host.limits.propertyValueMaxBytes) fail('Argument too large: value');
    };
    const checkTotal = (s: PropertyStore, changes: Map<string, string>, dropOthers: boolean) => {
      let total = 0;
      if (!dropOthers)
        for (const k of s.keys())
          if (!changes.has(k)) total += Buffer.byteLength(k) + Buffer.byteLength(s.get(k) as string);
      for (const [k, v] of changes) total += Buffer.byteLength(k) + Buffer.byteLength(v);
      if (total > host.limits.propertyStoreMaxBytes) fail(QUOTA_MESSAGE);
    };

    const self = {
      getProperty(key: unknown): string | null {
        return read('getProperty').get(String(key));
      },
      getProperties(): Record<string, string> {
        return realm.object(Object.entries(read('getProperties').toObject()));
      },
      getKeys(): string[] {
        return realm.array(read('getKeys').keys());
      },
      setProperty(key: unknown, value: unknown) {
        if (key === undefined || key === null) fail('Invalid argument: key');
        const s = write('setProperty');
        const k = String(key);
        const v = String(value);
        checkValue(v);
        checkTotal(s, new Map([[k, v]]), false);
        s.set(k, v);
        return self;
      },
      setProperties(props: unknown, deleteAllOthers?: unknown) {
        if (props === null || typeof props !== 'object') fail('Invalid argument: properties');
        const s = write('setProperties');
        const changes = new Map<string, string>();
        for (const k of Object.keys(props as object)) {
          const v = String((props as Record<string, unknown>)[k]);
          checkValue(v);
          changes.set(k, v);
        }
        checkTotal(s, changes, Boolean(deleteAllOthers));
        if (deleteAllOthers) s.clear();
        for (const [k, v] of changes) s.set(k, v);
        return self;
      },
      deleteProperty(key: unknown) {
        write('deleteProperty').delete(String(key));
        return self;
      },
      deleteAllProperties() {
        write('deleteAllProperties').clear();
        return self;
      },
      toString: () => 'Properties',
    };
    return self;
  }

  // Google's authorization page: a custom function runs as an anonymous user; which user store it reads there is not
  // documented. Here: the owner's, read-only, and every such read is counted (stats.customUserPropertyReads).
  const userEmail = () => {
    const exec = host.current();
    if (exec.kind !== 'custom') return exec.user;
    host.stats.customUserPropertyReads++;
    return host.owner;
  };

  return {
    getDocumentProperties: () => properties(() => stores.document),
    getScriptProperties: () => properties(() => stores.script),
    getUserProperties: () => properties(() => stores.user(userEmail())),
    toString: () => 'PropertiesService',
  };
}
