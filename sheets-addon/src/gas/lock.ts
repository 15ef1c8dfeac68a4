/**
 * The document lock. Bulk steps hold it for their whole step (one step at a time per document);
 * the answer store takes it briefly for bucket writes, and not again inside a held section.
 */
import type { TryLock } from '../engine/ports';

/** Depth of document-lock sections this execution is in (globals live for one execution). */
let depth = 0;

/** Runs fn under the document lock (waiting up to 30 s); answer-store writes inside do not re-lock. */
export function withDocumentLock<T>(fn: () => T): T {
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
}

/** Takes the document lock briefly for the answer store; its release, or null when not obtained. */
export const tryDocumentLock: TryLock = (waitMs) => {
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
};
