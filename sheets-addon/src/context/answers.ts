/**
 * The engine's dependencies for one rule of reuse: the cache, then the kept answers for its misses,
 * and the claims that keep cells recalculating at once from paying twice. A writer (never a custom
 * function, which may not write a sheet) collects what it fetches or reads and writes it to the
 * kept answers with `flush`, even when its work failed, so nothing paid for is lost.
 */
import { createClaimStore } from '../engine/claim-store';
import type { KeptAnswers } from '../engine/keep';
import { createKeptAnswers, withKept } from '../engine/keep';
import type { EngineDeps } from '../engine/deps';
import type { AnswerStore } from '../engine/types';
import { createAnswerStore } from '../engine/store';
import type { Context } from './context';
import type { ReuseRule } from './reuse';
import { maxAgeMs } from './reuse';

export interface Answers {
  deps: EngineDeps;
  /** The cache alone (claims and the usage item use it under the lock). */
  cache: AnswerStore;
  kept: KeptAnswers;
}

export function answersFor(
  ctx: Pick<Context, 'now' | 'client' | 'lock' | 'places' | 'settings'> & Partial<Pick<Context, 'book'>>,
  rule: ReuseRule,
  writer: boolean,
): Answers {
  const age = maxAgeMs(rule, ctx.now());
  const { cache: kv, kept: grid, sha256Base64 } = ctx.places;
  const cache = createAnswerStore({ cache: kv, tryLock: ctx.lock.tryLock, sha256Base64, now: ctx.now, maxAgeMs: age });
  const kept = createKeptAnswers(grid, { now: ctx.now, maxAgeMs: age, writable: writer });
  // Claims run under the lock: they read the cache alone (kept answers were looked up before); what
  // they publish is kept too (a bulk step fetches with claims).
  const publishing: AnswerStore = {
    ...cache,
    putMany: (entries, extra) => (cache.putMany(entries, extra), kept.add(entries)),
  };
  const claims = createClaimStore(
    { store: publishing, cache: kv, now: ctx.now, sleep: (ms) => ctx.client.io.sleep(ms) },
    ctx.settings.claims,
  );
  const book = ctx.book;
  const zoneOffset = book && ((t: number) => book.zoneOffset(t)); // read only when a note says a day
  return { deps: { client: ctx.client, store: withKept(cache, kept), now: ctx.now, claims, zoneOffset }, cache, kept };
}

/**
 * Runs `work` as a writer of kept answers: what it fetches or reads is written to the hidden sheet
 * at its end, even when it fails. Writing fetches nothing. If writing fails, the execution fails
 * with Apps Script's message (a bulk run pauses and resumes without writing or billing a row twice;
 * the answers stay in the cache, where the hourly trigger finds them).
 */
export function keeping<T>(
  ctx: Pick<Context, 'now' | 'client' | 'lock' | 'places' | 'settings'> & Partial<Pick<Context, 'book'>>,
  rule: ReuseRule,
  work: (a: Answers) => T,
): T {
  const a = answersFor(ctx, rule, true);
  try {
    return work(a);
  } finally {
    a.kept.flush();
  }
}
