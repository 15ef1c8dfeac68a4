/**
 * The add-on's answer store over the stand-in's document cache, for tests that write and read it
 * directly (chunking, bucket spill). Bundled by `storeProbe()` into a script of its own (global
 * IGSTORE) loaded beside the built add-on: the add-on itself ships no test hook. It is the cache
 * layer alone, at any age (the add-on's own store also drops answers older than the document's
 * freshness setting and reads kept answers behind the cache: test/sheets/freshness.test.ts).
 */
import { createAnswerStore } from '../../sheets-addon/src/engine/store';
import type { CachedAnswer } from '../../sheets-addon/src/engine/store';
import { documentKeyValues, sha256Base64 } from '../../sheets-addon/src/gas/deps';
import { tryDocumentLock } from '../../sheets-addon/src/gas/lock';

let store: ReturnType<typeof createAnswerStore> | undefined;
const cacheStore = () => (store ??= createAnswerStore({ cache: documentKeyValues, tryLock: tryDocumentLock, sha256Base64, now: Date.now }));

export const getMany = (keys: string[]) => cacheStore().getMany(keys);
export const putMany = (entries: Map<string, CachedAnswer>) => cacheStore().putMany(entries);
