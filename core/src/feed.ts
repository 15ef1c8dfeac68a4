/**
 * Monitoring a feed, the spec's way (§4 behaviour rule 4): a list of posts newest first
 * (`hashtag/recent`, `location/posts`, `profile/posts`) is read from the top until the posts read
 * last time, and only what is new comes out. Written once for every product (the n8n trigger, the
 * Sheets watch, a Zapier polling trigger); a product keeps the state between readings and decides
 * what to do with the posts. The rule:
 *
 * - The first reading reads the top page and records where the feed stands (feed-boundary.ts);
 *   the product decides whether its posts come out (a watch's first rows) or not (n8n's first poll).
 * - A later reading reads from the top until the boundary, page by page (core's page rule with
 *   "read before" as its `handled` predicate: pages are read whole, so older pinned posts at a
 *   profile's head are passed over, not taken for the end). A deleted last post does not matter:
 *   older posts are recognised by their time.
 * - Every reading is bounded (pages, credits or both). A reading the bound or a failed page cuts
 *   short leaves a *gap*: the cursor of the page it did not read and the boundary the gap ends at.
 *   The next reading reads the gap, and only the gap: its posts are older than every post given
 *   out since, and the top waits for the reading after (reading it too would pay for a page the
 *   next reading reads anyway). So there is one gap at most, each page is read once, and nothing
 *   is skipped.
 * - Only when the gap's first page fails (an expired cursor, a provider failing on that page) does a
 *   reading go to the top instead, so the feed never stalls on it; the gap is tried again after the
 *   top. If the top is cut short then, the one gap left reaches down to the old gap's end and passes
 *   posts given out before: those are dropped by `recent` ids where the product keeps them (n8n), by
 *   the product's own dedupe otherwise (the watch's sheet, Zapier's).
 * - `topFirst` makes that order every reading's: the top, then the gap in what the bound leaves.
 *   A product whose readings are its users' only view of the feed (a Zapier trigger checked every
 *   N minutes) brings a new post out at the next reading even while a burst's gap is being read;
 *   the price is the top's page at each reading the gap lasts (one page more than the gap first),
 *   and a top cut short again passes the pages given out before, as above.
 * - A failed page keeps what was read before it, and its cost (a billed error) counts. Nothing here
 *   throws for a page: a product whose reading read nothing decides whether that is an error.
 *
 * `readFeed` is the rule as a generator of page requests (the page at a cursor), for a product that
 * fetches pages its own way; `feedOp` is the same reading as a core operation sending each page with
 * `send`, for driveSync/driveAsync.
 */
import { send } from './call';
import { IgValidationError, isIgError } from './errors';
import type { FeedBoundary } from './feed-boundary';
import { boundaryOf, postId, reached } from './feed-boundary';
import type { Item, PageLike, PagePlan, PagingProgress } from './page-rule';
import { NOTHING_READ, afterPage, capBefore, withCursor } from './page-rule';
import type { Call, ClientConfig, Op } from './types';

/** The unread part a reading cut short left: the page to read next and where the part ends. */
export interface FeedGap {
  cursor: string;
  until: FeedBoundary;
}

/** What a product keeps between readings of one feed. */
export interface FeedState {
  /** Where a reading from the top stops. */
  head: FeedBoundary;
  gap?: FeedGap;
  /** Ids given out lately, newest first (only with `recentMax`): a post that comes back is dropped. */
  recent?: string[];
}

export interface FeedOptions {
  /** At most this many pages a reading. */
  maxPages?: number;
  /** No page is started that would take the reading's spend above this, at `pageCost` a page. */
  maxCredits?: number;
  pageCost?: number;
  /** Ids of recent posts the boundary keeps besides those at its newest instant (default 0). */
  seenMax?: number;
  /** Ids given out that the state keeps to drop repeats (default 0: the product dedupes, or need not). */
  recentMax?: number;
  /** Read the top before the gap (default: the gap first, the top at the reading after; see the top of this file). */
  topFirst?: boolean;
}

/** What a reading asks for: the page at `cursor` (null: the top). */
export interface FeedWant {
  cursor: string | null;
}

/** What the product answers: the page, or why it failed (an Ig error's `charged` is counted). */
export type FeedAnswer = PageLike | Error;

export interface FeedReading {
  /** From the gap, newest first: older than every post given out before. */
  older: Item[];
  /** From the top, newest first (the first reading: the top page as it is, pinned posts included). */
  newer: Item[];
  /** The state to keep; undefined only after a first reading that read nothing. */
  state: FeedState | undefined;
  pages: number;
  credits: number;
  /** A gap remains: the next reading reads it. */
  behind: boolean;
  /** The gap in `state` is a new one, just below `newer` (not the gap this reading started with). */
  newGap: boolean;
  /** What stopped the reading before its end: a bound, or a failed page (`failure`). */
  short?: 'pages' | 'credits' | 'error';
  failure?: Error;
}

/** A run of pages from one cursor until a boundary. */
interface Stretch {
  posts: Item[];
  /** Read to the boundary or to the feed's end. */
  done: boolean;
  /** Where to go on when not done (the first page's cursor when nothing was read). */
  next: string | null;
  short?: FeedReading['short'];
  failure?: Error;
  /** Its first page failed: nothing of it was read. */
  failedFirst?: boolean;
}

interface Reader {
  options: FeedOptions;
  read: PagingProgress;
  /** Ids taken in this reading or given out lately: not taken again. */
  skip: Set<string>;
}

/** The bound that stopped a reading (a reading has no item cap). */
const bound = (stop: string): 'pages' | 'credits' => (stop === 'credits' ? 'credits' : 'pages');
const chargedOf = (e: Error): number => (isIgError(e) ? e.charged : 0);
/** A page by its shape: an error from another realm (the Apps Script stand-in's) fails `instanceof Error`. */
const isPage = (a: FeedAnswer): a is PageLike =>
  typeof a === 'object' && a !== null && Array.isArray((a as PageLike).items);

function* stretch(r: Reader, from: string | null, until: FeedBoundary): Generator<FeedWant, Stretch, FeedAnswer> {
  const { maxPages, maxCredits, pageCost = 0 } = r.options;
  const plan: PagePlan = {
    cap: { maxPages, maxCredits, handled: (p) => reached(p, until) },
    pageCost,
    paginated: true,
  };
  const posts: Item[] = [];
  for (let cursor = from, first = true; ; first = false) {
    const capped = capBefore(plan, r.read);
    if (capped) return { posts, done: false, next: cursor, short: bound(capped) };
    const answer = yield { cursor };
    if (!isPage(answer)) {
      r.read = { ...r.read, credits: r.read.credits + chargedOf(answer) };
      return { posts, done: false, next: cursor, short: 'error', failure: answer, failedFirst: first };
    }
    const decision = afterPage(plan, r.read, answer);
    r.read = decision.read;
    for (const p of decision.taken) {
      const id = postId(p);
      if (id && r.skip.has(id)) continue;
      r.skip.add(id);
      posts.push(p);
    }
    if ('next' in decision) cursor = decision.next;
    else if (decision.stop === 'until' || decision.stop === 'end') return { posts, done: true, next: null };
    else return { posts, done: false, next: decision.resume, short: bound(decision.stop) };
  }
}

/** Every page costs credits: a reading without a bound is a bug, as a walk without a cap is (page-rule.ts). */
function checkBound(o: FeedOptions): void {
  if (o.maxPages === undefined && o.maxCredits === undefined)
    throw new IgValidationError('limit', 'set: a number of pages or credits', 'no limit');
  for (const name of ['maxPages', 'maxCredits'] as const) {
    const v = o[name];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0))
      throw new IgValidationError(name, 'a whole number of 0 or more', String(v));
  }
}

/** The first reading: the top page, and the boundary it sets. */
function* first(r: Reader): Generator<FeedWant, FeedReading, FeedAnswer> {
  const { maxPages, maxCredits, pageCost = 0 } = r.options;
  const none = { older: [], newer: [], state: undefined, pages: 0, behind: false, newGap: false };
  const capped = capBefore({ cap: { maxPages, maxCredits }, pageCost, paginated: true }, NOTHING_READ);
  if (capped) return { ...none, credits: 0, short: bound(capped) };
  const answer = yield { cursor: null };
  if (!isPage(answer)) return { ...none, credits: chargedOf(answer), short: 'error', failure: answer };
  const newer = answer.items;
  const state: FeedState = { head: boundaryOf(newer, undefined, r.options.seenMax ?? 0) };
  const recent = newer
    .map(postId)
    .filter(Boolean)
    .slice(0, r.options.recentMax ?? 0);
  if (recent.length) state.recent = recent;
  return { ...none, newer, state, pages: 1, credits: answer.creditsCharged };
}

/** One reading of a feed (see the top of this file); `state` undefined: the first. */
export function* readFeed(
  state: FeedState | undefined,
  options: FeedOptions,
): Generator<FeedWant, FeedReading, FeedAnswer> {
  checkBound(options);
  const r: Reader = { options, read: NOTHING_READ, skip: new Set(state?.recent ?? []) };
  if (!state) return yield* first(r);
  let { head, gap } = state;
  let older: Item[] = [];
  let newer: Item[] = [];
  let newGap = false;
  let end: Stretch | undefined;
  const resuming = gap !== undefined && !options.topFirst;
  if (gap && resuming) {
    end = yield* stretch(r, gap.cursor, gap.until);
    older = end.posts;
    if (!end.failedFirst) gap = end.done ? undefined : { cursor: end.next as string, until: gap.until };
  }
  if (!resuming || end?.failedFirst) {
    // No gap, its first page failed, or the top first: from the top.
    end = yield* stretch(r, null, head);
    newer = end.posts;
    if (newer.length) head = boundaryOf(newer, head, options.seenMax ?? 0);
    if (!end.done && end.next !== null) {
      // Cut short after a page: the rest down to the old boundary (or to the old gap's end) is the gap.
      gap = { cursor: end.next, until: gap ? gap.until : state.head };
      newGap = true;
    } else if (end.done && gap) {
      end = yield* stretch(r, gap.cursor, gap.until);
      older = end.posts;
      if (!end.failedFirst) gap = end.done ? undefined : { cursor: end.next as string, until: gap.until };
    }
  }
  const next: FeedState = { head, ...(gap ? { gap } : {}) };
  const recentMax = options.recentMax ?? 0;
  if (recentMax)
    next.recent = [...newer, ...older]
      .map(postId)
      .concat(state.recent ?? [])
      .filter(Boolean)
      .slice(0, recentMax);
  const reading: FeedReading = {
    older,
    newer,
    state: next,
    pages: r.read.pages,
    credits: r.read.credits,
    behind: gap !== undefined,
    newGap,
  };
  if (end?.short) reading.short = end.short;
  if (end?.failure) reading.failure = end.failure;
  return reading;
}

/**
 * A reading of the feed `call` lists, each page sent with `send` (its retries included). A failed
 * page's Ig error is the reading's `failure`; anything else thrown is a bug and is thrown on.
 */
export function* feedOp(
  config: ClientConfig,
  call: Call,
  state: FeedState | undefined,
  options: FeedOptions,
): Op<FeedReading> {
  const reading = readFeed(state, options);
  for (let s = reading.next(); ;) {
    if (s.done) return s.value;
    let answer: FeedAnswer;
    try {
      answer = yield* send(config, withCursor(call, s.value.cursor));
    } catch (e) {
      if (!isIgError(e)) throw e;
      answer = e;
    }
    s = reading.next(answer);
  }
}
