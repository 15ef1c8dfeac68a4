/**
 * The action node's engine, free of n8n so it can be tested in-process: it takes the calls the
 * input items asked for and runs them over the core with
 * - de-duplication (dedupe.ts): identical normalised requests are sent once, the answer fanned out;
 * - a pre-check (precheck.ts) of the known work against the credit cap and the balance; over
 *   either, nothing is sent and every item carries the refusal;
 * - an execution-wide credit cap: the known work's estimate is held in the ledger up front, so a
 *   Return All only uses what is left of the cap; before each request or page its cost is
 *   reserved, after it the reservation is replaced by the `credits_charged` the service reported.
 *   The ledger's tally may be shared with earlier runs (the node's runs in one workflow execution);
 * - bounded concurrency and a stop (requests.ts): at most `concurrency` requests in flight, and
 *   after an answer every further request would meet too, nothing more is sent; what was answered
 *   is kept and the items not looked up say how far the run got;
 * - single calls and paged lists (calls.ts).
 */
import type { AnyIgError, AsyncIO, ClientConfig, IgApiError, RunError, RunTally, WorkEstimate } from '@igdata/core';
import { CreditLedger, IgCreditCapError, RunStoppedError, describeStop } from '@igdata/core';
import { runPaged, runSingle } from './calls';
import { dedupe, withFanOut } from './dedupe';
import { knownCost, preCheck } from './precheck';
import { Run, asError } from './requests';
import type { ItemCall, ItemResult, RunOptions, Settling } from './run-types';
import { isPaged } from './run-types';

// What callers of runItemCalls (the tests, the soak) name.
export type { ItemCall, ItemResult } from './run-types';

/** How far a stopped execution got, counted once every request has settled. */
function tallyOf(results: Map<number, Settling>, source: (number | undefined)[], ledger: CreditLedger): RunTally {
	const answered = (from: number) => !('notLookedUp' in (results.get(from) as Settling));
	const froms = source.filter((from): from is number => from !== undefined);
	return {
		calls: results.size,
		answered: [...results.keys()].filter(answered).length,
		spent: ledger.spent,
		items: froms.length,
		delivered: froms.filter(answered).length,
	};
}

/**
 * Run every item's call; identical calls run once. Returns one result per item, in order. Never throws for
 * a failed request (the outcome carries the error); a bug in one call is kept to its items as an Error.
 */
export async function runItemCalls(config: ClientConfig, itemCalls: (ItemCall | undefined)[], io: AsyncIO, options: RunOptions): Promise<(ItemResult | undefined)[]> {
	const { unique, source } = dedupe(itemCalls);
	const shares = unique.map(({ itemCall }) => knownCost(itemCall));
	const work: WorkEstimate = { calls: unique.length, credits: shares.reduce((a, b) => a + b, 0), largest: shares.reduce((a, b) => Math.max(a, b), 0) };
	const ledger = new CreditLedger(options.creditCap, options.tally);
	const refusal = await preCheck(config, io, ledger, work, { runs: options.earlierRuns ?? 0, spent: ledger.spent });
	if (refusal) return itemCalls.map((itemCall) => itemCall && { ok: false, error: refusal });

	const run = new Run(options.concurrency);
	const results = new Map<number, Settling>();
	// Calls start in input order, each with its share of the held estimate; every request waits at
	// the gate, so pages of one list run one after another, and lists and lookups of different
	// items side by side, never more than `concurrency` at once. Starting them all is cheap (promises).
	await Promise.all(
		unique.map(async ({ itemCall, index }, k) => {
			const budget = ledger.allowance(shares[k]);
			try {
				results.set(index, isPaged(itemCall) ? await runPaged(config, itemCall, io, run, budget, options) : await runSingle(config, itemCall, io, run, budget));
			} catch (e) {
				results.set(index, { ok: false, error: asError(e) }); // a bug, kept to its item
			} finally {
				budget.release(); // what the estimate held and the call did not use
			}
		}),
	);
	// Every request has settled: errors can now state what the execution really spent and got.
	const stop = run.stoppedBy && tallyOf(results, source, ledger);
	// A stop before any answer adds nothing to its own error: the items carry that error itself.
	const notLookedUp: AnyIgError | RunError | undefined = stop && (stop.answered ? new RunStoppedError(run.stoppedBy as IgApiError, stop) : run.stoppedBy);
	return itemCalls.map((_, index) => {
		const from = source[index];
		if (from === undefined) return undefined;
		const s = results.get(from) as Settling;
		if ('notLookedUp' in s) return { ok: false, error: notLookedUp as AnyIgError | RunError };
		if ('capped' in s) return { ok: false, error: new IgCreditCapError(ledger.cap as number, ledger.spent, s.capped) };
		if ('cappedList' in s) {
			// describeStop with the execution's spend: the cap is per execution, not per list.
			const notice = describeStop({ ...s.cappedList, creditsCharged: ledger.spent }, { maxCredits: ledger.cap });
			return withFanOut({ ok: true, items: s.items, meta: s.meta, notice }, from, index);
		}
		return withFanOut(s, from, index);
	});
}
