/** The engine's dependencies over Apps Script: the document cache, the lock, UrlFetchApp, settings. */
import type { AnswerStore } from '../engine/store';
import { createAnswerStore } from '../engine/store';
import type { EngineDeps, SheetsClient } from '../engine/ports';
import { clientConfig } from '../engine/messages';
import { createClaimStore } from '../engine/claim-store';
import { gasIO } from './http';
import { tryDocumentLock } from './lock';
import { readSettings } from './settings';

function documentCache(): GoogleAppsScript.Cache.Cache {
  const c = CacheService.getDocumentCache();
  if (!c) throw new Error('IG Data needs a spreadsheet: the document cache is not available here.');
  return c;
}

const sha256Base64 = (text: string): string =>
  Utilities.base64Encode(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8));

const documentKeyValues = {
  getAll: (keys: string[]) => documentCache().getAll(keys),
  putAll: (values: Record<string, string>, ttl: number) => documentCache().putAll(values, ttl),
  removeAll: (keys: string[]) => documentCache().removeAll(keys),
};

let store: AnswerStore | undefined;

/** The answer store over the document cache (one per execution: it remembers a busy lock). */
export function documentStore(): AnswerStore {
  return (store ??= createAnswerStore({
    cache: documentKeyValues,
    tryLock: tryDocumentLock,
    sha256Base64,
    now: Date.now,
  }));
}

/** The client from the stored key and base URL, over UrlFetchApp (fresh counters each time). */
export function sheetsClient(): SheetsClient {
  return { config: clientConfig(readSettings()), io: gasIO() };
}

/** IGDATA_CLAIMS: "off" turns claims off, for the benchmark and to see the tests fail. */
const CLAIMS_PROPERTY = 'IGDATA_CLAIMS';

export function engineDeps(): EngineDeps {
  const client = sheetsClient();
  const claims = createClaimStore(
    { store: documentStore(), cache: documentKeyValues, now: Date.now, sleep: (ms) => client.io.sleep(ms) },
    PropertiesService.getDocumentProperties()?.getProperty(CLAIMS_PROPERTY),
  );
  return { client, store: documentStore(), now: Date.now, claims };
}
