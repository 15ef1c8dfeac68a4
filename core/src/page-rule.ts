/**
 * The next-page rule, written once. Every paging loop of the products (one list, many lists at
 * once, the n8n trigger's feed, the Sheets bulk run replaying cached pages) asks these two pure
 * functions what to do; none of them decides on its own. As in openai-node's pagination, a page
 * knows its items and its next request; here every page costs credits, so a cap is mandatory and
 * the answer says which cap stopped the walk.
 *
 * The empty-page rule: a page with no items but a `next_cursor` is NOT the end. The spec
 * (../shared/spec/service-api.md §4, behaviour rule 3) says the last page is the one whose
 * `next_cursor` is null, and cursors are opaque: a page can come back empty because the service
 * dropped what it filtered out (removed followers, expired stories) and still have more behind it.
 * Stopping on an empty page would cut lists short without saying so. What a service that kept
 * answering empty pages could cost is bounded by the mandatory cap, like any other walk.
 */
import type { CreditBudget } from './budget';
import { estimateCost } from './cost';
import type { AnyIgError } from './errors';
import { IgValidationError } from './errors';
import { plural } from './plural';
import type { Call } from './types';

export type Item = Record<string, unknown>;

export interface PagingCap {
  maxItems?: number;
  maxPages?: number;
  /** Never start a page that would take this walk's spend above this. */
  maxCredits?: number;
  /** A budget shared with other calls (e.g. an execution-wide credit cap); a refusal stops as 'credits'. */
  budget?: CreditBudget;
  /**
   * Whether an item was handled before (the trigger's posts already seen, §4 behaviour rule 4).
   * Handled items are not kept, wherever they are on a page, and a page whose last item was
   * handled ends the walk ('until'). Pages are read whole because a feed is not strictly newest
   * first: a profile shows up to three older pinned posts at its head, so an old post only marks
   * the end of the new ones at a page's end. Not a cap by itself: one of the limits above is
   * still required.
   */
  handled?: (item: Item) => boolean;
}

/**
 * Why a walk stopped. `end`: the list was read to its last page. `items`, `pages`, `credits`: that
 * cap. `until`: a page ended in an item handled before. `time`: the caller ran out of time before sending the
 * next page (a Sheets cell's 30 s). `error`: a page failed; the pages before it are kept.
 */
export type StopReason = 'end' | 'items' | 'pages' | 'credits' | 'until' | 'time' | 'error';

/** What a walk has read so far. */
export interface PagingProgress {
  pages: number;
  items: number;
  credits: number;
}

export const NOTHING_READ: PagingProgress = Object.freeze({ pages: 0, items: 0, credits: 0 });

/** What the rule needs of a page: its items, its next cursor and what it cost. */
export interface PageLike {
  items: Item[];
  nextCursor: string | null;
  creditsCharged: number;
}

/** What the rule needs to know about one list: its caps, the estimated cost of a page, and whether it pages at all. */
export interface PagePlan {
  cap: PagingCap;
  pageCost: number;
  paginated: boolean;
}

const COUNT_CAPS = ['maxItems', 'maxPages', 'maxCredits'] as const;

/** The walk of one list, with its cap checked (throws IgValidationError: a walk without a cap is a bug). */
export function planPaging(call: Call, cap: PagingCap): PagePlan {
  if (cap.budget === undefined && COUNT_CAPS.every((name) => cap[name] === undefined)) {
    throw new IgValidationError('limit', 'set: a number of items, pages or credits', 'no limit');
  }
  for (const name of COUNT_CAPS) {
    const v = cap[name];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0))
      throw new IgValidationError(name, 'a whole number of 0 or more', String(v));
  }
  return { cap, pageCost: estimateCost(call.endpoint, call.params).credits, paginated: call.endpoint.paginated };
}

/**
 * Before a page is sent: the cap that forbids it, or null. The shared budget is not asked here:
 * reserving from it is a side effect, done by the loop that sends the page.
 */
export function capBefore(plan: PagePlan, read: PagingProgress): 'items' | 'pages' | 'credits' | null {
  const { cap } = plan;
  if (cap.maxItems !== undefined && read.items >= cap.maxItems) return 'items';
  if (cap.maxPages !== undefined && read.pages >= cap.maxPages) return 'pages';
  if (cap.maxCredits !== undefined && read.credits + plan.pageCost > cap.maxCredits) return 'credits';
  return null;
}

/** What to do after a page: the items taken from it, then the next page's cursor or why to stop. */
export type PageDecision =
  /** Take `taken`, then ask for the page at `next`. */
  | { taken: Item[]; read: PagingProgress; next: string }
  /** Take `taken` and stop; `resume` is the cursor after this page (null at the end of the list). */
  | { taken: Item[]; read: PagingProgress; stop: StopReason; resume: string | null };

/**
 * After a page: which of its items to take, then the cursor of the next page or why to stop.
 * Items cut from a page by the item cap are lost to a resume at `resume`, so a cut page stops as
 * 'items' even when it was the last one (more existed than were taken).
 */
export function afterPage(plan: PagePlan, read: PagingProgress, page: PageLike): PageDecision {
  const { cap } = plan;
  const { handled } = cap;
  const fresh = handled ? page.items.filter((item) => !handled(item)) : page.items;
  const reached = handled !== undefined && page.items.length > 0 && handled(page.items[page.items.length - 1]);
  const wanted = fresh.length;
  const room = cap.maxItems === undefined ? wanted : Math.max(0, cap.maxItems - read.items);
  const taken = fresh.slice(0, Math.min(wanted, room));
  const after: PagingProgress = {
    pages: read.pages + 1,
    items: read.items + taken.length,
    credits: read.credits + page.creditsCharged,
  };
  const cursor = plan.paginated ? page.nextCursor : null;
  // In this order: the item cap cut the page, the page ended in a handled item, the list ended, a cap forbids the next
  // page.
  const stop = room < wanted ? 'items' : reached ? 'until' : cursor === null ? 'end' : capBefore(plan, after);
  if (stop) return { taken, read: after, stop, resume: cursor };
  return { taken, read: after, next: cursor as string }; // not 'end': there is a next page
}

/** The call for the page at `cursor` (null: the first page). The one place a cursor is put on a call. */
export function withCursor(call: Call, cursor: string | null): Call {
  const params = { ...call.params };
  if (cursor === null) delete params.cursor;
  else params.cursor = cursor;
  return { endpoint: call.endpoint, params };
}

/** What a walk of one list gives back. */
export interface PagingResult {
  items: Item[];
  pages: number;
  creditsCharged: number;
  creditsRemaining?: number;
  stoppedBy: StopReason;
  /** Where to resume; null when the list was read to its end. */
  nextCursor: string | null;
  /** The service's request id of each page, in order (for support and n8n's meta). */
  requestIds: string[];
  /** What stopped the walk when stoppedBy is 'error'. */
  error?: AnyIgError;
}

/** A sentence for the stop reason, for n8n notices and Sheets notes. */
export function describeStop(r: PagingResult, cap: PagingCap): string {
  const pages = plural(r.pages, 'page');
  const items = plural(r.items.length, 'item');
  const credits = plural(r.creditsCharged, 'credit');
  switch (r.stoppedBy) {
    case 'end':
      return `Read all ${items} in ${pages}, ${credits}.`;
    case 'items':
      return `Stopped at the limit of ${plural(cap.maxItems ?? 0, 'item')} (${pages}, ${credits}); more are available.`;
    case 'pages':
      return `Stopped at the limit of ${plural(cap.maxPages ?? 0, 'page')} (${items}, ${credits}); more are available.`;
    case 'credits':
      return (
        `Stopped at the credit cap of ${cap.maxCredits} (${r.creditsCharged} spent, ${items}); ` + 'more are available.'
      );
    case 'until':
      return `Read up to the items already seen: ${plural(r.items.length, 'new item')} in ${pages}, ${credits}.`;
    case 'time':
      return `Stopped for lack of time after ${pages} (${items}, ${credits}); ` + 'more are available.';
    case 'error':
      return `Stopped after ${pages} (${items} kept, ${credits}): ${r.error?.message ?? 'a page failed'}`;
  }
}
