/**
 * One distinct call of a run: a single request, or a paged list walked one page at a time (the
 * core's PageWalk) with the call's allowance of the credit cap as its budget, so the cap and the
 * execution's stop are checked between pages and pages already paid for are kept.
 */
import type { Allowance, AnyIgError, AsyncIO, ClientConfig, PagingCap, PagingResult } from '@igdata/core';
import { PageWalk, describeStop, estimateCost, isIgError, stopsBulkRun } from '@igdata/core';
import type { Run } from './requests';
import { sendOne } from './requests';
import type { ItemCall, ItemMeta, RunOptions, Settling } from './run-types';
import { NOT_LOOKED_UP } from './run-types';

/** A failed call: not looked up when it met the execution's stop (never billed), else its error. */
const failed = (error: AnyIgError): Settling => (stopsBulkRun(error) ? NOT_LOOKED_UP : { ok: false, error });

export async function runSingle(config: ClientConfig, itemCall: ItemCall, io: AsyncIO, run: Run, budget: Allowance): Promise<Settling> {
	const cost = estimateCost(itemCall.call.endpoint, itemCall.call.params).credits;
	if (!budget.tryReserve(cost)) return { ok: false, capped: cost };
	const answer = await sendOne(config, itemCall.call, io, run);
	budget.settle(cost, isIgError(answer) ? answer.charged : answer.creditsCharged);
	if (isIgError(answer)) return failed(answer);
	const meta: ItemMeta = { endpoint: itemCall.call.endpoint.id, credits_charged: answer.creditsCharged, credits_remaining: answer.creditsRemaining, request_id: answer.requestId };
	const items = itemCall.call.endpoint.shape === 'list' && itemCall.limit !== undefined ? answer.items.slice(0, itemCall.limit) : answer.items;
	return { ok: true, items, meta };
}

/**
 * A paged list: the core's page walk, one page at a time, with the call's allowance as its budget.
 * A page the execution's stop kept from being sent is recorded as that stop's error: the walk ends
 * there like at a failed page, keeping the pages already paid for.
 */
async function walkList(config: ClientConfig, itemCall: ItemCall, io: AsyncIO, run: Run, cap: PagingCap): Promise<PagingResult> {
	const walk = new PageWalk([itemCall.call], cap);
	for (let round = walk.nextRound(); round.length; round = walk.nextRound()) {
		walk.record(round[0].index, await sendOne(config, round[0].call, io, run));
	}
	return walk.results()[0];
}

export async function runPaged(config: ClientConfig, itemCall: ItemCall, io: AsyncIO, run: Run, budget: Allowance, options: RunOptions): Promise<Settling> {
	const { endpoint } = itemCall.call;
	const cap: PagingCap = { maxPages: options.maxPages ?? 10000, budget };
	if (!itemCall.returnAll && itemCall.limit !== undefined) cap.maxItems = itemCall.limit;
	const total = await walkList(config, itemCall, io, run, cap);
	if (total.pages === 0 && total.stoppedBy === 'error') return failed(total.error as AnyIgError); // nothing to keep
	if (total.pages === 0 && total.stoppedBy === 'credits') return { ok: false, capped: estimateCost(endpoint, itemCall.call.params).credits };
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
