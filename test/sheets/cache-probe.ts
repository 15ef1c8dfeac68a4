/**
 * The add-on's answer store over the stand-in's document cache, for tests that write and read it
 * directly (chunking, bucket spill). Bundled by `storeProbe()` into a script of its own (global
 * IGSTORE) loaded beside the built add-on: the add-on itself ships no test hook. It is the cache
 * layer alone, at any age (the add-on's own store also drops answers older than the document's
 * freshness setting and reads kept answers behind the cache: test/sheets/freshness.test.ts).
 */
import { createAnswerStore } from '../../sheets-addon/src/engine/store';
import type { CachedAnswer } from '../../sheets-addon/src/engine/types';
import { gasContext } from '../../sheets-addon/src/gas/context';

/** One store for the probe's execution (a script of its own: its module state is the test's). */
let store: ReturnType<typeof createAnswerStore> | undefined;
function cacheStore() {
  if (store) return store;
  const ctx = gasContext();
  return (store = createAnswerStore({
    cache: ctx.places.cache,
    tryLock: ctx.lock.tryLock,
    sha256Base64: ctx.places.sha256Base64,
    now: Date.now,
  }));
}

export const getMany = (keys: string[]) => cacheStore().getMany(keys);
export const putMany = (entries: Map<string, CachedAnswer>) => cacheStore().putMany(entries);
