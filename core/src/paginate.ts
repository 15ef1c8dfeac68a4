/**
 * Paging with a mandatory cap. Every page costs credits, so a paging loop without a limit is a bug
 * (Stripe's autoPagingToArray also requires one). The result says which cap stopped it.
 */
import type { Call } from './call';
import { send } from './call';
import { estimateCost } from './cost';
import type { Op } from './effects';
import type { CreditBudget } from './budget';
import type { AnyIgError } from './errors';
import { IgValidationError, isIgError } from './errors';
import type { ClientConfig } from './request';

export interface PagingCap {
  maxItems?: number;
  maxPages?: number;
  /** Never start a page that would take the run's spend above this. */
  maxCredits?: number;
  /** A budget shared with other calls (e.g. an execution-wide credit cap); a refusal stops as 'credits'. */
  budget?: CreditBudget;
}

/** `error`: a page failed after earlier pages were paid for; their items are kept, not thrown away. */
export type StopReason = 'end' | 'items' | 'pages' | 'credits' | 'error';

export interface PagingResult {
  items: Record<string, unknown>[];
  pages: number;
  creditsCharged: number;
  creditsRemaining?: number;
  stoppedBy: StopReason;
  /** Where to resume; null when the list was read to its end. */
  nextCursor: string | null;
  /** The service's request id of each page, in order (for support and n8n's meta). */
  requestIds: string[];
  /** What stopped the run when stoppedBy is 'error'. */
  error?: AnyIgError;
}

export function* paginate(
  config: ClientConfig,
  call: Call,
  cap: PagingCap,
  onPage?: (page: { items: Record<string, unknown>[]; index: number }) => void,
): Op<PagingResult> {
  if (cap.maxItems === undefined && cap.maxPages === undefined && cap.maxCredits === undefined && cap.budget === undefined) {
    throw new IgValidationError('limit', 'set: a number of items, pages or credits', 'no limit');
  }
  for (const name of ['maxItems', 'maxPages', 'maxCredits'] as const) {
    const v = cap[name];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw new IgValidationError(name, 'a whole number of 0 or more', String(v));
  }
  const result: PagingResult = { items: [], pages: 0, creditsCharged: 0, stoppedBy: 'end', nextCursor: null, requestIds: [] };
  let cursor: string | null = (call.params.cursor as string | undefined) ?? null;
  const pageCost = estimateCost(call.endpoint, call.params).credits;
  for (;;) {
    if (cap.maxItems !== undefined && result.items.length >= cap.maxItems) return { ...result, stoppedBy: 'items' };
    if (cap.maxPages !== undefined && result.pages >= cap.maxPages) return { ...result, stoppedBy: 'pages' };
    if (cap.maxCredits !== undefined && result.creditsCharged + pageCost > cap.maxCredits) return { ...result, stoppedBy: 'credits' };
    const params = { ...call.params };
    if (cursor !== null) params.cursor = cursor;
    else delete params.cursor;
    if (cap.budget && !cap.budget.tryReserve(pageCost)) return { ...result, stoppedBy: 'credits' };
    let page;
    try {
      page = yield* send(config, { endpoint: call.endpoint, params });
    } catch (e) {
      cap.budget?.settle(pageCost, isIgError(e) ? e.charged : 0);
      if (!result.pages || !isIgError(e)) throw e;
      result.creditsCharged += e.charged;
      return { ...result, stoppedBy: 'error', error: e };
    }
    cap.budget?.settle(pageCost, page.creditsCharged);
    result.pages++;
    result.creditsCharged += page.creditsCharged;
    if (page.requestId) result.requestIds.push(page.requestId);
    if (page.creditsRemaining !== undefined) result.creditsRemaining = page.creditsRemaining;
    const room = cap.maxItems === undefined ? page.items.length : cap.maxItems - result.items.length;
    const taken = page.items.slice(0, room);
    result.items.push(...taken);
    onPage?.({ items: taken, index: result.pages - 1 });
    cursor = call.endpoint.paginated ? page.nextCursor : null;
    result.nextCursor = cursor;
    if (cursor === null) return { ...result, stoppedBy: 'end' };
    // Items cut from a page are lost to a resume with this cursor; say 'items' so callers know.
    if (taken.length < page.items.length) return { ...result, stoppedBy: 'items' };
  }
}

/** A sentence for the stop reason, for n8n notices and Sheets notes. */
export function describeStop(r: PagingResult, cap: PagingCap): string {
  switch (r.stoppedBy) {
    case 'end':
      return `Read all ${r.items.length} items in ${r.pages} page(s), ${r.creditsCharged} credits.`;
    case 'items':
      return `Stopped at the limit of ${cap.maxItems} items (${r.pages} page(s), ${r.creditsCharged} credits); more are available.`;
    case 'pages':
      return `Stopped at the limit of ${cap.maxPages} pages (${r.items.length} items, ${r.creditsCharged} credits); more are available.`;
    case 'credits':
      return `Stopped at the credit cap of ${cap.maxCredits} (${r.creditsCharged} spent, ${r.items.length} items); more are available.`;
    case 'error':
      return `Stopped after ${r.pages} page(s) (${r.items.length} items kept, ${r.creditsCharged} credits): ${r.error?.message ?? 'a page failed'}`;
  }
}
