/**
 * The engine's plain types: a stored answer and the stores it lives in (the answer store, the
 * claims between executions). The engine's bottom layer: it imports no engine module, so the
 * store (store.ts), the claims (claims.ts) and the platform interfaces (deps.ts) all name these types without
 * importing each other (`npm run lint:cycles` fails on any circle, type-only imports included).
 */

/**
 * What is stored for one request: the answer, or a billed failure (a 404, or a paid answer not in
 * the documented shape: code SCHEMA_CODE, `message` its first issue); `at`: when it was fetched.
 */
export type CachedAnswer =
  | { ok: true; data: Record<string, unknown>; next: string | null; charged: number; at: number }
  | {
      ok: false;
      status: number;
      code: string;
      message: string;
      charged: number;
      reason?: string;
      requestId?: string;
      at: number;
    };

/** Extra items (claims.ts) read or written in the same cache round trip as the answers, raw. */
export interface ExtraItems {
  keys: string[];
  out: Record<string, string>;
  /**
   * Answer keys about to be written under the same lock: their buckets are read in this getAll
   * too, not again to write.
   */
  writing?: Iterable<string>;
}

/** The store of answers the engine reads and writes (store.ts); keys come from `keyFor` (never the API key). */
export interface AnswerStore {
  /**
   * The store key of a request: `igd1:` + base64(sha256(baseUrl + request key)). The store
   * remembers which endpoint each key it made is for, so its reads apply that endpoint's own reuse
   * limit (the registry's maxReuseHours) to every answer, however old (`limitOf`).
   */
  keyFor(baseUrl: string, requestKey: string): string;
  /** The reuse limit (ms) of the endpoint a key made by `keyFor` is for; undefined: the setting alone. */
  limitOf(key: string): number | undefined;
  /** `extra` (claims.ts): raw items read in the same getAll. */
  getMany(keys: string[], extra?: ExtraItems): Map<string, CachedAnswer>;
  /**
   * Stores answers; a failure to cache never fails the caller (it is logged). `extra` items go in the same putAll, only
   * under the lock.
   */
  putMany(entries: Map<string, CachedAnswer>, extra?: Record<string, string>): void;
  /** Runs fn under the document lock (the store's short wait, none once it was busy); null when not obtained. */
  withLock<T>(fn: () => T): T | null;
}

/** The document cache and lock, as claims need them (claims.ts; made by claim-store.ts). */
export interface ClaimStore {
  now(): number;
  sleep(ms: number): void;
  /**
   * Under the document lock, one round: reads the claims and the answers of (at least) the first
   * 2 x `max` of `wanted`, writes `publish`, drops `owner`'s old claims and takes up to `max` of the
   * unanswered ones nobody holds. `others`: which of all `wanted` others hold. `full`: some could
   * not be taken (no room for more claims). null when the lock was not obtained.
   */
  round(owner: string, wanted: string[], publish: Map<string, CachedAnswer>, max: number): ClaimRound | null;
  /** Without the lock: the answers present, and which of `wanted` others hold a live claim on. */
  peek(owner: string, wanted: string[]): { answers: Map<string, CachedAnswer>; others: Set<string> };
  /** Writes answers without claims (when the lock could not be had): loose items, safe without it. */
  publishLoose(publish: Map<string, CachedAnswer>): void;
}

export interface ClaimRound {
  answers: Map<string, CachedAnswer>;
  taken: string[];
  others: Set<string>;
  full: boolean;
}
