/**
 * Claims (claims.ts) over the answer store: the claim items live in the same cache beside the
 * answers, and a round runs under the store's document lock: one getAll (answers, claims and the
 * buckets it rewrites), one putAll (answers + claims). `mode` chooses another way, for
 * `npm run bench:sheets` and to see the tests fail (the document property IGDATA_CLAIMS, read by
 * the Apps Script adapter): "off", no coordination, each execution pays for what it misses. Claims
 * rather than the document lock held around the whole fetch: a held lock makes every other cell
 * recalculating wait out a whole round trip, where a claim makes it wait only for the requests it
 * shares: slower for filled-down cells (sheets-addon/README.md has the measurement).
 */
import type { KeyValueCache } from './deps';
import type { AnswerStore, CachedAnswer, ClaimStore } from './types';
import { CLAIM_ITEM, CLAIM_MS, heldByOthers, parseClaims, takeClaims } from './claims';

export interface ClaimDeps {
  store: AnswerStore;
  cache: KeyValueCache;
  now: () => number;
  sleep: (ms: number) => void;
}

function read(
  store: AnswerStore,
  wanted: string[],
  publish?: Map<string, CachedAnswer>,
): { answers: Map<string, CachedAnswer>; claims: string | undefined } {
  const raw: Record<string, string> = {};
  const answers = store.getMany(wanted, { keys: [CLAIM_ITEM], out: raw, writing: publish?.keys() });
  return { answers, claims: raw[CLAIM_ITEM] };
}

export function createClaimStore(deps: ClaimDeps, mode?: string | null): ClaimStore | null {
  if (mode === 'off') return null;
  const { store } = deps;
  const claims: ClaimStore = {
    now: deps.now,
    sleep: deps.sleep,
    round: (owner, wanted, publish, max) =>
      store.withLock(() => {
        const now = deps.now();
        // Only what this round may take has its answers read (a bounded getAll, whatever the range).
        const look = wanted.slice(0, 2 * max);
        const { answers, claims: text } = read(store, look, publish);
        const table = parseClaims(text, now);
        const candidates = look.filter((k) => !answers.has(k));
        const { taken, others: near, text: next } = takeClaims(table, owner, candidates, max, now + CLAIM_MS);
        const others = heldByOthers(table, owner, wanted);
        const full = taken.length < Math.min(max, candidates.length - near.size);
        store.putMany(publish, next ? { [CLAIM_ITEM]: next } : undefined);
        // No empty claim item is left behind: the cache holds only ~1,000 items.
        if (!next && text !== undefined) deps.cache.removeAll?.([CLAIM_ITEM]);
        return { answers, taken, others, full };
      }),
    peek(owner, wanted) {
      // The claim item alone first: an owner drops its claims in the putAll that publishes their
      // answers, so only requests no longer held can have an answer to read (less to read and parse).
      const { claims: text } = read(store, []);
      const others = heldByOthers(parseClaims(text, deps.now()), owner, wanted);
      // (none free: the store reads nothing)
      return { answers: store.getMany(wanted.filter((k) => !others.has(k))), others };
    },
    publishLoose: (publish) => store.putMany(publish),
  };
  return claims;
}
