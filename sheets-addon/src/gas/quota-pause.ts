/**
 * Google's daily quota of Properties reads and writes, at the entry points. The add-on keeps its settings and its runs'
 * state in properties, so once the quota is met nothing can be read or saved there: the pause is kept in the
 * document cache instead (CacheService has no daily quota on Google's quotas page, and reading it costs no Properties
 * call). A run's own state stays as its last save left it (rows are written before the state that records them, and
 * a step redone finds them: append.ts, row-step.ts), so it goes on from there once the quota has freed up, 24 hours
 * after it was met ("reset 24 hours after the first request"). While it waits, the hourly run touches no property, the
 * sidebar and formulas say which limit and when, and nothing is sent.
 */
import { QUOTA_WAIT_MS } from '../bulk/job';
import { PropertiesQuotaError, isPropertiesQuota } from '../context/store-quota';

const PAUSE_KEY = 'IGDATA_PROPERTIES_PAUSE';
/** The cache's longest life (6 h); the hourly run puts the pause again each hour it waits, so it never runs out. */
const KEEP_SECONDS = 21600;

/** A pause at the quota: when it was met, and when the run goes on (epoch ms). */
export interface PropertiesPause {
  at: number;
  resumeAt: number;
}

const cache = () => CacheService.getDocumentCache();

/** The pause still on at `now`, or null. */
export function propertiesPause(now: number): PropertiesPause | null {
  const text = cache()?.get(PAUSE_KEY);
  if (!text) return null;
  try {
    const p = JSON.parse(text) as PropertiesPause;
    return p.resumeAt > now ? p : null;
  } catch {
    return null;
  }
}

/** Keeps the pause met at `now` (an earlier one still on keeps its times); the pause as kept. */
export function keepPause(now: number): PropertiesPause {
  const p = propertiesPause(now) ?? { at: now, resumeAt: now + QUOTA_WAIT_MS };
  cache()?.put(PAUSE_KEY, JSON.stringify(p), KEEP_SECONDS);
  return p;
}

/** What the sidebar says while the pause is on. */
export const pauseSentence = (p: PropertiesPause, showTime: (t: number) => string): string =>
  `${new PropertiesQuotaError().message} (${showTime(p.at)}): IG Data cannot read or save its settings and runs ` +
  `until it frees up. Runs wait where they stopped, not sent and not charged (answers already fetched are kept), ` +
  `and go on by themselves at the first hourly run after ${showTime(p.resumeAt)}; try again after that.`;

/** What a formula says while the pause is on. */
export const FORMULA_AT_PAUSE =
  `Not sent: ${new PropertiesQuotaError().message}. ` + 'It frees up within 24 hours; try again then. (Not charged.)';

/**
 * Runs an entry point's work under the pause: while a pause is on, `waiting` answers without touching a property;
 * work that meets the quota keeps the pause and `waiting` answers too.
 */
export function underPause<R>(now: () => number, work: () => R, waiting: (p: PropertiesPause) => R): R {
  if (propertiesPause(now())) return waiting(keepPause(now()));
  try {
    return work();
  } catch (e) {
    if (!isPropertiesQuota(e)) throw e;
    return waiting(keepPause(now()));
  }
}
