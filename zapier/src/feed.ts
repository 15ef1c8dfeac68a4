/**
 * A trigger's check of a feed on core's feed rule (core/src/feed.ts, read by client.ts
 * `readFeedOf`): newest first down to the posts handled last, pinned older posts and a deleted last
 * post recognised by time, a burst larger than a check's pages read to its end over the next checks,
 * no page twice. What is Zapier's own: where the feed stood, kept in `z.cache` for the connection
 * (kept.ts), and the "check at most every N minutes" rule (feed-rule.ts).
 *
 * Where Zapier gives the Zap's id, the state is the Zap's own (this file). Where it gives none, two
 * Zaps of one connection on one feed cannot be told apart: the feed is read once for all of them
 * and each check hands out what was read lately (feed-shared.ts).
 *
 * The top is read before the gap a burst left (core's `topFirst`): a check is the Zap's only view
 * of the feed, so a post newer than the burst comes out at the next check, for one page a check
 * more while the gap lasts. Zapier deduplicates what a check returns by `id`, so the state keeps no
 * ids against repeats (core's `recentMax` 0).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Call, FeedBoundary, FeedGap, FeedState, Item } from '@igdata/core';
import { requestKey } from '@igdata/core';
import { readFeedOf } from './client';
import { checkShared } from './feed-shared';
import { STATE_TTL_SECONDS, goneAgain, isDue, keepIfGone, ruleOf } from './feed-rule';
import { keptOf, zapIdOf } from './kept';

/**
 * What `z.cache` keeps for one Zap and feed. The names are those it had before the rule moved to
 * core (`backlog` is core's gap).
 */
interface CachedFeed {
  head: FeedBoundary;
  backlog?: FeedGap;
  /** When the feed was last read (ms since epoch): the "check at most every N minutes" rule. */
  checkedAt: number;
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
export async function checkFeed(z: ZObject, bundle: Bundle, call: Call, everyMinutes: number): Promise<Item[]> {
  if (zapIdOf(bundle) === undefined) return checkShared(z, bundle, call, everyMinutes);
  const kept = keptOf(z, bundle);
  const name = `feed:${requestKey(call.endpoint, call.params)}`;
  const cached = await kept.get<CachedFeed>(name);
  const now = Date.now();
  const fresh = bundle.meta?.isPopulatingDedupe || !cached || typeof cached.checkedAt !== 'number';
  if (!fresh && !isDue(cached.checkedAt, now, everyMinutes)) return [];
  const again = await goneAgain(z, bundle, call, now);
  if (again) throw again;
  const state: FeedState | undefined = fresh
    ? undefined
    : { head: cached.head, ...(cached.backlog ? { gap: cached.backlog } : {}) };
  const reading = await readFeedOf(z, bundle, call, state, ruleOf(call), now, (failure) =>
    keepIfGone(z, bundle, call, failure, now),
  );
  // A reading that read nothing has thrown (client.ts): a state is there.
  if (reading.state) await kept.set(name, cachedOf(reading.state, now), STATE_TTL_SECONDS);
  return [...reading.newer, ...reading.older];
}
