/**
 * Sending the requests of one run: at most `concurrency` in flight (one semaphore for all items
 * and pages), and none once the run has stopped (the first answer that every further request
 * would meet too: an empty balance, a refused key; core's `stopsBulkRun`).
 */
import type { AnyIgError, ApiResult, AsyncIO, Call, ClientConfig, Effect, IgApiError, Op } from '@igdata/core';
import { isIgError, noHttpAnswer, send, stopsBulkRun } from '@igdata/core';
import type { CallResult } from './engine-types';
import { NOT_LOOKED_UP } from './engine-types';
import { Semaphore } from './semaphore';

/** What every request of one run shares: the semaphore, and what stopped the run, if anything did. */
export class Requests {
  readonly semaphore: Semaphore;
  stoppedBy?: IgApiError;
  constructor(concurrency: number) {
    this.semaphore = new Semaphore(concurrency);
  }
  /** The first error that stops bulk runs stops this run: every request after it would fail the same way. */
  note(error: unknown): void {
    if (isIgError(error) && error.name === 'IgApiError' && stopsBulkRun(error)) this.stoppedBy ??= error;
  }
}

/** A failed call: not looked up when it met the run's stop (never billed), else its error. */
export const callFailure = (error: AnyIgError): CallResult =>
  stopsBulkRun(error) ? NOT_LOOKED_UP : { ok: false, error };

export const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/**
 * The op advanced to its next effect or its end, or what it threw: a call's failures are values here, not exceptions.
 */
function advance<T>(op: Op<T>, input?: unknown): IteratorResult<Effect, T> | { thrown: unknown } {
  try {
    return op.next(input);
  } catch (thrown) {
    return { thrown };
  }
}

/**
 * One request of a call, driven like the core's driveAsync with the engine's rules on every request:
 * it waits its turn at the semaphore, and once the run has stopped it is not sent at all (the
 * call is abandoned, with the stop as its error). The answer is read before the semaphore lets the next
 * request go, so that a stop it brings holds that request back. Returns the answer or the Ig error.
 */
export async function sendOne(
  config: ClientConfig,
  call: Call,
  io: AsyncIO,
  requests: Requests,
): Promise<ApiResult | AnyIgError> {
  const op = send(config, call);
  let progress = advance(op);
  while (!('thrown' in progress) && !progress.done) {
    const effect = progress.value;
    if (effect.kind === 'sleep') {
      await io.sleep(effect.ms);
      progress = advance(op);
      continue;
    }
    if (effect.kind !== 'http') throw new Error('The engine sends one request per call at a time; got a batch.');
    const next = await requests.semaphore.run(async () => {
      if (requests.stoppedBy) return requests.stoppedBy;
      const after = advance(op, await io.fetch(effect.request).catch(noHttpAnswer));
      if ('thrown' in after) requests.note(after.thrown);
      return after;
    });
    if (isIgError(next)) return next;
    progress = next;
  }
  if (!('thrown' in progress)) return progress.value;
  if (isIgError(progress.thrown)) return progress.thrown;
  throw asError(progress.thrown); // a bug in the core: runItemCalls keeps it to its item
}
