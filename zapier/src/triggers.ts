/**
 * The polling triggers: new posts in a hashtag, by an account, at a location, each a feed of the
 * registry read by core's feed rule (feed.ts: the state in `z.cache`, the check's period). What a
 * check does:
 * - a sample (`isLoadingSample`): the newest page, no paging, nothing remembered;
 * - the populating poll (`isPopulatingDedupe`, when the Zap is turned on) or a lost state: the
 *   newest page, which Zapier records as seen;
 * - a check before its "Check at most every N minutes" period is over: [] and no request at all;
 * - otherwise: the new posts since the last check, newest first, page after page while a page ends
 *   in a new one (at most 100 new posts a check, Zapier's limit: feed.ts; a larger burst goes on at
 *   the next checks).
 * Zapier deduplicates by `id` (the post's stable media id). Each post comes with the spreadsheet-safe
 * twins of its stranger text (`caption_for_sheets`...: outputs.ts), and the output fields label them.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { DocumentedEndpoint } from '@igdata/core';
import { costRange, counted, documentedEndpoints, plural } from '@igdata/core';
import { lookUp } from './client';
import { checkFeed } from './feed';
import { callOf, paramField, wholeNumberOf } from './fields';
import { outputFieldsOf, withTwins } from './outputs';
import { changeSample, sampleOf } from './samples';
import { CHANGE_OUTPUT_FIELDS, checkChange } from './change';
import { changeCost, changeInputFields } from './change-fields';

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
/** Zapier's polling intervals by plan, in minutes. */
const ZAPIER_INTERVALS = [1, 2, 5, 15];
const DAY_MINUTES = 1440;

const n = (x: number) => x.toLocaleString('en-US');

/** What a day and a month (30 days) of checks that find less than a page of new posts cost. */
export function costTable(e: DocumentedEndpoint): string {
  const [page] = costRange(e);
  const at = (minutes: number) =>
    `${counted((DAY_MINUTES / minutes) * page, 'credit')} a day, ${n((DAY_MINUTES / minutes) * page * 30)} a month`;
  const plans = ZAPIER_INTERVALS.map((i) => `every ${i} min: ${at(i)}`).join('; ');
  return (
    `Each check reads the newest page (${plural(page, 'credit')}), and further pages only while ` +
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
    const call = callOf(z, e, bundle);
    const meta = bundle.meta ?? ({} as Bundle['meta']);
    if (meta.isLoadingSample) {
      const { items } = await lookUp(z, bundle, call);
      return meta.limit > 0 ? items.slice(0, meta.limit) : items;
    }
    // Kept for the connection, per Zap where Zapier says which (feed.ts): every Zap sees every post.
    return checkFeed(z, bundle, call, everyOf(bundle));
  };
}

function trigger(e: DocumentedEndpoint) {
  const feed = FEEDS[e.id];
  const sample = sampleOf(e);
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
      perform: withTwins(e, perform(e)),
      sample,
      outputFields: outputFieldsOf(e, sample),
    },
  };
}

/** "New Account Change": a watched account's number crossing a rule (change.ts, change-fields.ts). */
const accountChange = {
  key: 'new_account_change',
  noun: 'Account Change',
  display: {
    label: 'New Account Change',
    description:
      "Triggers when a watched account's number crosses your rule (followers down 5% over 7 days, engagement " +
      'rate under 1%...): once when it becomes true, again only after it was false, with before, after and the ' +
      `change. ${changeCost()}`,
  },
  operation: {
    type: 'polling' as const,
    inputFields: changeInputFields,
    perform: checkChange,
    sample: changeSample(),
    outputFields: CHANGE_OUTPUT_FIELDS,
  },
};

export const triggers = {
  ...Object.fromEntries(documentedEndpoints.filter((e) => FEEDS[e.id]).map((e) => [FEEDS[e.id].key, trigger(e)])),
  [accountChange.key]: accountChange,
};
