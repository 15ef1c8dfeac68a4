/**
 * The action node's engine, free of n8n so it can be tested in-process: it takes the calls the
 * input items asked for in one run and runs them over the core, one concern per file:
 * - dedupe.ts: identical normalised requests are sent once, the answer fanned out;
 * - ledger.ts: the pre-check of the known work against the credit cap and the balance (over
 *   either, nothing is sent and every item carries the refusal), and the run's credit ledger: the
 *   known work held up front, each request's cost reserved before it and settled after it with
 *   the `credits_charged` the service reported; its tally may be shared with earlier runs;
 * - requests.ts: at most the pace's window in flight (core's pace.ts, paced-gate.ts), never over
 *   `concurrency`, the pace kept for the next run (pace-memory.ts); after an answer every
 *   further request would meet too, nothing more is sent;
 * - lookup.ts and paging.ts: a single request, or a list read page by page.
 * What each item's result then becomes in n8n's output is outcome.ts's.
 */
import type { AnyIgError, AsyncIO, ClientConfig, IgApiError, RunError, RunTally } from '@igdata/core';
import { CreditLedger, IgCreditCapError, Pace, RunStoppedError, describeStop } from '@igdata/core';
import { dedupe, withFanOut } from './dedupe';
import type { CallResult, ItemCall, ItemResult, RunOptions } from './engine-types';
import { isPaged } from './engine-types';
import { openLedger } from './ledger';
import { lookUp } from './lookup';
import { KnownBalance } from './pace-memory';
import { readList } from './paging';
import { Requests, asError } from './requests';

// What callers of runItemCalls (the tests, the soak) name.
export type { ItemCall, ItemResult } from './engine-types';

/** How far a stopped run got, counted once every call has finished. */
function tallyOf(results: Map<number, CallResult>, source: (number | undefined)[], ledger: CreditLedger): RunTally {
  const answered = (from: number) => !('notLookedUp' in (results.get(from) as CallResult));
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
 * a failed request (the result carries the error); a bug in one call is kept to its items as an Error.
 */
export async function runItemCalls(
  config: ClientConfig,
  itemCalls: (ItemCall | undefined)[],
  io: AsyncIO,
  options: RunOptions,
): Promise<(ItemResult | undefined)[]> {
  const { unique, source } = dedupe(itemCalls);
  const memory = options.memory ?? { pace: new Pace(options.concurrency), balance: new KnownBalance() };
  const now = options.now ?? (() => performance.now());
  memory.pace.startRun(options.concurrency, options.concurrencySet ?? false, now());
  const requests = new Requests(memory.pace, now, memory.balance);
  const opened = await openLedger(
    config,
    io,
    unique.map((u) => u.itemCall),
    options,
    requests,
  );
  if ('refusal' in opened) return itemCalls.map((itemCall) => itemCall && { ok: false, error: opened.refusal });
  const { ledger, shares } = opened;

  const results = new Map<number, CallResult>();
  // Calls start in input order, each with its share of the held estimate; every request waits at
  // the gate, so pages of one list run one after another, and lists and lookups of different
  // items side by side, never more than the pace's window at once. Starting them all is cheap (promises).
  await Promise.all(
    unique.map(async ({ itemCall, index }, k) => {
      const budget = ledger.allowance(shares[k]);
      try {
        results.set(
          index,
          isPaged(itemCall)
            ? await readList(config, itemCall, io, requests, budget, options)
            : await lookUp(config, itemCall, io, requests, budget),
        );
      } catch (e) {
        results.set(index, { ok: false, error: asError(e) }); // a bug, kept to its item
      } finally {
        budget.release(); // what the estimate held and the call did not use
      }
    }),
  );
  // Every call has finished: errors can now state what the run really spent and got.
  const stop = requests.stoppedBy && tallyOf(results, source, ledger);
  // A stop before any answer adds nothing to its own error: the items carry that error itself.
  const notLookedUp: AnyIgError | RunError | undefined =
    stop && (stop.answered ? new RunStoppedError(requests.stoppedBy as IgApiError, stop) : requests.stoppedBy);
  return itemCalls.map((_, index) => {
    const from = source[index];
    if (from === undefined) return undefined;
    const s = results.get(from) as CallResult;
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
