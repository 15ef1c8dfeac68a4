/**
 * Claims (claims.ts) over Apps Script: the document cache holds the claim items beside the
 * answers, LockService's document lock guards each round. A round is one lock, one getAll
 * (answers + claims), one getAll of the buckets it rewrites and one putAll (answers + claims).
 * Off when the document property IGDATA_CLAIMS is "off" (today's behaviour, for benchmarks and
 * to show the tests fail without claims).
 */
import type { CachedOutcome } from './cache';
import { getMany, lockDocument, putMany } from './cache';
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
  try {
    if (PropertiesService.getDocumentProperties()?.getProperty(CLAIMS_PROPERTY) === 'off') return null;
  } catch {
    // no document: no claims to share anyway
    return null;
  }
  return {
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
}
