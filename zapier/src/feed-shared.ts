/**
 * A feed checked for Zaps Zapier gives no id (`bundle.meta.zap` is deprecated in
 * zapier-platform-core's types; a step run outside a Zap has none): two Zaps of one connection on
 * one feed look the same here, so no state can be one Zap's. The feed is read for the connection
 * instead, once per "check at most every N minutes" period whatever the number of its Zaps, and
 * every check hands out the posts first read within LOG_WINDOW_MS: Zapier polls each Zap at least
 * every 15 minutes, so every reading falls within the window of each Zap's next poll (twice over,
 * for a poll Zapier runs late or that failed), and Zapier's deduplication by `id`, kept per Zap,
 * drops what a Zap was handed before.
 *
 * Zapier's 100 new items a poll: a Zap's polls are at most 15 minutes apart, so what is new to it
 * at a poll was first read within the last 15 minutes. A reading reads only the pages that keep the
 * posts first read in the last 15 minutes at 100 or fewer; the rest of a burst waits for the next
 * readings (the gap of core's feed rule), none skipped.
 *
 * One reading at a time: a check takes the reading with z.cache's `nx` (set only if absent), and a
 * check that finds one under way hands out what was read so far. The populating poll of a Zap being
 * turned on reads the newest page for that Zap alone and hands it out with the posts read lately,
 * which Zapier records as seen for it: the state the other Zaps rely on is left as it was.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Call, FeedBoundary, FeedGap, FeedState, Item } from '@igdata/core';
import { requestKey } from '@igdata/core';
import { readFeedOf } from './client';
import { POLL_NEW_ITEMS_MAX, STATE_TTL_SECONDS, goneAgain, isDue, keepIfGone, pageSizeOf, ruleOf } from './feed-rule';
import type { Kept } from './kept';
import { keptOf } from './kept';

/** A post and when it was first read (ms since epoch). */
interface Logged {
  at: number;
  post: Item;
}

/** What `z.cache` keeps for one connection and feed. */
interface SharedFeed {
  head: FeedBoundary;
  gap?: FeedGap;
  /** When the feed was last read: the "check at most every N minutes" rule. */
  readAt: number;
  /** The posts first read within LOG_WINDOW_MS, newest reading first. */
  log: Logged[];
}

const MINUTE = 60_000;
/** Zapier's longest polling interval (its Free plan's). */
const ZAPIER_LONGEST_INTERVAL_MS = 15 * MINUTE;
const LOG_WINDOW_MS = 2 * ZAPIER_LONGEST_INTERVAL_MS;
/** Longer than a step may run (30 s): a reading whose step died frees the feed after this. */
const READING_LOCK_SECONDS = 60;

const isShared = (s: unknown): s is SharedFeed =>
  typeof s === 'object' &&
  s !== null &&
  typeof (s as SharedFeed).readAt === 'number' &&
  typeof (s as SharedFeed).head === 'object' &&
  Array.isArray((s as SharedFeed).log);

const within = (state: SharedFeed, now: number, ms: number) => state.log.filter((l) => now - l.at < ms);

/** Each post once (a reading cut short passes posts given out before: core's feed rule). */
function once(posts: Item[]): Item[] {
  const seen = new Set<unknown>();
  return posts.filter((p) => (seen.has(p.id) ? false : (seen.add(p.id), true)));
}

const handedOut = (state: SharedFeed | null, now: number): Item[] =>
  state ? once(within(state, now, LOG_WINDOW_MS).map((l) => l.post)) : [];

export async function checkShared(z: ZObject, bundle: Bundle, call: Call, everyMinutes: number): Promise<Item[]> {
  const kept = keptOf(z, bundle, false);
  const name = `feed-shared:${requestKey(call.endpoint, call.params)}`;
  const now = Date.now();
  const populating = !!bundle.meta?.isPopulatingDedupe;
  const stateOf = async () => {
    const s = await kept.get<SharedFeed>(name);
    return isShared(s) ? s : null;
  };
  let state = await stateOf();
  if (state && !populating && !isDue(state.readAt, now, everyMinutes)) return handedOut(state, now);
  const again = await goneAgain(z, bundle, call, now);
  if (again) throw again;
  if (state && populating) return populate(z, bundle, call, state, now);
  const lock = `${name}:reading`;
  if (!(await kept.set(lock, now, READING_LOCK_SECONDS, true))) return handedOut(state, now);
  try {
    state = await stateOf(); // another check may have read since
    if (state && populating) return await populate(z, bundle, call, state, now);
    if (state && !isDue(state.readAt, now, everyMinutes)) return handedOut(state, now);
    return await read(z, bundle, call, kept, name, state, now, populating);
  } finally {
    await kept.delete(lock);
  }
}

/** A Zap turned on: the newest page as it is now, and the posts handed out lately; nothing kept. */
async function populate(z: ZObject, bundle: Bundle, call: Call, state: SharedFeed, now: number) {
  const rule = { ...ruleOf(call), maxPages: 1 };
  const top = await readFeedOf(z, bundle, call, undefined, rule, now, (f) => keepIfGone(z, bundle, call, f, now));
  return once([...top.newer, ...handedOut(state, now)]);
}

async function read(
  z: ZObject,
  bundle: Bundle,
  call: Call,
  kept: Kept,
  name: string,
  state: SharedFeed | null,
  now: number,
  populating: boolean,
): Promise<Item[]> {
  const rule = ruleOf(call);
  const recent = state ? within(state, now, ZAPIER_LONGEST_INTERVAL_MS).length : 0;
  const pages = Math.min(rule.maxPages ?? 1, Math.floor((POLL_NEW_ITEMS_MAX - recent) / pageSizeOf(call)));
  // The last 15 minutes hold Zapier's 100 already: read again when they have aged out.
  if (state && pages < 1) return handedOut(state, now);
  const from: FeedState | undefined = state
    ? { head: state.head, ...(state.gap ? { gap: state.gap } : {}) }
    : undefined;
  const reading = await readFeedOf(z, bundle, call, from, { ...rule, maxPages: Math.max(1, pages) }, now, (f) =>
    keepIfGone(z, bundle, call, f, now),
  );
  const posts = [...reading.newer, ...reading.older];
  // The first reading when a Zap is turned on is what Zapier records as seen: news for no Zap.
  const fresh = !state && populating ? [] : posts.map((post) => ({ at: now, post }));
  const log = [...fresh, ...(state?.log ?? [])].filter((l) => now - l.at < LOG_WINDOW_MS);
  if (reading.state) {
    const next: SharedFeed = {
      head: reading.state.head,
      ...(reading.state.gap ? { gap: reading.state.gap } : {}),
      readAt: now,
      log,
    };
    await kept.set(name, next, STATE_TTL_SECONDS);
  }
  return state ? handedOut({ ...state, log }, now) : posts;
}
