/**
 * The hourly time-driven trigger that copies the answers custom functions left in the cache (which
 * they may write) to the kept answers' sheet (which they may not) before the cache's 6 hours end.
 * An add-on may have one time-driven trigger per user per document, firing at most hourly: one is
 * enough, since an answer stays 6 hours in the cache and is copied within 1. Keeping fetches
 * nothing; the same hourly run then starts scheduled lookups and continues bulk runs in the
 * background (schedule/background.ts).
 */
import { bucketAnswers } from '../engine/store';
import { keeping } from '../context/answers';
import type { Context } from '../context/context';
import { settingRule } from '../context/reuse';
import { recordUsage } from '../context/usage-log';
import { activeSpreadsheet } from './book';

/** The trigger's handler, a top-level function of Code.js (the name installed triggers already call). */
const KEEP_HANDLER = 'igKeepAnswers';

/** Installs the hourly trigger for this user and document unless they have one (the add-on's only trigger). */
export function ensureKeepTrigger(): void {
  try {
    if (!ScriptApp.getUserTriggers(activeSpreadsheet()).length)
      ScriptApp.newTrigger(KEEP_HANDLER).timeBased().everyHours(1).create();
  } catch (e) {
    console.warn(e); // no hourly trigger: answers are still kept by bulk runs
  }
}

/** The trigger: every answer packed in the cache's buckets goes to the sheet (newer ones only); how many. */
export const keepFromCache = (ctx: Context): number =>
  ctx.lock.withLock(() =>
    keeping(ctx, settingRule(ctx.settings), ({ kept }) => {
      kept.add(bucketAnswers(ctx.places.cache, ctx.now()));
      recordUsage(ctx); // the formulas' usage, before the cache's 6 hours end
      return kept.flush();
    }),
  );
