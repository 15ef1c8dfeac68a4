/**
 * The hourly time-driven trigger that copies the answers custom functions left in the cache (which
 * they may write) to the kept answers' sheet (which they may not) before the cache's 6 hours end.
 * An add-on may have one time-driven trigger per user per document, firing at most hourly: one is
 * enough, since an answer stays 6 hours in the cache and is copied within 1. It fetches nothing.
 */
import { bucketAnswers } from '../engine/store';
import { documentKeyValues, keepingAnswers, keptAnswers } from './deps';
import { withDocumentLock } from './lock';

/** The trigger's handler, a top-level function of Code.js. */
export const KEEP_HANDLER = 'igKeepAnswers';

/** Installs the hourly trigger for this user and document unless there is one; false if it could not. */
export function ensureKeepTrigger(): boolean {
  try {
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    if (ScriptApp.getUserTriggers(ss).some((t) => t.getHandlerFunction() === KEEP_HANDLER)) return true;
    ScriptApp.newTrigger(KEEP_HANDLER).timeBased().everyHours(1).create();
    return true;
  } catch (e) {
    console.warn(`IG Data: could not install the hourly trigger that keeps answers: ${e instanceof Error ? e.message : e}`);
    return false;
  }
}

/** The trigger: every answer packed in the cache's buckets goes to the sheet (newer ones only). */
export function keepFromCache(): { kept: number } {
  return withDocumentLock(() =>
    keepingAnswers(() => {
      const kept = keptAnswers();
      kept.add(bucketAnswers(documentKeyValues, Date.now()));
      return { kept: kept.flush() };
    }),
  );
}
