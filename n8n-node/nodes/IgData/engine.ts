/**
 * The action node's engine, free of n8n so it can be tested in-process: it takes the calls the
 * input items asked for and runs them over the core with
 * - de-duplication: identical normalised requests (core's `requestKey`) are sent once and the
 *   answer is fanned out to every item that asked for it;
 * - bounded concurrency: at most `concurrency` requests in flight, across items and pages;
 * - an execution-wide credit cap: before each request or page its cost is reserved with the
 *   core's `estimateCost`; a request that could take the spend over the cap is not sent; after it,
 *   the reservation is replaced by the `credits_charged` the service reported.
 * Paging is the core's `paginate`, with the ledger as its shared budget (checked before each page).
 */
import type { AnyIgError, AsyncIO, Call, ClientConfig, PagingCap, PagingResult } from '@igdata/core';
import {
	CreditLedger, IgCreditCapError, describeStop, estimateCost, isIgError, paginate, requestKey, runAsync, send,
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
	/** Safety ceiling on the pages of one Return All. */
	maxPages?: number;
}

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
	/** An Ig error from the core (the credit cap included) or, a bug, any other Error, kept to its item. */
	| { ok: false; error: AnyIgError | Error };

/**
 * What a call's run gives back before the execution ends: a request the credit cap refused becomes
 * its IgCreditCapError only once every request has settled, so the error states what the execution
 * really spent (requests in flight when the cap refused this one were paid for too).
 */
type Settling =
	| ItemResult
	| { ok: false; capped: number }
	/** A list the cap stopped after some pages: its notice states the spend once every request settled. */
	| { ok: true; items: Record<string, unknown>[]; meta: ItemMeta; cappedList: PagingResult };

function settled(s: Settling, ledger: CreditLedger): ItemResult {
	if ('capped' in s) return { ok: false, error: new IgCreditCapError(ledger.cap as number, ledger.spent, s.capped) };
	if ('cappedList' in s) {
		// describeStop with the execution's spend: the cap is per execution, not per list.
		const notice = describeStop({ ...s.cappedList, creditsCharged: ledger.spent }, { maxCredits: ledger.cap });
		return { ok: true, items: s.items, meta: s.meta, notice };
	}
	return s;
}

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

function callKey(itemCall: ItemCall): string {
	const key = requestKey(itemCall.call.endpoint, itemCall.call.params);
	if (itemCall.call.endpoint.shape !== 'list') return key;
	return `${key}#${itemCall.returnAll ? 'all' : `limit=${itemCall.limit ?? ''}`}`;
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

const chargedOf = (e: unknown): number => (isIgError(e) ? e.charged : 0);

async function runSingle(config: ClientConfig, itemCall: ItemCall, io: AsyncIO, ledger: CreditLedger): Promise<Settling> {
	const cost = estimateCost(itemCall.call.endpoint, itemCall.call.params).credits;
	if (!ledger.tryReserve(cost)) return { ok: false, capped: cost };
	try {
		const r = await runAsync(send(config, itemCall.call), io);
		ledger.settle(cost, r.creditsCharged);
		const meta: ItemMeta = { endpoint: itemCall.call.endpoint.id, credits_charged: r.creditsCharged, credits_remaining: r.creditsRemaining, request_id: r.requestId };
		const items = itemCall.call.endpoint.shape === 'list' && itemCall.limit !== undefined ? r.items.slice(0, itemCall.limit) : r.items;
		return { ok: true, items, meta };
	} catch (e) {
		ledger.settle(cost, chargedOf(e));
		return { ok: false, error: isIgError(e) ? e : asError(e) };
	}
}

/** A paged list: the core's paginate, with the execution's ledger as its shared credit budget. */
async function runPaged(config: ClientConfig, itemCall: ItemCall, io: AsyncIO, ledger: CreditLedger, options: RunOptions): Promise<Settling> {
	const { endpoint } = itemCall.call;
	const maxPages = options.maxPages ?? 10000;
	const cap: PagingCap = { maxPages, budget: ledger };
	if (!itemCall.returnAll && itemCall.limit !== undefined) cap.maxItems = itemCall.limit;
	let total: PagingResult;
	try {
		total = await runAsync(paginate(config, itemCall.call, cap), io);
	} catch (e) {
		return { ok: false, error: isIgError(e) ? e : asError(e) }; // the first page failed: nothing to keep
	}
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
		case 'error':
			// Pages already paid for are not thrown away: the items come out, with what stopped them.
			return { ok: true, items: total.items, meta, notice: describeStop(total, cap) };
		case 'credits': {
			if (!total.items.length) return { ok: false, capped: estimateCost(endpoint, itemCall.call.params).credits };
			return { ok: true, items: total.items, meta, cappedList: total };
		}
		case 'pages':
			return { ok: true, items: total.items, meta, notice: describeStop(total, cap) };
		default:
			return { ok: true, items: total.items, meta };
	}
}

/**
 * Run every item's call; identical calls run once. Returns one result per item, in order. Never throws for
 * a failed request (the outcome carries the error); throws only for bugs.
 */
export async function runItemCalls(config: ClientConfig, itemCalls: (ItemCall | undefined)[], io: AsyncIO, options: RunOptions): Promise<(ItemResult | undefined)[]> {
	const ledger = new CreditLedger(options.creditCap);
	const gate = new Gate(Math.max(1, Math.floor(options.concurrency)));
	// Every request of every item passes the gate: pages of one list run one after another, lists and
	// single lookups of different items run side by side, never more than `concurrency` at once.
	const gatedIO: AsyncIO = {
		fetch: (request) => gate.run(() => io.fetch(request)),
		sleep: (ms) => io.sleep(ms),
	};
	const first = new Map<string, number>();
	const unique: { itemCall: ItemCall; index: number }[] = [];
	const source: (number | undefined)[] = itemCalls.map((itemCall, index) => {
		if (!itemCall) return undefined;
		const key = callKey(itemCall);
		const seen = first.get(key);
		if (seen !== undefined) return seen;
		first.set(key, index);
		unique.push({ itemCall, index });
		return index;
	});
	const results = new Map<number, Settling>();
	// Calls start in input order; each waits at the gate before its request goes out. Starting them
	// all at once is cheap (promises), and the gate keeps the order of requests first-come.
	await Promise.all(
		unique.map(async ({ itemCall, index }) => {
			const paged = itemCall.call.endpoint.shape === 'list' && itemCall.call.endpoint.paginated;
			results.set(index, paged ? await runPaged(config, itemCall, gatedIO, ledger, options) : await runSingle(config, itemCall, gatedIO, ledger));
		}),
	);
	return itemCalls.map((itemCall, index) => {
		const from = source[index];
		if (from === undefined) return undefined;
		// Every request has settled: what the cap stopped now states what the execution really spent.
		const outcome = settled(results.get(from) as Settling, ledger);
		if (from === index || !outcome.ok) return outcome;
		return { ...outcome, meta: { ...outcome.meta, credits_charged: 0, deduplicated: true } };
	});
}
