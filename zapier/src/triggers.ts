/**
 * The polling triggers: new posts in a hashtag, by an account, at a location, each a feed of the
 * registry read by feed.ts. What a check does:
 * - a sample (`isLoadingSample`): the newest page, no paging, nothing remembered;
 * - the populating poll (`isPopulatingDedupe`, when the Zap is turned on) or a lost state: the
 *   newest page, which Zapier records as seen; where the feed stands is kept in `z.cache`;
 * - a check before its "Check at most every N minutes" period is over: [] and no request at all;
 * - otherwise: the new posts since the last check, newest first, page after page while a page ends
 *   in a new one (at most MAX_PAGES a check; a larger burst goes on at the next check).
 * Zapier deduplicates by `id` (the post's stable media id).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { DocumentedEndpoint } from '@igdata/core';
import { costRange, documentedEndpoints, prepare, requestKey } from '@igdata/core';
import { lookUp } from './client';
import { asZapierError } from './errors';
import type { FeedState, Page } from './feed';
import { checkFeed, isDue, markFeed } from './feed';
import { inputOf, paramField, wholeNumberOf } from './fields';
import { sampleOf } from './samples';

/** The feeds offered as triggers: registry endpoints whose items are posts, newest first. */
const FEEDS: Record<string, { key: string; label: string; what: string }> = {
  'hashtag/recent': { key: 'new_post_in_hashtag', label: 'New Post in Hashtag', what: 'a hashtag' },
  'profile/posts': { key: 'new_post_by_account', label: 'New Post by Account', what: 'an account' },
  'location/posts': { key: 'new_post_at_location', label: 'New Post at Location', what: 'a location' },
};

/**
 * The default of "Check at most every N minutes": Zapier's longest polling interval (15 minutes,
 * its Free plan's), so a trigger costs the same on every plan: 96 checks a day. README argues it.
 */
export const EVERY_DEFAULT = 15;
/** Pages one check may read: a burst of up to this many pages is emitted at once, a larger one over several checks. */
export const MAX_PAGES = 5;
/** Zapier's polling intervals by plan, in minutes. */
const ZAPIER_INTERVALS = [1, 2, 5, 15];
const DAY_MINUTES = 1440;
/** How long the state is kept after the last check: a Zap off for longer starts from the newest page again. */
const STATE_TTL_SECONDS = 30 * 24 * 3600;

const n = (x: number) => x.toLocaleString('en-US');

/** What a day and a month (30 days) of checks that find less than a page of new posts cost. */
export function costTable(e: DocumentedEndpoint): string {
  const [page] = costRange(e);
  const at = (minutes: number) =>
    `${n((DAY_MINUTES / minutes) * page)} credits a day, ${n((DAY_MINUTES / minutes) * page * 30)} a month`;
  const plans = ZAPIER_INTERVALS.map((i) => `every ${i} min: ${at(i)}`).join('; ');
  return (
    `Each check reads the newest page (${page} credit${page === 1 ? '' : 's'}), and further pages only while ` +
    `they hold new posts. Zapier checks every 1 to 15 minutes by plan; unlimited, that is ${plans}. ` +
    `With the default "Check at most every ${EVERY_DEFAULT} minutes": ${at(EVERY_DEFAULT)}, on any plan.`
  );
}

const everyField = {
  key: 'every_minutes',
  label: 'Check at most every N minutes',
  helpText:
    'Every check costs credits, even when nothing is new. Zapier checks every 1 to 15 minutes by plan; this ' +
    `allows one check in each period of N minutes, and a check sooner returns nothing and costs nothing. Default ` +
    `${EVERY_DEFAULT} (96 checks a day on any plan); 1 lets every check of Zapier through.`,
  required: false,
  type: 'integer' as const,
  default: String(EVERY_DEFAULT),
};

const everyOf = (bundle: Bundle) => wholeNumberOf(bundle, 'every_minutes', EVERY_DEFAULT, DAY_MINUTES);

function perform(e: DocumentedEndpoint) {
  return async (z: ZObject, bundle: Bundle): Promise<Record<string, unknown>[]> => {
    let call;
    try {
      call = prepare(e.id, inputOf(e, bundle));
    } catch (err) {
      throw asZapierError(z, err, undefined);
    }
    const first = call;
    const fetchPage = async (cursor: string | null): Promise<Page> => {
      const answer = await lookUp(z, bundle, cursor === null ? first : prepare(e.id, { ...first.params, cursor }));
      return { items: answer.items, nextCursor: answer.nextCursor };
    };
    const meta = bundle.meta ?? ({} as Bundle['meta']);
    if (meta.isLoadingSample) {
      const page = await fetchPage(null);
      return meta.limit > 0 ? page.items.slice(0, meta.limit) : page.items;
    }
    // One state per Zap and feed: two Zaps on one hashtag each see every post.
    const key = `igdata-feed:${meta.zap?.id ?? 'no-zap'}:${requestKey(call.endpoint, call.params)}`;
    const state = (await z.cache.get(key)) as FeedState | null;
    const now = Date.now();
    if (meta.isPopulatingDedupe || !state || typeof state.checkedAt !== 'number') {
      const marked = await markFeed(fetchPage, now);
      await z.cache.set(key, marked.state, STATE_TTL_SECONDS);
      return marked.posts;
    }
    if (!isDue(state, now, everyOf(bundle))) return [];
    const checked = await checkFeed(state, fetchPage, MAX_PAGES, now);
    await z.cache.set(key, checked.state, STATE_TTL_SECONDS);
    return checked.posts;
  };
}

function trigger(e: DocumentedEndpoint) {
  const feed = FEEDS[e.id];
  return {
    key: feed.key,
    noun: 'Post',
    display: {
      label: feed.label,
      description: `Triggers when ${feed.what} has a new public post. ${costTable(e)}`.slice(0, 1000),
    },
    operation: {
      type: 'polling' as const,
      inputFields: [...e.params.filter((p) => p.kind !== 'cursor').map(paramField), everyField],
      perform: perform(e),
      sample: sampleOf(e.id),
    },
  };
}

export const triggers = Object.fromEntries(
  documentedEndpoints.filter((e) => FEEDS[e.id]).map((e) => [FEEDS[e.id].key, trigger(e)]),
);
