/**
 * The document lock over LockService. Bulk steps hold it for their whole step (one step at a time
 * per document); the answer store takes it briefly for bucket writes, and not again inside a held
 * section. One lock object per entry point (gas/context.ts): it knows how deep this execution is.
 */
import type { DocumentLock } from '../context/context';

export function documentLock(): DocumentLock {
  let depth = 0;
  return {
    withLock<T>(fn: () => T): T {
      const lock = LockService.getDocumentLock();
      if (!lock) return fn();
      if (!lock.tryLock(30000)) throw new Error('Another bulk step is still running; try again in a few seconds.');
      depth++;
      try {
        return fn();
      } finally {
        depth--;
        lock.releaseLock();
      }
    },
    tryLock(waitMs) {
      if (depth > 0) return () => undefined;
      let lock: GoogleAppsScript.Lock.Lock | null;
      try {
        lock = LockService.getDocumentLock();
        if (!lock || !lock.tryLock(waitMs)) return null;
      } catch {
        return null;
      }
      const held = lock;
      depth++;
      return () => {
        depth--;
        held.releaseLock();
      };
    },
  };
}
