/**
 * The add-on's answer store over the stand-in's document cache, for tests that write and read it
 * directly (chunking, bucket spill). Bundled by `storeProbe()` into a script of its own (global
 * IGSTORE) loaded beside the built add-on: the add-on itself ships no test hook.
 */
import { documentStore } from '../../sheets-addon/src/gas/deps';
import type { CachedAnswer } from '../../sheets-addon/src/engine/store';

export const getMany = (keys: string[]) => documentStore().getMany(keys);
export const putMany = (entries: Map<string, CachedAnswer>) => documentStore().putMany(entries);
