/**
 * The errors of a run of many calls as a whole (an n8n execution), beside the errors of one request
 * (errors.ts): a run refused before its first billed request, and an item that a run stopped
 * part-way did not look up; with the sentences users read for them. A module of its own so that
 * the Sheets bundle, which has no such run and is paid for on every custom-function call, leaves
 * it out.
 */
import { DASHBOARD_URL } from './constants';
import type { ERROR_CODES } from './error-codes';
import type { IgApiError } from './errors';
import type { KnownErrorCode } from './types';
import type { MessageContext } from './words';
import { counted, plural, thousands } from './plural';

/** What the part of a run whose cost is known before it starts would cost. */
export interface WorkEstimate {
  /** Distinct calls (identical requests are sent once). */
  calls: number;
  credits: number;
  /** The dearest single call: no batch of items is cheaper than it. */
  largest: number;
}

/** How far a run got before it stopped, counted once every request is answered or has failed. */
export interface RunTally {
  calls: number;
  /** Calls that got an answer (data or a billed error) before the stop. */
  answered: number;
  spent: number;
  /** Input items with a call. */
  items: number;
  /** Input items whose call was answered. */
  delivered: number;
}

/**
 * What earlier runs of the same capped work already spent (an n8n node's runs within one execution: loops, tool calls).
 */
export interface EarlierRuns {
  runs: number;
  spent: number;
}

/**
 * A run refused before its first billed request: its known work would cost more than the credit
 * cap (`limit: 'cap'`, less what `earlier` runs under the same cap spent) or the balance
 * (`'balance'`). Nothing was sent: never billed.
 */
export class RunRefusedError extends Error {
  readonly name = 'RunRefusedError' as const;
  readonly charged = 0;
  constructor(
    readonly limit: 'cap' | 'balance',
    /** The cap, or the balance the service reported. */
    readonly available: number,
    readonly work: WorkEstimate,
    readonly earlier: EarlierRuns = { runs: 0, spent: 0 },
  ) {
    super(
      `Refused: ${plural(work.calls, 'call')} would cost ~${plural(work.credits, 'credit')}, over ` +
        `the ${limit === 'cap' ? 'credit cap' : 'balance'} of ${available}.`,
    );
  }
}

/**
 * An item not looked up: its run stopped part-way at an error every further request would meet
 * too (core's `stopsBulkRun`: an empty balance, a refused key). Never billed.
 */
export class RunStoppedError extends Error {
  readonly name = 'RunStoppedError' as const;
  readonly charged = 0;
  constructor(
    /** What stopped the run. */
    readonly stoppedBy: IgApiError,
    readonly tally: RunTally,
  ) {
    super(`Not looked up: the run stopped after ${tally.answered} of ${tally.calls} calls (${stoppedBy.message}).`);
  }
}

export type RunError = RunRefusedError | RunStoppedError;

// By name, as the Ig family's guards: two bundled copies of the core still recognise each other's errors.
const nameOf = (e: unknown): unknown =>
  typeof e === 'object' && e !== null ? (e as { name?: unknown }).name : undefined;
export const isRunRefusedError = (e: unknown): e is RunRefusedError => nameOf(e) === 'RunRefusedError';
export const isRunStoppedError = (e: unknown): e is RunStoppedError => nameOf(e) === 'RunStoppedError';
export const isRunError = (e: unknown): e is RunError => isRunRefusedError(e) || isRunStoppedError(e);

/** The codes of the error table that stop a bulk run (`stopsBulk: true`). */
type StopCode = {
  [K in KnownErrorCode]: (typeof ERROR_CODES)[K] extends { stopsBulk: true } ? K : never;
}[KnownErrorCode];

/** Why a run stopped at each of those codes and what the user does about it; the table's type requires one per code. */
const STOPS: Record<StopCode, (ctx: MessageContext) => { why: string; fix: string }> = {
  invalid_api_key: (ctx) => ({
    why: 'the API key was refused (invalid or revoked)',
    fix: `Set a valid key in ${ctx.keyWhere}`,
  }),
  missing_api_key: (ctx) => ({ why: 'no API key was sent', fix: `Set it in ${ctx.keyWhere}` }),
  insufficient_credits: () => ({ why: 'your credit balance is empty', fix: 'Top up' }),
};

/**
 * How a run that stopped part-way ended: how far it got, why it stopped, what was spent and
 * delivered, and what to do. The notice on a run's output, and what its items not looked up say.
 */
export function runStopSentence(error: RunStoppedError, ctx: MessageContext): string {
  const { stoppedBy, tally } = error;
  const stop = STOPS[stoppedBy.code as StopCode];
  // Only codes that stop bulk runs stop one; the fallback keeps a caller's slip readable.
  const { why, fix } = stop ? stop(ctx) : { why: `the service answered ${stoppedBy.code}`, fix: 'See the error' };
  return (
    `Stopped after ${thousands(tally.answered)} of ${counted(tally.calls, 'lookup')}: ${why}. ` +
    `${counted(tally.spent, 'credit')} spent; ${counted(tally.delivered, 'item')} ` +
    `delivered, ${thousands(tally.items - tally.delivered)} not looked up. ` +
    `${fix}, then run again for the items not looked up.`
  );
}

/**
 * A run refused before it started: what its known work would cost, the limit it is over, and what
 * to change. Over the balance, splitting is offered when a batch can fit (one call can cost more
 * than the balance). Over the cap, only raising it: the cap bounds the whole execution, and a
 * sentence on how to split the work would be one on how to spend past it.
 */
function refusedSentence(error: RunRefusedError, ctx: MessageContext): string {
  const { work, available, earlier } = error;
  const cost = `${counted(work.calls, 'distinct lookup')} would cost ~${counted(work.credits, 'credit')}`;
  if (error.limit === 'balance') {
    const batch = Math.floor(available / Math.max(1, work.largest));
    const split =
      batch > 0
        ? `, or split the input into batches of ${counted(batch, 'item')} ` +
          `or fewer${ctx.splitWith ? ` (${ctx.splitWith})` : ''}`
        : '';
    return (
      `Not started: ${cost} and your balance is ${counted(available, 'credit')}. ` +
      `Top up at ${DASHBOARD_URL}${split}. Nothing was sent. (Not charged.)`
    );
  }
  const off = ctx.capOff ? ` (${ctx.capOff})` : '';
  const raise =
    `Raise ${ctx.capWhere ?? 'the credit cap'} to at least ${thousands(earlier.spent + work.credits)}${off}. ` +
    'Nothing was sent. (Not charged.)';
  if (!earlier.runs) return `Not started: ${cost}, over the credit cap of ${thousands(available)}. ${raise}`;
  const before =
    `${counted(earlier.runs, 'earlier run')} of this node in this execution spent ` +
    `${counted(earlier.spent, 'credit')} of its credit cap of ${thousands(available)}`;
  return `Not started at this node's run ${thousands(earlier.runs + 1)}: ${cost}, and ${before}. ${raise}`;
}

/** The sentence users read for a run error: userMessage's counterpart for a run as a whole. */
export function runErrorMessage(error: RunError, ctx: MessageContext): string {
  if (error.name === 'RunRefusedError') return refusedSentence(error, ctx);
  return `Not looked up. ${runStopSentence(error, ctx)} (Not charged.)`;
}
