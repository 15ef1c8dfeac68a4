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
import type { Call } from '../../../core/src/call';
import { send } from '../../../core/src/call';
import { estimateCost } from '../../../core/src/cost';
import type { AsyncIO } from '../../../core/src/effects';
import { runAsync } from '../../../core/src/effects';
import type { AnyIgError } from '../../../core/src/errors';
import { isIgError } from '../../../core/src/errors';
import { CreditLedger as Ledger } from '../../../core/src/budget';
import type { PagingCap, PagingResult } from '../../../core/src/paginate';
import { describeStop, paginate } from '../../../core/src/paginate';
import type { ClientConfig } from '../../../core/src/request';
import { requestKey } from '../../../core/src/request';

/** What one input item asked for. */
export interface Job {
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

export interface Meta {
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

export interface CapStop {
	name: 'CreditCap';
	cap: number;
	spent: number;
	cost: number;
}

export type Outcome =
	| { ok: true; items: Record<string, unknown>[]; meta: Meta; notice?: string }
	/** An Ig error from the core, the credit cap, or (a bug) any other Error, kept to its item. */
	| { ok: false; error: AnyIgError | CapStop | Error };

export const isCapStop = (e: unknown): e is CapStop => typeof e === 'object' && e !== null && (e as CapStop).name === 'CreditCap';

export function capMessage(stop: CapStop): string {
	return `Credit cap of ${stop.cap} reached: ${stop.spent} credit${stop.spent === 1 ? '' : 's'} spent in this execution and this request costs ~${stop.cost}. Raise Options > Credit Cap to continue. (Not charged.)`;
}

/** The execution-wide credit account is the core's ledger: reserve before a request, settle after. */
export { Ledger };

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

export function jobKey(job: Job): string {
	const key = requestKey(job.call.endpoint, job.call.params);
	if (job.call.endpoint.shape !== 'list') return key;
	return `${key}#${job.returnAll ? 'all' : `limit=${job.limit ?? ''}`}`;
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

const chargedOf = (e: unknown): number => (isIgError(e) ? e.charged : 0);

async function runSingle(config: ClientConfig, job: Job, io: AsyncIO, ledger: Ledger): Promise<Outcome> {
	const cost = estimateCost(job.call.endpoint, job.call.params).credits;
	if (!ledger.tryReserve(cost)) return { ok: false, error: { name: 'CreditCap', cap: ledger.cap as number, spent: ledger.spent, cost } };
	try {
		const r = await runAsync(send(config, job.call), io);
		ledger.settle(cost, r.creditsCharged);
		const meta: Meta = { endpoint: job.call.endpoint.id, credits_charged: r.creditsCharged, credits_remaining: r.creditsRemaining, request_id: r.requestId };
		const items = job.call.endpoint.shape === 'list' && job.limit !== undefined ? r.items.slice(0, job.limit) : r.items;
		return { ok: true, items, meta };
	} catch (e) {
		ledger.settle(cost, chargedOf(e));
		return { ok: false, error: isIgError(e) ? e : asError(e) };
	}
}

/** A paged list: the core's paginate, with the execution's ledger as its shared credit budget. */
async function runPaged(config: ClientConfig, job: Job, io: AsyncIO, ledger: Ledger, options: RunOptions): Promise<Outcome> {
	const { endpoint } = job.call;
	const maxPages = options.maxPages ?? 10000;
	const cap: PagingCap = { maxPages, budget: ledger };
	if (!job.returnAll && job.limit !== undefined) cap.maxItems = job.limit;
	let total: PagingResult;
	try {
		total = await runAsync(paginate(config, job.call, cap), io);
	} catch (e) {
		return { ok: false, error: isIgError(e) ? e : asError(e) }; // the first page failed: nothing to keep
	}
	const meta: Meta = {
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
			const cost = estimateCost(endpoint, job.call.params).credits;
			if (!total.items.length) return { ok: false, error: { name: 'CreditCap', cap: ledger.cap as number, spent: ledger.spent, cost } };
			// describeStop with the execution's spend: the cap is per execution, not per list.
			return { ok: true, items: total.items, meta, notice: describeStop({ ...total, creditsCharged: ledger.spent }, { maxCredits: ledger.cap }) };
		}
		case 'pages':
			return { ok: true, items: total.items, meta, notice: describeStop(total, cap) };
		default:
			return { ok: true, items: total.items, meta };
	}
}

/**
 * Run every job; identical jobs run once. Returns one outcome per job, in order. Never throws for
 * a failed request (the outcome carries the error); throws only for bugs.
 */
export async function runJobs(config: ClientConfig, jobs: (Job | undefined)[], io: AsyncIO, options: RunOptions): Promise<(Outcome | undefined)[]> {
	const ledger = new Ledger(options.creditCap);
	const gate = new Gate(Math.max(1, Math.floor(options.concurrency)));
	// Every request of every job passes the gate: pages of one list run one after another, lists and
	// single lookups of different items run side by side, never more than `concurrency` at once.
	const gatedIO: AsyncIO = {
		fetch: (request) => gate.run(() => io.fetch(request)),
		sleep: (ms) => io.sleep(ms),
	};
	const first = new Map<string, number>();
	const unique: { job: Job; index: number }[] = [];
	const source: (number | undefined)[] = jobs.map((job, index) => {
		if (!job) return undefined;
		const key = jobKey(job);
		const seen = first.get(key);
		if (seen !== undefined) return seen;
		first.set(key, index);
		unique.push({ job, index });
		return index;
	});
	const results = new Map<number, Outcome>();
	// Jobs start in input order; each waits at the gate before its request goes out. Starting them
	// all at once is cheap (promises), and the gate keeps the order of requests first-come.
	await Promise.all(
		unique.map(async ({ job, index }) => {
			const paged = job.call.endpoint.shape === 'list' && job.call.endpoint.paginated;
			results.set(index, paged ? await runPaged(config, job, gatedIO, ledger, options) : await runSingle(config, job, gatedIO, ledger));
		}),
	);
	return jobs.map((job, index) => {
		const from = source[index];
		if (from === undefined) return undefined;
		const outcome = results.get(from) as Outcome;
		if (from === index || !outcome.ok) return outcome;
		return { ...outcome, meta: { ...outcome.meta, credits_charged: 0, deduplicated: true } };
	});
}
