/**
 * A lookup: one distinct call that is a single request (a non-paged endpoint), its cost reserved
 * in the call's allowance before it is sent and settled with what the service charged.
 */
import type { Allowance, AsyncIO, ClientConfig } from '@igdata/core';
import { estimateCost, isIgError } from '@igdata/core';
import type { CallResult, ItemCall, ItemMeta } from './engine-types';
import type { Requests } from './requests';
import { callFailure, sendOne } from './requests';

export async function lookUp(
  config: ClientConfig,
  itemCall: ItemCall,
  io: AsyncIO,
  requests: Requests,
  budget: Allowance,
): Promise<CallResult> {
  const cost = estimateCost(itemCall.call.endpoint, itemCall.call.params).credits;
  if (!budget.tryReserve(cost)) return { ok: false, capped: cost };
  const answer = await sendOne(config, itemCall.call, io, requests);
  budget.settle(cost, isIgError(answer) ? answer.charged : answer.creditsCharged);
  if (isIgError(answer)) return callFailure(answer);
  const meta: ItemMeta = {
    endpoint: itemCall.call.endpoint.id,
    credits_charged: answer.creditsCharged,
    credits_remaining: answer.creditsRemaining,
    request_id: answer.requestId,
  };
  const items =
    itemCall.call.endpoint.shape === 'list' && itemCall.limit !== undefined
      ? answer.items.slice(0, itemCall.limit)
      : answer.items;
  return { ok: true, items, meta };
}
