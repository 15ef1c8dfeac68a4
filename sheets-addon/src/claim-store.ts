/**
 * Claims (claims.ts) over Apps Script: the document cache holds the claim items beside the
 * answers, LockService's document lock guards each round. A round is one lock, one getAll
 * (answers + claims), one getAll of the buckets it rewrites and one putAll (answers + claims).
 * The document property IGDATA_CLAIMS chooses another way, for `npm run bench:sheets` and to see
 * the tests fail: "off" (no coordination: each execution pays for what it misses) or "lock" (the
 * alternative we measured and rejected: one execution at a time fetches, holding the lock).
 */
import type { CachedOutcome } from './cache';
import { getMany, lockDocument, putMany, underDocumentLock } from './cache';
import type { ClaimStore } from './claims';
import { CLAIM_MS, claimItemKeys, heldByOthers, parseClaims, takeClaims } from './claims';

export const CLAIMS_PROPERTY = 'IGDATA_CLAIMS';

function read(wanted: string[]): { answers: Map<string, CachedOutcome>; raw: Record<string, string> } {
  const raw: Record<string, string> = {};
  const answers = getMany(wanted, { keys: claimItemKeys(), out: raw });
  return { answers, raw };
}

/** The document's claim store, or null when claims are switched off. */
export function documentClaims(): ClaimStore | null {
  let mode: string | null | undefined;
  try {
    mode = PropertiesService.getDocumentProperties()?.getProperty(CLAIMS_PROPERTY);
  } catch {
    return null; // no document: no claims to share anyway
  }
  if (mode === 'off') return null;
  const store: ClaimStore = {
    now: () => Date.now(),
    sleep: (ms) => Utilities.sleep(ms),
    round(owner, wanted, publish, max) {
      // The cache's own short lock wait (none once it was busy): a bulk step may hold it for long.
      const release = lockDocument();
      if (!release) return null;
      try {
        const now = Date.now();
        const { answers, raw } = read(wanted);
        const unanswered = wanted.filter((k) => !answers.has(k));
        const { taken, others, values } = takeClaims(parseClaims(raw, now), owner, unanswered, max, now + CLAIM_MS);
        // No empty claim item is left behind: the cache holds only ~1,000 items.
        const gone: string[] = [];
        for (const k of Object.keys(values)) {
          if (values[k] !== '{}') continue;
          delete values[k];
          if (k in raw) gone.push(k);
        }
        putMany(publish, values);
        if (gone.length) CacheService.getDocumentCache()?.removeAll(gone);
        return { answers, taken, others };
      } finally {
        release();
      }
    },
    peek(owner, wanted) {
      const { answers, raw } = read(wanted);
      return { answers, others: heldByOthers(parseClaims(raw, Date.now()), owner, wanted) };
    },
    publishLoose: (publish) => putMany(publish),
  };
  return mode === 'lock' ? wholeLock(store) : store;
}

/** The lock held from the first round to the last: others wait for the lock, then find answers cached. */
function wholeLock(store: ClaimStore): ClaimStore {
  let lock: GasLock | null = null;
  return {
    ...store,
    round(_owner, wanted, publish, max) {
      if (!lock) {
        const l = LockService.getDocumentLock();
        if (!l || !l.tryLock(20000)) return null;
        lock = l;
      }
      const r = underDocumentLock(() => {
        const answers = getMany(wanted);
        putMany(publish);
        return { answers, taken: wanted.filter((k) => !answers.has(k)).slice(0, max), others: new Set<string>() };
      });
      if (!max) {
        lock.releaseLock(); // the last round
        lock = null;
      }
      return r;
    },
  };
}
