/** The engine's dependencies over Apps Script: the document cache, the lock, UrlFetchApp, settings. */
import type { AnswerStore } from '../engine/store';
import { createAnswerStore } from '../engine/store';
import type { EngineDeps, SheetsClient } from '../engine/ports';
import type { KeptAnswers } from '../engine/keep';
import { createKeptAnswers, freshMs, withKept } from '../engine/keep';
import { clientConfig } from '../engine/messages';
import { createClaimStore } from '../engine/claim-store';
import { gasIO } from './http';
import { keptGrid } from './kept-sheet';
import { tryDocumentLock } from './lock';
import { refreshedSince } from './refresh';
import type { Settings } from './settings';
import { readSettings } from './settings';

function documentCache(): GoogleAppsScript.Cache.Cache {
  const c = CacheService.getDocumentCache();
  if (!c) throw new Error('IG Data needs a spreadsheet: the document cache is not available here.');
  return c;
}

export const sha256Base64 = (text: string): string =>
  Utilities.base64Encode(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8));

export const documentKeyValues = {
  getAll: (keys: string[]) => documentCache().getAll(keys),
  putAll: (values: Record<string, string>, ttl: number) => documentCache().putAll(values, ttl),
  removeAll: (keys: string[]) => documentCache().removeAll(keys),
};

// Globals live for one execution: settings are read once, the store remembers a busy lock.
let settings: Settings | undefined;
let cache: AnswerStore | undefined;
let kept: KeptAnswers | undefined;
let keptWritable = false;
/** A custom function in a cell marked by "Refresh selected cells": when it was marked. */
let markedAt = 0;
/** A scheduled run's own limit on the age of answers it reuses (withAgeLimit). */
let ageLimit = Infinity;

const currentSettings = (): Settings => (settings ??= readSettings());
/** Answers older than the freshness setting, the calling cell's refresh mark or the run's limit are misses. */
const maxAgeMs = (): number => Math.min(freshMs(currentSettings().freshHours), markedAt ? Date.now() - markedAt : Infinity, ageLimit);

/** Runs fn with answers older than `ms` treated as misses (no limit when undefined): the stores are made anew around it. */
export function withAgeLimit<T>(ms: number | undefined, fn: () => T): T {
  if (ms === undefined) return fn();
  ageLimit = ms;
  cache = kept = undefined;
  try {
    return fn();
  } finally {
    ageLimit = Infinity;
    cache = kept = undefined;
  }
}

/** The answer store over the document cache alone, answers older than the freshness setting being misses. */
export function cacheStore(): AnswerStore {
  return (cache ??= createAnswerStore({
    cache: documentKeyValues,
    tryLock: tryDocumentLock,
    sha256Base64,
    now: Date.now,
    maxAgeMs: maxAgeMs(),
  }));
}

/** The kept answers (hidden sheet): read-only unless this execution runs inside keepingAnswers. */
export function keptAnswers(): KeptAnswers {
  return (kept ??= createKeptAnswers(keptGrid, { now: Date.now, maxAgeMs: maxAgeMs(), writable: keptWritable }));
}

/** The cache, then the kept answers for its misses. */
export const documentStore = (): AnswerStore => withKept(cacheStore(), keptAnswers());

/**
 * Runs fn as a writer of kept answers (never from a custom function, which may not write a sheet):
 * the answers it fetches or reads from the cache are written to the hidden sheet at its end, even
 * when fn fails, so nothing paid for is lost. Writing fetches nothing. If writing fails, the
 * execution fails with Apps Script's message (a bulk run pauses and resumes without writing or
 * billing a row twice; the answers stay in the cache, where the hourly trigger finds them).
 */
export function keepingAnswers<T>(fn: () => T): T {
  keptWritable = true;
  kept = undefined;
  try {
    return fn();
  } finally {
    keptAnswers().flush();
  }
}

/** The client from the stored key and base URL, over UrlFetchApp (fresh counters each time). */
export function sheetsClient(): SheetsClient {
  return { config: clientConfig(readSettings()), io: gasIO() };
}

/** `cell`: a custom function's execution, whose active range is its own cell. */
export function engineDeps(cell = false): EngineDeps {
  const s = currentSettings();
  if (cell && s.refreshMarks) markedAt = refreshedSince(s.refreshMarks, SpreadsheetApp.getActiveRange());
  const client = sheetsClient();
  // Claims run under the lock: they read the cache alone (kept answers were looked up before).
  const claims = createClaimStore(
    { store: cacheStore(), cache: documentKeyValues, now: Date.now, sleep: (ms) => client.io.sleep(ms) },
    s.claims, // IGDATA_CLAIMS
  );
  return { client, store: documentStore(), now: Date.now, claims };
}
