/**
 * Sending the requests of one run: at most the pace's window in flight (one gate for all items and
 * pages; core's pace.ts says how the window moves, paced-gate.ts holds the requests to it), and
 * none once the run has stopped (the first answer that every further request would meet too: an
 * empty balance, a refused key; core's `stopsBulkRun`).
 */
import type { AnyIgError, ApiResult, AsyncIO, Call, ClientConfig, Effect, IgApiError, Op, Pace } from '@igdata/core';
import { isIgError, noHttpAnswer, send, stopsBulkRun } from '@igdata/core';
import type { CallResult } from './engine-types';
import { NOT_LOOKED_UP } from './engine-types';
import { PacedGate } from './paced-gate';
import type { KnownBalance } from './pace-memory';

/** What every request of one run shares: the gate, the pace, what stopped the run, if anything did. */
export class Requests {
  readonly gate: PacedGate;
  stoppedBy?: IgApiError;
  constructor(
    readonly pace: Pace,
    readonly now: () => number,
    readonly balance?: KnownBalance,
  ) {
    this.gate = new PacedGate(pace);
  }
  /** The first error that stops bulk runs stops this run: every request after it would fail the same way. */
  note(error: unknown): void {
    if (isIgError(error) && error.name === 'IgApiError' && stopsBulkRun(error)) this.stoppedBy ??= error;
  }
  /** What one answer tells the pace (its time, a refusal) and the balance kept for the next run. */
  heard(status: number, ms: number, remaining: number | undefined): void {
    const now = this.now();
    if (status === 429) this.pace.refusedAt(this.gate.inFlight - 1, now);
    // An answer of the platform (data, a 404): a 5xx or no answer says nothing of the pace.
    else if (status >= 200 && status < 500) this.pace.answered(ms, this.gate.asked, now);
    if (remaining !== undefined && this.balance) this.balance.saw(remaining, now);
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
 * it waits its turn at the gate (a try after a refusal ahead of first tries), and once the run has
 * stopped it is not sent at all (the call is abandoned, with the stop as its error). The answer is
 * read before the gate lets the next request go, so that a stop it brings holds that request back,
 * and tells the pace how fast it came or that it was refused. Returns the answer or the Ig error.
 */
export async function sendOne(
  config: ClientConfig,
  call: Call,
  io: AsyncIO,
  requests: Requests,
): Promise<ApiResult | AnyIgError> {
  const op = send(config, call);
  let progress = advance(op);
  let again = false;
  while (!('thrown' in progress) && !progress.done) {
    const effect = progress.value;
    if (effect.kind === 'sleep') {
      await io.sleep(effect.ms);
      progress = advance(op);
      continue;
    }
    if (effect.kind !== 'http') throw new Error('The engine sends one request per call at a time; got a batch.');
    const next = await requests.gate.run(async () => {
      if (requests.stoppedBy) return requests.stoppedBy;
      const sentAt = requests.now();
      const res = await io.fetch(effect.request).catch(noHttpAnswer);
      requests.heard(res.status, requests.now() - sentAt, remainingOf(res));
      const after = advance(op, res);
      if ('thrown' in after) requests.note(after.thrown);
      return after;
    }, again);
    again = true;
    if (isIgError(next)) return next;
    progress = next;
  }
  if (!('thrown' in progress)) return progress.value;
  if (isIgError(progress.thrown)) return progress.thrown;
  throw asError(progress.thrown); // a bug in the core: runItemCalls keeps it to its item
}

/** The balance an answer reports (its x-credits-remaining header), if any. */
function remainingOf(res: { status: number; headers: Record<string, string> }): number | undefined {
  const v = Number(res.headers['x-credits-remaining']);
  return res.status >= 200 && res.status < 300 && res.headers['x-credits-remaining'] !== undefined && Number.isFinite(v)
    ? v
    : undefined;
}
