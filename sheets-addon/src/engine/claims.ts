/**
 * Claims: concurrent executions never pay twice for one request. Sheets recalculates several
 * custom-function cells at once, each its own execution; they share only the document cache and
 * the document lock. Before sending a batch, an execution *claims* its requests: under the lock,
 * in one round, it reads their answers and the live claims, publishes the answers of its previous
 * batch, drops its old claims and marks the requests nobody holds as its own for CLAIM_MS. An
 * execution that meets another's live claim does not send: it polls the cache (without the lock)
 * until the answer appears. A claim dies with its time, so an owner that crashed only delays the
 * others. Nobody waits past its budget: what is still claimed by a live owner then is answered
 * "not reached in time" (free, and the owner's answer is cached for the recalculation), because
 * sending it would pay for it twice.
 *
 * Pure: the cache and lock are behind ClaimStore (claim-store.ts, over the answer store).
 */
import { jsonEntries } from './json';
import type { CachedAnswer as CachedOutcome, ClaimStore } from './types';

/** How long a claim holds: one batch with its retries (4 s backoff) and a slow answer, well under the 20 s budget. */
export const CLAIM_MS = 15000;
/** How often a waiting execution looks for the answers it waits for. */
const POLL_MS = 50;
/** All claims live in one cache item; a claim is ~80 bytes, so 1,000 stay under the 100 KB value limit. */
export const CLAIM_ITEM = 'igd1:c';
const MAX_CLAIMS = 1000;

/** [claim expires at (epoch ms), owner] by answer key. */
export type ClaimTable = Map<string, [until: number, owner: string]>;

/** The live claims in the claim item's text (anything unreadable or expired is no claim). */
export function parseClaims(text: string | undefined, now: number): ClaimTable {
  const out: ClaimTable = new Map();
  for (const [key, c] of jsonEntries(text))
    if (Array.isArray(c) && c[0] > now && typeof c[1] === 'string') out.set(key, [c[0], c[1]]);
  return out;
}

/** Keys claimed by someone other than `owner`, still live. */
export const heldByOthers = (table: ClaimTable, owner: string, keys: string[]): Set<string> =>
  new Set(keys.filter((k) => table.has(k) && (table.get(k) as [number, string])[1] !== owner));

/**
 * One claim round on the table (the caller holds the lock): drops `owner`'s old claims, takes up
 * to `max` of `wanted` that nobody else holds (none past MAX_CLAIMS). Returns what was taken, what
 * others hold, and the claim item's new text (null: no claim left).
 */
export function takeClaims(table: ClaimTable, owner: string, wanted: string[], max: number, until: number) {
  for (const [k, [, o]] of table) if (o === owner) table.delete(k);
  const others = heldByOthers(table, owner, wanted);
  const taken: string[] = [];
  for (const k of wanted) {
    if (taken.length >= max || table.size >= MAX_CLAIMS) break;
    if (others.has(k)) continue;
    table.set(k, [until, owner]);
    taken.push(k);
  }
  return { taken, others, text: table.size ? JSON.stringify(Object.fromEntries(table)) : null };
}

export interface ClaimedFetch {
  /** Answers other executions paid for, by answer key. */
  fromOthers: Map<string, CachedOutcome>;
  /** Keys still held by a live owner when the budget ran out, or never started. */
  late: string[];
  /** Batches sent without a claim because the lock was busy. */
  unclaimed: number;
  /** Longest this execution waited on others' claims (ms). */
  waitedMs: number;
}

/**
 * Gets an answer for every key (answer keys), paying only for what nobody else is paying for.
 * `send` sends one batch and returns the answers worth caching; `inTime` says whether a new
 * batch may start (the time budget).
 */
export function fetchClaimed(
  keys: string[],
  opts: {
    store: ClaimStore;
    batchSize: number;
    inTime: () => boolean;
    send: (keys: string[]) => Map<string, CachedOutcome>;
  },
): ClaimedFetch {
  const { store } = opts;
  const owner = Math.random().toString(36).slice(2, 10) + store.now().toString(36);
  const pending = new Set(keys);
  const fromOthers = new Map<string, CachedOutcome>();
  let publish = new Map<string, CachedOutcome>();
  let needRound = true; // a round publishes our answers and claims what is free
  let unclaimed = 0;
  let waitedMs = 0;
  let claimed = false;
  const send = (batch: string[], withClaims: boolean) => {
    batch.forEach((k) => pending.delete(k));
    publish = opts.send(batch);
    if (withClaims) claimed = true;
    else unclaimed++;
  };
  const absorb = (answers: Map<string, CachedOutcome>) => {
    for (const [k, v] of answers) if (pending.delete(k)) fromOthers.set(k, v);
  };
  let held = new Set<string>(); // what others held at the last look: asked last, so a round reads the likely-free first
  const wanted = () => [...pending].sort((a, b) => Number(held.has(a)) - Number(held.has(b)));
  /** The pending keys nobody else holds a claim on. */
  const unheld = (others: Set<string>) => [...pending].filter((k) => !others.has(k));
  while (pending.size && opts.inTime()) {
    if (needRound) {
      const r = store.round(owner, wanted(), publish, opts.batchSize);
      if (r === null) {
        // The lock is busy beyond a short wait (a bulk step may hold it for long): still wait for
        // what others claimed, send the rest unclaimed rather than stall.
        store.publishLoose(publish);
        publish = new Map();
        const p = store.peek(owner, [...pending]);
        absorb(p.answers);
        const free = unheld(p.others);
        if (free.length) send(free.slice(0, opts.batchSize), false);
        else store.sleep(POLL_MS);
        continue;
      }
      publish = new Map();
      absorb(r.answers);
      held = r.others;
      if (r.taken.length) {
        send(r.taken, true);
        continue;
      }
      const free = unheld(r.others);
      if (r.full) {
        send(free.slice(0, opts.batchSize), false); // no room for more claims: never stall on that
        continue;
      }
      if (free.length) continue; // answered by others in the meantime, or not read yet: look again
      if (!pending.size) break;
    }
    const t0 = store.now();
    store.sleep(POLL_MS);
    const p = store.peek(owner, [...pending]);
    waitedMs += store.now() - t0;
    absorb(p.answers);
    // A claim gone without its answer (its owner failed or died): take the request over.
    needRound = unheld(p.others).length > 0;
  }
  if (claimed || publish.size) finish(store, owner, publish);
  return { fromOthers, late: [...pending], unclaimed, waitedMs };
}

/** The last round: publish the last batch's answers and let go of our claims. */
function finish(store: ClaimStore, owner: string, publish: Map<string, CachedOutcome>): void {
  if (store.round(owner, [], publish, 0) === null) store.publishLoose(publish);
}
