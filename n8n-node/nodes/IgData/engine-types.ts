/**
 * The engine's plain types: what an input item asks for, what the run is given, what each distinct
 * call gives and what each item gets back. The bottom layer of the engine's modules (requests,
 * ledger, dedupe, lookup, paging, engine): it imports none of them.
 */
import type { AnyIgError, Call, LedgerTally, PagingResult, RunError } from '@igdata/core';
import type { Memory } from './pace-memory';

/** What one input item asked for. */
export interface ItemCall {
  call: Call;
  /** Lists only: read every page (bounded by the credit cap and `maxPages`). */
  returnAll: boolean;
  /** Lists only, when not returnAll: at most this many items. */
  limit?: number;
}

export interface RunOptions {
  /** The most requests in flight: the Concurrency the user set, else the node's maximum. */
  concurrency: number;
  /** The user set Concurrency: the first wave is that wide (else the pace's, core's pace.ts). */
  concurrencySet?: boolean;
  /** What this process remembers of the API between runs (pace-memory.ts); a fresh one when absent. */
  memory?: Memory;
  /** The clock the pace and the known balance read (ms); performance.now when absent. */
  now?: () => number;
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

/** The `meta` field of an output item (Options > Include Meta). */
export interface ItemMeta {
  endpoint: string;
  credits_charged: number;
  /** An answer served again (deduplicated): what it cost when first looked up (`credits_charged` is then 0). */
  credits_charged_first?: number;
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
 * What one distinct call gives before the run ends. Errors that state the run's totals (the cap's
 * spend, how far a stopped run got) are made only once every call has finished (engine.ts).
 */
export type CallResult =
  | ItemResult
  /** The cap refused the call's first request (held work always gets its share: a safeguard). */
  | { ok: false; capped: number }
  /** The run stopped before this call got an answer (see Requests.note). */
  | { ok: false; notLookedUp: true }
  /** A list the cap stopped after some pages: its notice states the spend once every call has finished. */
  | { ok: true; items: Record<string, unknown>[]; meta: ItemMeta; cappedList: PagingResult };

export const NOT_LOOKED_UP: CallResult = { ok: false, notLookedUp: true };

export const isPaged = (itemCall: ItemCall): boolean =>
  itemCall.call.endpoint.shape === 'list' && itemCall.call.endpoint.paginated;
