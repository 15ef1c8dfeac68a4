/**
 * The answer store: the document cache (shared by the owner and editors of the sheet), answers
 * kept for the 6-hour maximum. An answer is identified by its key, `igd1:` + base64(sha256(baseUrl
 * + request key)): 49 characters whatever the input, never the API key. What is stored is the raw
 * `data` of the response, so different field choices share one cached request. A billed "not
 * found" is cached too, so recalculating never bills it again.
 *
 * Layout (why: CacheService holds about 1,000 items and evicts the oldest 10 % beyond that, so one
 * item per answer lost answers, and re-billed them, as soon as a sheet had ~1,000 cached answers):
 * - Answers are packed in BUCKETS (128) bucket items `igd1:b:<n>`, n = FNV-1a(answer key) mod 128.
 *   A bucket is a JSON object {answer key without `igd1:`: [expiresAt ms, outcome]} of at most
 *   BUCKET_MAX_BYTES (90 KB, under the 100 KB value limit). Each answer keeps its own expiry
 *   (6 h after it was written), checked on read, so rewriting a bucket never extends an answer.
 *   1,600 profile/engagement answers take ~500 KB: 128 items instead of 1,600, and 128 x 90 KB
 *   holds 20,000+ of them, leaving most of the 1,000 items for the rest. A 1,000-row lookup
 *   reads all buckets in one getAll (a few hundred KB to parse).
 * - "Loose" answers keep the old one-item-per-answer layout under their own key (values over
 *   32,000 chars split in chunks `<key>.<id>.<n>`): answers that do not fit their bucket (the
 *   biggest new ones spill first) and every answer written when the lock below was not obtained.
 *   Loose keys are derived from the answer key, so no pointer is needed: a read asks for the
 *   buckets and the loose keys in one getAll, then for chunks in a second. If both hold an answer,
 *   the newer (`at`, the time it was fetched) wins.
 * - Concurrency: several formulas recalculate at once in separate executions, and a bucket's
 *   read-modify-write could drop another execution's answers. Bucket writes happen only under
 *   LockService.getDocumentLock() (tryLock of LOCK_WAIT_MS; an execution that failed once only
 *   tries without waiting afterwards); without the lock, answers are written loose, which needs
 *   no lock and is never overwritten by a bucket write. Bulk steps already hold the document lock
 *   (underDocumentLock), so their writes go to buckets without re-locking.
 * - Anything missing, expired, evicted or unreadable (a bucket, a loose item, one chunk) is a
 *   miss, never a wrong or partial answer.
 */
import type { KeyValueCache, TryLock } from './deps';
import { groupBy } from './group';
import { jsonEntries, readJson } from './json';
import type { AnswerStore, CachedAnswer, ExtraItems } from './types';
import { limitOfRequest, reusable } from './reuse';
import { fnv1a, member, utf8Bytes } from './text-bytes';

const CACHE_PREFIX = 'igd1:';
/** CacheService's maximum TTL (6 hours). */
const CACHE_TTL_SECONDS = 21600;
/** Characters per chunk: 3 bytes per UTF-16 unit at most, so <= 96,000 bytes < 100 KB. */
const CHUNK_CHARS = 32000;
const CHUNKED = '\u0001chunks:';
/** Number of bucket items answers are packed into. */
const BUCKETS = 128;
const BUCKET_PREFIX = `${CACHE_PREFIX}b:`;
/** The answer's name inside its bucket (and in the kept answers' sheet). */
export const nameOf = (key: string): string => (key.startsWith(CACHE_PREFIX) ? key.slice(CACHE_PREFIX.length) : key);
/** A bucket's value stays under this many UTF-8 bytes (CacheService's limit is 100 KB). */
export const BUCKET_MAX_BYTES = 90 * 1024;
/** How long a write waits for the document lock before writing its answers loose. */
const LOCK_WAIT_MS = 500;

/** The bucket item an answer key belongs to (FNV-1a: any string works, not only our digests). */
export function bucketOf(key: string): string {
  return BUCKET_PREFIX + (fnv1a(key) % BUCKETS);
}

const isOutcome = (v: unknown): v is CachedAnswer =>
  v !== null && typeof v === 'object' && typeof (v as CachedAnswer).ok === 'boolean';

type BucketEntry = [expiresAt: number, outcome: CachedAnswer];

/** A bucket's live, well-formed entries; an unreadable bucket is empty. */
function readBucket(text: string | undefined, now: number): Map<string, BucketEntry> {
  const out = new Map<string, BucketEntry>();
  for (const [name, e] of jsonEntries(text)) {
    if (Array.isArray(e) && e.length === 2 && typeof e[0] === 'number' && e[0] > now && isOutcome(e[1]))
      out.set(name, e as BucketEntry);
  }
  return out;
}

/** An entry as this execution wrote it into a bucket: its text and UTF-8 size. */
interface Written {
  expiresAt: number;
  at: number;
  text: string;
  bytes: number;
}

/**
 * What one execution remembers of the buckets: each as it last read or wrote it, parsed, and the
 * text of each entry it wrote. A range reads and rewrites the same buckets batch after batch: a
 * bucket whose text is unchanged is not parsed again, an entry of its own not serialized again.
 */
interface BucketMemory {
  parsed: Map<string, { text: string; entries: Map<string, BucketEntry> }>;
  written: Map<string, Written>;
  /** Each answer key's bucket (hashed once). */
  bucketOf: (key: string) => string;
  /**
   * Bucket texts read while this execution holds the lock (undefined: no such item), until its
   * next write: a write in the same section merges into them without reading them again. Null
   * outside the lock, where another execution may rewrite a bucket at any time.
   */
  held: Map<string, string | undefined> | null;
}

/** Bucket `b`'s live entries, from its text as read now. */
function bucketIn(mem: BucketMemory, b: string, text: string | undefined, now: number): Map<string, BucketEntry> {
  if (typeof text !== 'string') return new Map();
  let p = mem.parsed.get(b);
  if (p?.text !== text) mem.parsed.set(b, (p = { text, entries: readBucket(text, -Infinity) }));
  const live = new Map<string, BucketEntry>();
  for (const [name, e] of p.entries) if (e[0] > now) live.set(name, e);
  return live;
}

/**
 * Looks keys up: one getAll (buckets + loose keys, + `extra` keys), a second for chunks if any.
 * Missing or unreadable = absent.
 */
function getMany(
  c: KeyValueCache,
  mem: BucketMemory,
  keys: string[],
  now: number,
  extra: ExtraItems | undefined,
  fetchedAfter: number,
  limitOf: (key: string) => number | undefined,
): Map<string, CachedAnswer> {
  const out = new Map<string, CachedAnswer>();
  if (!keys.length && !extra) return out;
  const unique = [...new Set(keys)];
  const byBucket = groupBy(unique, mem.bucketOf);
  const extraKeys = extra?.keys ?? [];
  const toWrite = new Set(Array.from(extra?.writing ?? [], mem.bucketOf));
  const buckets = [...new Set([...byBucket.keys(), ...(mem.held ? toWrite : [])])];
  const found = c.getAll([...buckets, ...unique, ...extraKeys]);
  if (mem.held) for (const b of buckets) mem.held.set(b, found[b]);
  for (const k of extraKeys) if (typeof found[k] === 'string') extra!.out[k] = found[k];
  const loose = readLoose(c, unique, found);
  for (const [b, bucketKeys] of byBucket) {
    const bucket = bucketIn(mem, b, found[b], now);
    for (const key of bucketKeys) {
      const packed = bucket.get(nameOf(key))?.[1];
      const alone = loose.get(key);
      const best = packed && alone ? (alone.at > packed.at ? alone : packed) : (packed ?? alone);
      // older than the freshness setting or its endpoint's limit: a miss
      if (best && reusable(best, now, fetchedAfter, limitOf(key))) out.set(key, best);
    }
  }
  return out;
}

/** Every live answer packed in the buckets, by its name (key without `igd1:`): what keep.ts copies to the sheet. */
export function bucketAnswers(c: KeyValueCache, now: number): Map<string, CachedAnswer> {
  const out = new Map<string, CachedAnswer>();
  const names = Array.from({ length: BUCKETS }, (_, i) => BUCKET_PREFIX + i);
  const found = c.getAll(names);
  for (const b of names) for (const [name, [, outcome]] of readBucket(found[b], now)) out.set(name, outcome);
  return out;
}

/** Loose answers among `found` (whole values, or chunk headers whose chunks are read in one getAll). */
function readLoose(c: KeyValueCache, keys: string[], found: Record<string, string>): Map<string, CachedAnswer> {
  const texts = new Map<string, string>();
  const chunked = new Map<string, string[]>();
  for (const key of keys) {
    const v = found[key];
    if (typeof v !== 'string') continue;
    if (v.startsWith(CHUNKED)) {
      const [n, id] = v.slice(CHUNKED.length).split(':');
      const count = Number(n);
      if (count > 0 && count < 100)
        chunked.set(
          key,
          Array.from({ length: count }, (_, i) => `${key}.${id}.${i}`),
        );
    } else texts.set(key, v);
  }
  if (chunked.size) {
    const parts = c.getAll([...chunked.values()].flat());
    for (const [key, names] of chunked) {
      // a chunk was evicted: a miss
      if (names.every((p) => typeof parts[p] === 'string')) texts.set(key, names.map((p) => parts[p]).join(''));
    }
  }
  const out = new Map<string, CachedAnswer>();
  for (const [key, text] of texts) {
    const v = readJson(text);
    if (isOutcome(v)) out.set(key, v);
  }
  return out;
}

/**
 * Splits text in chunks of at most `size` characters (cache chunks, kept cells), never between the two halves of a
 * surrogate pair.
 */
export function split(text: string, size = CHUNK_CHARS): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length;) {
    let end = Math.min(text.length, i + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/** Loose items for answers: one value each, or a chunk header plus chunks. */
function looseValues(entries: Map<string, CachedAnswer>, values: Record<string, string> = {}): Record<string, string> {
  for (const [key, outcome] of entries) {
    const text = JSON.stringify(outcome);
    if (text.length <= CHUNK_CHARS) {
      values[key] = text;
      continue;
    }
    const id = Math.random().toString(36).slice(2, 8);
    const chunks = split(text);
    if (chunks.length >= 100) continue; // > 3 MB: not worth caching
    chunks.forEach((chunk, i) => (values[`${key}.${id}.${i}`] = chunk));
    values[key] = `${CHUNKED}${chunks.length}:${id}`;
  }
  return values;
}

// ---------------------------------------------------------------- writing

/**
 * Merges answers into their buckets (caller holds the lock); the ones that do not fit go loose.
 * An entry this execution wrote (same name, expiry and fetch time) is copied as its text.
 */
function bucketValues(
  c: KeyValueCache,
  mem: BucketMemory,
  entries: Map<string, CachedAnswer>,
  now: number,
): Record<string, string> {
  const { written } = mem;
  const expiresAt = now + CACHE_TTL_SECONDS * 1000;
  const groups = groupBy(entries, ([key]) => mem.bucketOf(key));
  const { held } = mem;
  const unread = [...groups.keys()].filter((b) => !held?.has(b));
  const current: Record<string, string | undefined> = unread.length ? c.getAll(unread) : {};
  for (const b of groups.keys()) if (held?.has(b)) current[b] = held.get(b);
  const values: Record<string, string> = {};
  const spill = new Map<string, CachedAnswer>();
  for (const [b, fresh] of groups) {
    // The bucket's other live answers stay (an answer written again replaces its entry).
    const names = new Set(fresh.map(([key]) => nameOf(key)));
    const kept: string[] = [];
    const next = new Map<string, BucketEntry>();
    let size = 2;
    for (const [name, entry] of bucketIn(mem, b, current[b], now)) {
      if (names.has(name)) continue;
      next.set(name, entry);
      const w = written.get(name);
      const mine = w && w.expiresAt === entry[0] && w.at === entry[1].at;
      const text = mine ? w.text : member(name, entry);
      kept.push(text);
      size += mine ? w.bytes : utf8Bytes(text) + 1;
    }
    if (size > BUCKET_MAX_BYTES) {
      kept.length = 0; // not written by us: start afresh (its answers become misses)
      next.clear();
      size = 2;
    }
    // Smallest first: a bucket keeps as many answers as fit, the biggest spill to loose items.
    const sized = fresh.map(([key, outcome]) => {
      const text = member(nameOf(key), [expiresAt, outcome]);
      return { key, outcome, text, bytes: utf8Bytes(text) + 1 };
    });
    for (const f of sized.sort((x, y) => x.bytes - y.bytes)) {
      if (size + f.bytes <= BUCKET_MAX_BYTES) {
        kept.push(f.text);
        size += f.bytes;
        written.set(nameOf(f.key), { expiresAt, at: f.outcome.at, text: f.text, bytes: f.bytes });
        next.set(nameOf(f.key), [expiresAt, f.outcome]);
      } else spill.set(f.key, f.outcome);
    }
    // nothing to keep: no empty item
    if (kept.length || typeof current[b] === 'string')
      mem.parsed.set(b, { text: (values[b] = `{${kept.join(',')}}`), entries: next });
  }
  return looseValues(spill, values);
}

interface StoreDeps {
  cache: KeyValueCache;
  /** The document lock: bucket writes only under it, loose items otherwise. */
  tryLock: TryLock;
  /** base64 of the SHA-256 of a UTF-8 text. */
  sha256Base64: (text: string) => string;
  now: () => number;
  /** Answers fetched longer ago than this are misses (the document's freshness setting); default: any age. */
  maxAgeMs?: number;
  warn?: (message: string) => void;
}

export function createAnswerStore(deps: StoreDeps): AnswerStore {
  // The endpoint limits of the keys this store made (keyFor): every read of those keys applies them.
  const limits = new Map<string, number | undefined>();
  const limitOf = (key: string) => limits.get(key);
  // The lock was busy once in this execution: later writes only try it without waiting.
  let lockWasBusy = false;
  const withLock = <T>(fn: () => T): T | null => {
    const release = deps.tryLock(lockWasBusy ? 0 : LOCK_WAIT_MS);
    if (!release) {
      lockWasBusy = true;
      return null;
    }
    const outer = mem.held;
    mem.held ??= new Map(); // a section inside a section shares its reads
    try {
      return fn();
    } finally {
      mem.held = outer;
      release();
    }
  };
  const buckets = new Map<string, string>();
  const mem: BucketMemory = {
    parsed: new Map(),
    written: new Map(),
    bucketOf: (key) => buckets.get(key) ?? buckets.set(key, bucketOf(key)).get(key)!,
    held: null,
  };
  // Each request's key is hashed once: a bulk step asks for the same keys again unit by unit.
  const keys = new Map<string, string>();
  return {
    keyFor(baseUrl, requestKey) {
      const name = `${baseUrl}\n${requestKey}`;
      let key = keys.get(name);
      if (key === undefined) {
        key = CACHE_PREFIX + deps.sha256Base64(name);
        keys.set(name, key);
        limits.set(key, limitOfRequest(requestKey));
      }
      return key;
    },
    limitOf,
    getMany: (keys, extra) =>
      getMany(deps.cache, mem, keys, deps.now(), extra, deps.now() - (deps.maxAgeMs ?? Infinity), limitOf),
    withLock,
    putMany(entries, extra) {
      if (!entries.size && !extra) return;
      try {
        const locked = withLock(() => {
          deps.cache.putAll({ ...bucketValues(deps.cache, mem, entries, deps.now()), ...extra }, CACHE_TTL_SECONDS);
          mem.held?.clear(); // what it read is older than what it wrote
        });
        // null: no lock, so loose items, safe without one
        if (locked === null && entries.size) deps.cache.putAll(looseValues(entries), CACHE_TTL_SECONDS);
      } catch (e) {
        (deps.warn ?? console.warn)(
          `IG Data: could not cache ${entries.size} result(s): ${e instanceof Error ? e.message : e}`,
        );
      }
    },
  };
}
