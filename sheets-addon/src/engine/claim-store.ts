/**
 * Claims (claims.ts) over the answer store: the claim items live in the same cache beside the
 * answers, and a round runs under the store's document lock: one getAll (answers + claims), one
 * getAll of the buckets it rewrites, one putAll (answers + claims). `mode` chooses another way, for
 * `npm run bench:sheets` and to see the tests fail (the document property IGDATA_CLAIMS, read by
 * the Apps Script adapter): "off" (no coordination: each execution pays for what it misses) or
 * "lock" (the alternative we measured and rejected: one execution at a time fetches, holding the lock).
 */
import type { KeyValueCache, TryLock } from './ports';
import type { AnswerStore, CachedAnswer } from './store';
import type { ClaimStore } from './claims';
import { CLAIM_MS, claimItemKeys, heldByOthers, parseClaims, takeClaims } from './claims';

export interface ClaimDeps {
  store: AnswerStore;
  cache: KeyValueCache;
  now: () => number;
  sleep: (ms: number) => void;
  /** For mode "lock": the document lock, waited for up to the budget. */
  tryLock: TryLock;
}

function read(store: AnswerStore, wanted: string[]): { answers: Map<string, CachedAnswer>; raw: Record<string, string> } {
  const raw: Record<string, string> = {};
  const answers = store.getMany(wanted, { keys: claimItemKeys(), out: raw });
  return { answers, raw };
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
        const { answers, raw } = read(store, wanted);
        const unanswered = wanted.filter((k) => !answers.has(k));
        const { taken, others, values } = takeClaims(parseClaims(raw, now), owner, unanswered, max, now + CLAIM_MS);
        // No empty claim item is left behind: the cache holds only ~1,000 items.
        const gone: string[] = [];
        for (const k of Object.keys(values)) {
          if (values[k] !== '{}') continue;
          delete values[k];
          if (k in raw) gone.push(k);
        }
        store.putMany(publish, values);
        if (gone.length) deps.cache.removeAll?.(gone);
        return { answers, taken, others };
      }),
    peek(owner, wanted) {
      const { answers, raw } = read(store, wanted);
      return { answers, others: heldByOthers(parseClaims(raw, deps.now()), owner, wanted) };
    },
    publishLoose: (publish) => store.putMany(publish),
  };
  return mode === 'lock' ? wholeLock(claims, deps) : claims;
}

/** The lock held from the first round to the last: others wait for the lock, then find answers stored. */
function wholeLock(claims: ClaimStore, deps: ClaimDeps): ClaimStore {
  let release: (() => void) | null = null;
  return {
    ...claims,
    round(_owner, wanted, publish, max) {
      if (!release && !(release = deps.tryLock(20000))) return null;
      const answers = deps.store.getMany(wanted);
      deps.store.putMany(publish);
      if (!max) {
        release(); // the last round
        release = null;
      }
      return { answers, taken: wanted.filter((k) => !answers.has(k)).slice(0, max), others: new Set<string>() };
    },
  };
}
