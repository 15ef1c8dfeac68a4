/**
 * The run's credit ledger and the pre-check. The work whose cost is known before it starts
 * (lookups, Limit lists, the first page of a Return All) is priced with the core's `estimateCost`
 * and, before the first billed request, checked against the credit cap (less what earlier runs in
 * the execution spent) and, above BALANCE_CHECK_ABOVE credits, against the balance (unless one an
 * answer reported lately covers it, pace-memory.ts); over either,
 * nothing is sent. Otherwise its estimate is held in the ledger up front, so a Return All only uses
 * what is left of the cap, and each call gets its share as an allowance.
 */
import type { AnyIgError, AsyncIO, ClientConfig, EarlierRuns, RunError, WorkEstimate } from '@igdata/core';
import {
  CreditLedger,
  RunRefusedError,
  estimateCost,
  isIgError,
  prepare,
  driveAsync,
  send,
  stopsBulkRun,
} from '@igdata/core';
import type { ItemCall, RunOptions } from './engine-types';
import { isPaged } from './engine-types';
import type { Requests } from './requests';

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
function knownCost(itemCall: ItemCall): number {
  const { endpoint, params } = itemCall.call;
  const perRequest = estimateCost(endpoint, params).credits;
  if (!isPaged(itemCall) || itemCall.returnAll || itemCall.limit === undefined) return perRequest;
  return perRequest * Math.max(1, Math.ceil(itemCall.limit / (endpoint.pageSize ?? itemCall.limit)));
}

/** The balance from the free credits endpoint, or the Ig error reading it met (any other failure: unknown). */
async function balanceNow(config: ClientConfig, io: AsyncIO): Promise<number | AnyIgError | undefined> {
  return await driveAsync(send(config, prepare('credits', {})), io).then(
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
async function preCheck(
  config: ClientConfig,
  io: AsyncIO,
  ledger: CreditLedger,
  work: WorkEstimate,
  earlier: EarlierRuns,
  requests: Requests,
): Promise<AnyIgError | RunError | undefined> {
  if (!ledger.tryHold(work.credits)) return new RunRefusedError('cap', ledger.cap as number, work, earlier);
  if (work.credits <= BALANCE_CHECK_ABOVE) return undefined;
  // A balance an answer reported lately that covers the work: no read, no round trip (a wrong one
  // costs what a small run risks, a stop at the first 402 keeping what was answered). Reading it
  // beside the first wave instead would save nothing: that wave could only be as wide as what a
  // refusal may waste (BALANCE_CHECK_ABOVE credits), and the rest would wait for the read anyway.
  if (requests.balance?.covers(work.credits, requests.now())) return undefined;
  const balance = await balanceNow(config, io);
  if (typeof balance === 'number') requests.balance?.saw(balance, requests.now());
  if (typeof balance === 'number')
    return balance < work.credits ? new RunRefusedError('balance', balance, work) : undefined;
  return balance && stopsBulkRun(balance) ? balance : undefined;
}

/**
 * The ledger of a run over `calls` (the distinct ones) and each call's share of the known work, or
 * the refusal of that work (then nothing is sent). The ledger's tally may be shared with earlier
 * runs of the node in the execution (`options.tally`).
 */
export async function openLedger(
  config: ClientConfig,
  io: AsyncIO,
  calls: ItemCall[],
  options: RunOptions,
  requests: Requests,
): Promise<{ ledger: CreditLedger; shares: number[] } | { refusal: AnyIgError | RunError }> {
  const shares = calls.map(knownCost);
  const work: WorkEstimate = {
    calls: calls.length,
    credits: shares.reduce((a, b) => a + b, 0),
    largest: shares.reduce((a, b) => Math.max(a, b), 0),
  };
  const ledger = new CreditLedger(options.creditCap, options.tally);
  const earlier = { runs: options.earlierRuns ?? 0, spent: ledger.spent };
  const refusal = await preCheck(config, io, ledger, work, earlier, requests);
  return refusal ? { refusal } : { ledger, shares };
}
