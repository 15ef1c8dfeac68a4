/**
 * A paged list: the core's PageWalk, one page at a time, with the call's allowance of the credit
 * cap as its budget, so the cap and the run's stop are checked between pages and pages already
 * paid for are kept.
 */
import type { Allowance, AnyIgError, AsyncIO, ClientConfig, PagingCap, PagingResult } from '@igdata/core';
import { PageWalk, describeStop, estimateCost } from '@igdata/core';
import type { CallResult, ItemCall, ItemMeta, RunOptions } from './engine-types';
import type { Requests } from './requests';
import { callFailure, sendOne } from './requests';

/**
 * The walk of one list. A page the run's stop kept from being sent is recorded as that stop's
 * error: the walk ends there like at a failed page, keeping the pages already paid for.
 */
async function walkPages(
  config: ClientConfig,
  itemCall: ItemCall,
  io: AsyncIO,
  requests: Requests,
  cap: PagingCap,
): Promise<PagingResult> {
  const walk = new PageWalk([itemCall.call], cap);
  for (let round = walk.nextRound(); round.length; round = walk.nextRound()) {
    walk.record(round[0].index, await sendOne(config, round[0].call, io, requests));
  }
  return walk.results()[0];
}

export async function readList(
  config: ClientConfig,
  itemCall: ItemCall,
  io: AsyncIO,
  requests: Requests,
  budget: Allowance,
  options: RunOptions,
): Promise<CallResult> {
  const { endpoint } = itemCall.call;
  const cap: PagingCap = { maxPages: options.maxPages ?? 10000, budget };
  if (!itemCall.returnAll && itemCall.limit !== undefined) cap.maxItems = itemCall.limit;
  const total = await walkPages(config, itemCall, io, requests, cap);
  // nothing to keep
  if (total.pages === 0 && total.stoppedBy === 'error') return callFailure(total.error as AnyIgError);
  if (total.pages === 0 && total.stoppedBy === 'credits')
    return { ok: false, capped: estimateCost(endpoint, itemCall.call.params).credits };
  const meta: ItemMeta = {
    endpoint: endpoint.id,
    credits_charged: total.creditsCharged,
    credits_remaining: total.creditsRemaining,
    request_id: total.requestIds[total.requestIds.length - 1],
    request_ids: total.requestIds,
    pages: total.pages,
    stopped_by: total.stoppedBy,
  };
  switch (total.stoppedBy) {
    case 'error': // Pages already paid for are not thrown away: the items come out, with what stopped them.
    case 'pages':
      return { ok: true, items: total.items, meta, notice: describeStop(total, cap) };
    case 'credits':
      return { ok: true, items: total.items, meta, cappedList: total };
    default:
      return { ok: true, items: total.items, meta };
  }
}
