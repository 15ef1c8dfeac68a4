/**
 * The response cache: the document cache (shared by the owner and editors of the sheet), entries
 * kept for the 6-hour maximum. Keys are `igd1:` + base64(sha256(baseUrl + request key)): 49
 * characters whatever the input, never the API key. Values are the raw `data` of the response, so
 * different field choices share one cached request. Values over the 100 KB limit are split in
 * chunks. A billed "not found" is cached too, so recalculating never bills it again.
 */
import type { ApiResult } from '@igdata/core';

export const CACHE_PREFIX = 'igd1:';
/** CacheService's maximum TTL (6 hours). */
export const CACHE_TTL_SECONDS = 21600;
/** Characters per chunk: 3 bytes per UTF-16 unit at most, so <= 96,000 bytes < 100 KB. */
const CHUNK_CHARS = 32000;
const CHUNKED = '\u0001chunks:';

/** What is stored for one request. */
export type CachedOutcome =
  | { ok: true; data: Record<string, unknown>; next: string | null; charged: number; at: number }
  | { ok: false; status: number; code: string; message: string; charged: number; reason?: string; at: number };

export function cacheKey(baseUrl: string, requestKey: string): string {
  const digest = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, `${baseUrl}\n${requestKey}`, Utilities.Charset.UTF_8);
  return CACHE_PREFIX + Utilities.base64Encode(digest);
}

export function fromResult(r: ApiResult): CachedOutcome {
  return { ok: true, data: r.data, next: r.nextCursor, charged: r.creditsCharged, at: Date.now() };
}

function cache(): GasCache {
  const c = CacheService.getDocumentCache();
  if (!c) throw new Error('IG Data needs a spreadsheet: the document cache is not available here.');
  return c;
}

/** Looks keys up (two round trips at most: entries, then chunks). Missing or unreadable = absent. */
export function getMany(keys: string[]): Map<string, CachedOutcome> {
  const out = new Map<string, CachedOutcome>();
  if (!keys.length) return out;
  const c = cache();
  const found = c.getAll(keys);
  const chunked: { key: string; parts: string[] }[] = [];
  for (const key of keys) {
    const v = found[key];
    if (typeof v !== 'string') continue;
    if (v.startsWith(CHUNKED)) {
      const [n, id] = v.slice(CHUNKED.length).split(':');
      const count = Number(n);
      if (!(count > 0 && count < 100)) continue;
      chunked.push({ key, parts: Array.from({ length: count }, (_, i) => `${key}.${id}.${i}`) });
    } else {
      const parsed = parse(v);
      if (parsed) out.set(key, parsed);
    }
  }
  if (chunked.length) {
    const parts = c.getAll(chunked.flatMap((x) => x.parts));
    for (const { key, parts: names } of chunked) {
      if (names.some((p) => typeof parts[p] !== 'string')) continue; // a chunk was evicted: a miss
      const parsed = parse(names.map((p) => parts[p]).join(''));
      if (parsed) out.set(key, parsed);
    }
  }
  return out;
}

function parse(text: string): CachedOutcome | undefined {
  try {
    const v = JSON.parse(text) as CachedOutcome;
    return v && typeof v === 'object' && typeof v.ok === 'boolean' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Splits text in chunks of at most CHUNK_CHARS, never between the two halves of a surrogate pair. */
export function split(text: string, size = CHUNK_CHARS): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/** Stores outcomes in one putAll; a failure to cache never fails the user's formula. */
export function putMany(entries: Map<string, CachedOutcome>): void {
  if (!entries.size) return;
  const values: Record<string, string> = {};
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
  try {
    cache().putAll(values, CACHE_TTL_SECONDS);
  } catch (e) {
    console.warn(`IG Data: could not cache ${entries.size} result(s): ${e instanceof Error ? e.message : e}`);
  }
}
