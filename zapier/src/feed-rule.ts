/**
 * What both ways of keeping a trigger's feed share (feed.ts: per Zap; feed-shared.ts: per
 * connection, when Zapier gives no Zap id): how much one check reads, when a check is due, and
 * the memory of a target gone.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Call, FeedOptions } from '@igdata/core';
import { IgApiError, errorCode, isIgError, requestKey, servedAgain } from '@igdata/core';
import { asZapierError } from './errors';
import { keptOf } from './kept';

/** Pages one check may read at most: a burst up to this is emitted at once, a larger one over several checks. */
const MAX_PAGES = 5;
/**
 * Zapier's throttle of a polling trigger: "a default limit of 100 new items recognized per poll
 * after deduplication"; beyond it the Zap's runs are held and the user gets an email
 * (docs.zapier.com/platform/build/troubleshoot-throttles). A check returns at most this many new posts.
 */
export const POLL_NEW_ITEMS_MAX = 100;
/** Ids of the most recent posts the boundary keeps (posts without a time are known by these alone). */
const SEEN_MAX = 100;

/**
 * The rule of one feed: as many pages as fit in Zapier's 100 new items at the registry's page size
 * (a hashtag's 30: 3 pages, a location's 24: 4, an account's 12: the 5 of MAX_PAGES), so no check
 * has its runs held; the rest of a burst is read at the next checks.
 */
export function ruleOf(call: Call): FeedOptions {
  const maxPages = Math.max(1, Math.min(MAX_PAGES, Math.floor(POLL_NEW_ITEMS_MAX / pageSizeOf(call))));
  return { maxPages, seenMax: SEEN_MAX, topFirst: true };
}
export const pageSizeOf = (call: Call): number => call.endpoint.pageSize ?? POLL_NEW_ITEMS_MAX;

/** How long a feed's state is kept after the last check: a Zap off for longer starts from the newest page again. */
export const STATE_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Whether a check is due: at most one in each `everyMinutes` period of the clock. Periods, not
 * "N minutes since the last": with Zapier polling every 1, 2, 5 or 15 minutes each period gets
 * exactly one check, so the cost per day is 1,440 / N pages of nothing new, whatever the plan.
 */
export function isDue(checkedAt: number, now: number, everyMinutes: number): boolean {
  const period = everyMinutes * 60_000;
  return Math.floor(now / period) > Math.floor(checkedAt / period);
}

/**
 * A feed whose target was gone at a check (private, deleted or nonexistent: the service's 404, which
 * it bills): the answer, kept for the connection as Sheets keeps a billed failure, so the checks
 * within the registry's reuse limit of the feed (an account's posts 24 hours, a hashtag's or a
 * place's 1) answer it again unsent and free, instead of paying for the same 404 at every period of
 * a Zap that Zapier never turns off for it. The feed's state stays as it was: a target readable
 * again goes on from there.
 */
interface GoneAnswer {
  status: number;
  code: string;
  message: string;
  charged: number;
  at: number;
}

const goneName = (call: Call) => `gone:${requestKey(call.endpoint, call.params)}`;
const reuseMs = (call: Call) => (call.endpoint.maxReuseHours ?? 0) * 3_600_000;

export async function keepIfGone(z: ZObject, bundle: Bundle, call: Call, failure: unknown, now: number): Promise<void> {
  if (!isIgError(failure) || errorCode(failure) !== 'not_found' || !(reuseMs(call) > 0)) return;
  const e = failure as IgApiError;
  const gone: GoneAnswer = { status: e.status, code: e.code, message: e.message, charged: e.charged, at: now };
  await keptOf(z, bundle, false).set(goneName(call), gone, reuseMs(call) / 1000);
}

/** The kept answer of a target gone within its reuse limit, as the error it was, served again: not sent, free. */
export async function goneAgain(z: ZObject, bundle: Bundle, call: Call, now: number): Promise<Error | undefined> {
  const gone = await keptOf(z, bundle, false).get<GoneAnswer>(goneName(call));
  if (!gone || typeof gone.at !== 'number' || now - gone.at >= reuseMs(call)) return undefined;
  const e = new IgApiError(gone.status, gone.code, gone.message, { creditsCharged: gone.charged });
  return asZapierError(z, servedAgain(e, gone.at), call);
}
