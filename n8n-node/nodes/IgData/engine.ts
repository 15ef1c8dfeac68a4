/**
 * The action node's engine, free of n8n so it can be tested in-process: it takes the calls the
 * input items asked for and runs them over the core with
 * - de-duplication: identical normalised requests (core's `requestKey`) are sent once and the
 *   answer is fanned out to every item that asked for it;
 * - a pre-check: the work whose cost is known before it starts (lookups, Limit lists, the first
 *   page of a Return All) is priced with the core's `estimateCost` and, before the first billed
 *   request, checked against the credit cap and (above BALANCE_CHECK_ABOVE credits) against the
 *   balance; over either, nothing is sent and every item carries the refusal;
 * - an execution-wide credit cap: the known work's estimate is held in the ledger up front, so a
 *   Return All only uses what is left of the cap; before each request or page its cost is
 *   reserved, after it the reservation is replaced by the `credits_charged` the service reported;
 * - bounded concurrency: at most `concurrency` requests in flight, across items and pages;
 * - a stop: the first answer that every further request would meet too (an empty balance, a
 *   refused key: core's `stopsBulkRun`) stops the execution; nothing more is sent, what was
 *   answered is kept and the items not looked up say how far the run got.
 */
import type {
	Allowance, AnyIgError, ApiResult, AsyncIO, Call, ClientConfig, EarlierRuns, Effect, IgApiError, LedgerTally, Op, PagingCap, PagingResult, RunError, RunTally, WorkEstimate,
} from '@igdata/core';
import {
	CreditLedger, IgCreditCapError, PageWalk, RunRefusedError, RunStoppedError, describeStop, estimateCost, isIgError, noHttpAnswer, prepare,
	requestKey, runAsync, send, stopsBulkRun,
} from '@igdata/core';

/** What one input item asked for. */
export interface ItemCall {
	call: Call;
	/** Lists only: read every page (bounded by the credit cap and `maxPages`). */
	returnAll: boolean;
	/** Lists only, when not returnAll: at most this many items. */
	limit?: number;
}

export interface RunOptions {
	concurrency: number;
	/** Credits this execution may spend; undefined = no cap. */
	creditCap?: number;
	/**
	 * What earlier runs under the same cap spent and hold (the node's runs within one workflow
	 * execution share it); a fresh tally when absent. The cap applies to it as a whole.
	 */
	tally?: LedgerTally;
	/** How many runs spent the tally before this one, for the refusal's sentence. */
	earlierRuns?: number;
	/** Safety ceiling on the pages of one Return All. */
	maxPages?: number;
}

/**
 * Known work above this many credits is checked against the balance before it starts. Below it a
 * shortfall costs little (the run stops at the first 402, keeping what was answered) and the extra
 * request would add a round trip to every small execution.
 */
export const BALANCE_CHECK_ABOVE = 10;

/** The `meta` field of an output item (Options > Include Meta). */
export interface ItemMeta {
	endpoint: string;
	credits_charged: number;
	credits_remaining?: number;
	request_id?: string;
	request_ids?: string[];
	pages?: number;
	stopped_by?: PagingResult['stoppedBy'];
	/** This item's answer came from an identical request made for an earlier item (not charged again). */
	deduplicated?: boolean;
}

export type ItemResult =
	| { ok: true; items: Record<string, unknown>[]; meta: ItemMeta; notice?: string }
	/**
	 * An Ig error from the core or, a bug, any other Error, kept to its item. A refused run gives every
	 * item its RunRefusedError; a stopped run gives the items it did not look up a RunStoppedError.
	 * `deduplicated`: the error of an identical request made for an earlier item (not charged again).
	 */
	| { ok: false; error: AnyIgError | RunError | Error; deduplicated?: true };

/**
 * What a call's run gives back before the execution ends. Errors that state the execution's totals
 * (the cap's spend, how far a stopped run got) are made only once every request has settled.
 */
type Settling =
	| ItemResult
	/** The cap refused the call's first request (held work always gets its share: a safeguard). */
	| { ok: false; capped: number }
	/** The execution stopped before this call got an answer (see Run.note). */
	| { ok: false; notLookedUp: true }
	/** A list the cap stopped after some pages: its notice states the spend once every request settled. */
	| { ok: true; items: Record<string, unknown>[]; meta: ItemMeta; cappedList: PagingResult };

const NOT_LOOKED_UP: Settling = { ok: false, notLookedUp: true };

/** A counting semaphore: the one place that bounds requests in flight. */
class Gate {
	private active = 0;
	private waiting: (() => void)[] = [];
	constructor(private readonly limit: number) {}
	async run<T>(fn: () => Promise<T>): Promise<T> {
		if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
		else this.active++;
		try {
			return await fn();
		} finally {
			const next = this.waiting.shift();
			if (next) next();
			else this.active--;
		}
	}
}

/** What every request of one execution shares: the gate, and what stopped the execution, if anything did. */
class Run {
	readonly gate: Gate;
	stoppedBy?: IgApiError;
	constructor(concurrency: number) {
		this.gate = new Gate(Math.max(1, Math.floor(concurrency)));
	}
	/** The first error that stops bulk runs stops this one: every request after it would fail the same way. */
	note(error: unknown): void {
		if (isIgError(error) && error.name === 'IgApiError' && stopsBulkRun(error)) this.stoppedBy ??= error;
	}
}

function callKey(itemCall: ItemCall): string {
	const key = requestKey(itemCall.call.endpoint, itemCall.call.params);
	if (itemCall.call.endpoint.shape !== 'list') return key;
	return `${key}#${itemCall.returnAll ? 'all' : `limit=${itemCall.limit ?? ''}`}`;
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

const isPaged = (itemCall: ItemCall): boolean => itemCall.call.endpoint.shape === 'list' && itemCall.call.endpoint.paginated;

/**
 * Credits a call will cost that are known before it starts: a lookup or a non-paged list, a Limit
 * list's estimated pages (ceil(limit / page size)), or the first page of a Return All (the rest is
 * open-ended and bounded by the cap alone).
 */
function knownCost(itemCall: ItemCall): number {
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
async function preCheck(config: ClientConfig, io: AsyncIO, ledger: CreditLedger, work: WorkEstimate, earlier: EarlierRuns): Promise<AnyIgError | RunError | undefined> {
	if (!ledger.tryHold(work.credits)) return new RunRefusedError('cap', ledger.cap as number, work, earlier);
	if (work.credits <= BALANCE_CHECK_ABOVE) return undefined;
	const balance = await readBalance(config, io);
	if (typeof balance === 'number') return balance < work.credits ? new RunRefusedError('balance', balance, work) : undefined;
	return balance && stopsBulkRun(balance) ? balance : undefined;
}

/** The op's next step, or what it threw: a call's failures are values here, not exceptions. */
function resume<T>(op: Op<T>, input?: unknown): IteratorResult<Effect, T> | { thrown: unknown } {
	try {
		return op.next(input);
	} catch (thrown) {
		return { thrown };
	}
}

/**
 * One request of a call, driven like the core's runAsync with the engine's rules on every request:
 * it waits its turn at the gate, and once the execution has stopped it is not sent at all (the
 * call is abandoned, with the stop as its error). The answer is read before the gate lets the next
 * request go, so that a stop it brings holds that request back. Returns the answer or the Ig error.
 */
async function sendOne(config: ClientConfig, call: Call, io: AsyncIO, run: Run): Promise<ApiResult | AnyIgError> {
	const op = send(config, call);
	let step = resume(op);
	while (!('thrown' in step) && !step.done) {
		const effect = step.value;
		if (effect.kind === 'sleep') {
			await io.sleep(effect.ms);
			step = resume(op);
			continue;
		}
		if (effect.kind !== 'http') throw new Error('The engine sends one request per call at a time; got a batch.');
		const next = await run.gate.run(async () => {
			if (run.stoppedBy) return run.stoppedBy;
			const after = resume(op, await io.fetch(effect.request).catch(noHttpAnswer));
			if ('thrown' in after) run.note(after.thrown);
			return after;
		});
		if (isIgError(next)) return next;
		step = next;
	}
	if (!('thrown' in step)) return step.value;
	if (isIgError(step.thrown)) return step.thrown;
	throw asError(step.thrown); // a bug in the core: runItemCalls keeps it to its item
}

/** A failed call: not looked up when it met the execution's stop (never billed), else its error. */
const failed = (error: AnyIgError): Settling => (stopsBulkRun(error) ? NOT_LOOKED_UP : { ok: false, error });

async function runSingle(config: ClientConfig, itemCall: ItemCall, io: AsyncIO, run: Run, budget: Allowance): Promise<Settling> {
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

async function runPaged(config: ClientConfig, itemCall: ItemCall, io: AsyncIO, run: Run, budget: Allowance, options: RunOptions): Promise<Settling> {
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

/** Input items whose calls are identical share the first one's call. */
function dedupe(itemCalls: (ItemCall | undefined)[]): { unique: { itemCall: ItemCall; index: number }[]; source: (number | undefined)[] } {
	const first = new Map<string, number>();
	const unique: { itemCall: ItemCall; index: number }[] = [];
	const source = itemCalls.map((itemCall, index) => {
		if (!itemCall) return undefined;
		const key = callKey(itemCall);
		const seen = first.get(key);
		if (seen !== undefined) return seen;
		first.set(key, index);
		unique.push({ itemCall, index });
		return index;
	});
	return { unique, source };
}

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

/** An answer (or a billed error) given to a later item that asked the same: not charged again. */
function withFanOut(outcome: ItemResult, from: number, index: number): ItemResult {
	if (from === index) return outcome;
	if (!outcome.ok) return { ...outcome, deduplicated: true };
	return { ...outcome, meta: { ...outcome.meta, credits_charged: 0, deduplicated: true } };
}
