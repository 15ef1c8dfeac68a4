/**
 * Sending the requests of one execution: at most `concurrency` in flight (one gate for all items
 * and pages), and none once the execution has stopped (the first answer that every further request
 * would meet too: an empty balance, a refused key; core's `stopsBulkRun`).
 */
import type { AnyIgError, ApiResult, AsyncIO, Call, ClientConfig, Effect, IgApiError, Op } from '@igdata/core';
import { isIgError, noHttpAnswer, send, stopsBulkRun } from '@igdata/core';

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
export class Run {
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

export const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

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
export async function sendOne(config: ClientConfig, call: Call, io: AsyncIO, run: Run): Promise<ApiResult | AnyIgError> {
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
