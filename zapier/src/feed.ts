/**
 * A trigger's check of a feed on core's feed rule (core/src/feed.ts, read by client.ts
 * `readFeedOf`): newest first down to the posts handled last, pinned older posts and a deleted last
 * post recognised by time, a burst larger than a check's pages read to its end over the next checks,
 * no page twice. What is Zapier's own: where the feed stood, kept in `z.cache` per Zap and feed,
 * and the "check at most every N minutes" rule.
 *
 * The top is read before the gap a burst left (core's `topFirst`): a check is the Zap's only view
 * of the feed, so a post newer than the burst comes out at the next check, for one page a check
 * more while the gap lasts. Zapier deduplicates what a check returns by `id`, so the state keeps no
 * ids against repeats (core's `recentMax` 0).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Call, FeedBoundary, FeedGap, FeedOptions, FeedState, Item } from '@igdata/core';
import { IgApiError, errorCode, isIgError, servedAgain } from '@igdata/core';
import { readFeedOf } from './client';
import { asZapierError } from './errors';

/**
 * What `z.cache` keeps for one Zap and feed. The names are those it had before the rule moved to
 * core (`backlog` is core's gap), so a Zap's cached state reads as it was.
 */
interface CachedFeed {
  head: FeedBoundary;
  backlog?: FeedGap;
  /** When the feed was last read (ms since epoch): the "check at most every N minutes" rule. */
  checkedAt: number;
}

/** Pages one check may read at most: a burst up to this is emitted at once, a larger one over several checks. */
const MAX_PAGES = 5;
/**
 * Zapier's throttle of a polling trigger: "a default limit of 100 new items recognized per poll
 * after deduplication"; beyond it the Zap's runs are held and the user gets an email
 * (docs.zapier.com/platform/build/troubleshoot-throttles). A check returns at most this many posts.
 */
const POLL_NEW_ITEMS_MAX = 100;
/** Ids of the most recent posts the boundary keeps (posts without a time are known by these alone). */
const SEEN_MAX = 100;

/**
 * The rule of one feed: as many pages as fit in Zapier's 100 new items at the registry's page size
 * (a hashtag's 30: 3 pages, a location's 24: 4, an account's 12: the 5 of MAX_PAGES), so no check
 * has its runs held; the rest of a burst is read at the next checks.
 */
function ruleOf(call: Call): FeedOptions {
  const pageSize = call.endpoint.pageSize ?? POLL_NEW_ITEMS_MAX;
  const maxPages = Math.max(1, Math.min(MAX_PAGES, Math.floor(POLL_NEW_ITEMS_MAX / pageSize)));
  return { maxPages, seenMax: SEEN_MAX, topFirst: true };
}
/** How long the state is kept after the last check: a Zap off for longer starts from the newest page again. */
const STATE_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Whether a check is due: at most one in each `everyMinutes` period of the clock. Periods, not
 * "N minutes since the last": with Zapier polling every 1, 2, 5 or 15 minutes each period gets
 * exactly one check, so the cost per day is 1,440 / N pages of nothing new, whatever the plan.
 */
function isDue(cached: CachedFeed, now: number, everyMinutes: number): boolean {
  const period = everyMinutes * 60_000;
  return Math.floor(now / period) > Math.floor(cached.checkedAt / period);
}

/**
 * A feed whose target was gone at a check (private, deleted or nonexistent: the service's 404, which
 * it bills): the answer, kept as Sheets keeps a billed failure, so the checks within the registry's
 * reuse limit of the feed (an account's posts 24 hours, a hashtag's or a place's 1) answer it again
 * unsent and free, instead of paying for the same 404 at every period of a Zap that Zapier never
 * turns off for it. The feed's state stays as it was: a target readable again goes on from there.
 */
interface GoneAnswer {
  status: number;
  code: string;
  message: string;
  charged: number;
  at: number;
}

const goneKey = (key: string) => `${key}:gone`;
const reuseMs = (call: Call) => (call.endpoint.maxReuseHours ?? 0) * 3_600_000;

async function keepIfGone(z: ZObject, call: Call, key: string, failure: unknown, now: number): Promise<void> {
  if (!isIgError(failure) || errorCode(failure) !== 'not_found' || !(reuseMs(call) > 0)) return;
  const e = failure as IgApiError;
  const gone: GoneAnswer = { status: e.status, code: e.code, message: e.message, charged: e.charged, at: now };
  await z.cache.set(goneKey(key), gone, Math.ceil(reuseMs(call) / 1000));
}

/** The kept answer of a target gone within its reuse limit, as the error it was, served again: not sent, free. */
async function goneAgain(z: ZObject, call: Call, key: string, now: number): Promise<Error | undefined> {
  const gone = (await z.cache.get(goneKey(key))) as GoneAnswer | null;
  if (!gone || typeof gone.at !== 'number' || now - gone.at >= reuseMs(call)) return undefined;
  const e = new IgApiError(gone.status, gone.code, gone.message, { creditsCharged: gone.charged });
  return asZapierError(z, servedAgain(e, gone.at), call);
}

const cachedOf = (state: FeedState, now: number): CachedFeed => ({
  head: state.head,
  ...(state.gap ? { backlog: state.gap } : {}),
  checkedAt: now,
});

/**
 * A poll of the feed `call` lists, newest first: on the populating poll (turning the Zap on) or
 * with no state (a lost one), the newest page, which Zapier records as seen; inside a period
 * already checked, nothing and no request; otherwise the posts new since the last check.
 */
export async function checkFeed(
  z: ZObject,
  bundle: Bundle,
  call: Call,
  key: string,
  everyMinutes: number,
): Promise<Item[]> {
  const cached = (await z.cache.get(key)) as CachedFeed | null;
  const now = Date.now();
  const fresh = bundle.meta?.isPopulatingDedupe || !cached || typeof cached.checkedAt !== 'number';
  if (!fresh && !isDue(cached, now, everyMinutes)) return [];
  const again = await goneAgain(z, call, key, now);
  if (again) throw again;
  const state: FeedState | undefined = fresh
    ? undefined
    : { head: cached.head, ...(cached.backlog ? { gap: cached.backlog } : {}) };
  const reading = await readFeedOf(z, bundle, call, state, ruleOf(call), now, (failure) =>
    keepIfGone(z, call, key, failure, now),
  );
  // A reading that read nothing has thrown (client.ts): a state is there.
  if (reading.state) await z.cache.set(key, cachedOf(reading.state, now), STATE_TTL_SECONDS);
  return [...reading.newer, ...reading.older];
}
