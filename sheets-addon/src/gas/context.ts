/**
 * The context over Apps Script (context/context.ts), built once by each entry point: a custom
 * function, a sidebar call, a menu action, the hourly trigger. Everything that lives for one
 * execution (the settings read once, how deep the document lock is held, the time zone) lives in
 * the context, not in module variables.
 */
import { clientConfig } from '../engine/messages';
import type { EngineDeps, SheetsClient } from '../engine/deps';
import type { Lost } from '../engine/walk';
import type { Answers } from '../context/answers';
import { answersFor } from '../context/answers';
import { formulaSpent } from '../context/usage-log';
import { formulaLabel } from './usage';
import type { ReuseRule } from '../context/reuse';
import type { Context, Settings } from '../context/context';
import { gasBook } from './book';
import { gasIO } from './http';
import { keptGrid } from './kept-sheet';
import { documentLock } from './lock';
import { refreshedSince } from './refresh';
import { currentUserEmail, documentProps, readSettings } from './settings';

function documentCache(): GoogleAppsScript.Cache.Cache {
  const c = CacheService.getDocumentCache();
  if (!c) throw new Error('IG Data needs a spreadsheet: the document cache is not available here.');
  return c;
}

const sha256Base64 = (text: string): string =>
  Utilities.base64Encode(Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, text, Utilities.Charset.UTF_8));

/** The document cache as a KeyValueCache. */
export const documentKeyValues = {
  getAll: (keys: string[]) => documentCache().getAll(keys),
  putAll: (values: Record<string, string>, ttl: number) => documentCache().putAll(values, ttl),
  removeAll: (keys: string[]) => documentCache().removeAll(keys),
};

/**
 * `personal`: an execution of the user at the keyboard (sidebar, menu), which uses their own key if they saved one; a
 * custom function's or the hourly trigger's uses the sheet's shared key only (gas/settings.ts).
 */
export function gasContext(personal = true): Context {
  // Read on first use: a formula with a bad argument fails before reading anything.
  let settings: Settings | undefined;
  let client: SheetsClient | undefined;
  const read = () => (settings ??= readSettings(personal));
  const lock = documentLock();
  return {
    now: Date.now,
    get settings() {
      return read();
    },
    get client() {
      return (client ??= { config: clientConfig(read()), io: gasIO() });
    },
    props: documentProps(),
    book: gasBook(),
    lock,
    places: { cache: documentKeyValues, kept: keptGrid, sha256Base64 },
    newId: () => Utilities.getUuid(),
    userEmail: currentUserEmail,
  };
}

/** The reuse rule of a custom function: the setting, and its cell's mark from "Refresh selected cells". */
function formulaRule(ctx: Context): ReuseRule {
  const marks = ctx.settings.refreshMarks;
  // markedAt 0: never marked (the setting alone decides).
  return {
    freshHours: ctx.settings.freshHours,
    markedAt: marks ? refreshedSince(marks, SpreadsheetApp.getActiveRange()) : 0,
  };
}

/**
 * A custom function's run: its context, the engine's dependencies under its reuse rule (built when
 * first asked: a bad argument fails before anything is read), and where its credits are recorded.
 * Custom functions only read kept answers (they may not write a sheet).
 */
export function formulaContext(): {
  ctx: Context;
  deps: () => EngineDeps;
  spent: (fn: string, credits: number, lost: Lost) => void;
} {
  const ctx = gasContext(false);
  let answers: Answers | undefined;
  const get = () => (answers ??= answersFor(ctx, formulaRule(ctx), false));
  return {
    ctx,
    deps: () => get().deps,
    spent: (fn, credits, lost) => formulaSpent(ctx, get().cache, formulaLabel(fn), credits, lost),
  };
}
