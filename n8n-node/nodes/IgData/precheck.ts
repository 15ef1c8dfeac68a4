/**
 * The pre-check: the work whose cost is known before it starts (lookups, Limit lists, the first
 * page of a Return All) is priced with the core's `estimateCost` and, before the first billed
 * request, checked against the credit cap (less what earlier runs in the execution spent) and,
 * above BALANCE_CHECK_ABOVE credits, against the balance; over either, nothing is sent.
 */
import type { AnyIgError, AsyncIO, ClientConfig, CreditLedger, EarlierRuns, RunError, WorkEstimate } from '@igdata/core';
import { RunRefusedError, estimateCost, isIgError, prepare, runAsync, send, stopsBulkRun } from '@igdata/core';
import type { ItemCall } from './run-types';
import { isPaged } from './run-types';

/**
 * Known work above this many credits is checked against the balance before it starts. Below it a
 * shortfall costs little (the run stops at the first 402, keeping what was answered) and the extra
 * request would add a round trip to every small execution.
 */
export const BALANCE_CHECK_ABOVE = 10;

/**
 * Credits a call will cost that are known before it starts: a lookup or a non-paged list, a Limit
 * list's estimated pages (ceil(limit / page size)), or the first page of a Return All (the rest is
 * open-ended and bounded by the cap alone).
 */
export function knownCost(itemCall: ItemCall): number {
	const { endpoint, params } = itemCall.call;
	const perRequest = estimateCost(endpoint, params).credits;
	if (!isPaged(itemCall) || itemCall.returnAll || itemCall.limit === undefined) return perRequest;
	return perRequest * Math.max(1, Math.ceil(itemCall.limit / (endpoint.pageSize ?? itemCall.limit)));
}

/** The balance from the free credits endpoint, or the Ig error reading it met (any other failure: unknown). */
async function readBalance(config: ClientConfig, io: AsyncIO): Promise<number | AnyIgError | undefined> {
	return await runAsync(send(config, prepare('credits', {})), io).then(
		(r) => {
			const balance = Number(r.data.credits_remaining ?? r.creditsRemaining);
			return Number.isFinite(balance) ? balance : undefined;
		},
		(e: unknown) => (isIgError(e) ? e : undefined),
	);
}

/**
 * Before the first billed request: the refusal of the known work, or undefined to go ahead (its
 * estimate then held in the ledger). A balance that cannot be read does not block the work (its
 * requests will say what is wrong), except an error that stops bulk runs: a refused key would
 * fail every request.
 */
export async function preCheck(config: ClientConfig, io: AsyncIO, ledger: CreditLedger, work: WorkEstimate, earlier: EarlierRuns): Promise<AnyIgError | RunError | undefined> {
	if (!ledger.tryHold(work.credits)) return new RunRefusedError('cap', ledger.cap as number, work, earlier);
	if (work.credits <= BALANCE_CHECK_ABOVE) return undefined;
	const balance = await readBalance(config, io);
	if (typeof balance === 'number') return balance < work.credits ? new RunRefusedError('balance', balance, work) : undefined;
	return balance && stopsBulkRun(balance) ? balance : undefined;
}
