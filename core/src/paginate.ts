/**
 * Walking lists with a mandatory cap: one page, one list, or many lists at once (page N of every
 * target in one batch, one UrlFetchApp.fetchAll). Every decision about the next page is the rule
 * of page-rule.ts; this file only sends pages, settles the shared budget and collects the results.
 */
import { send, sendAll } from './call';
import type { AnyIgError } from './errors';
import { isIgError } from './errors';
import type { PageLike, PagePlan, PagingCap, PagingProgress, PagingResult } from './page-rule';
import { NOTHING_READ, afterPage, capBefore, planPaging, withCursor } from './page-rule';
import type { ApiResult, Call, ClientConfig, Op } from './types';

/** A page as the walk records it: from the service, or from a cache (then `creditsCharged` is 0). */
export type PageAnswer = (PageLike & { requestId?: string; creditsRemaining?: number }) | AnyIgError;

/** One page of a list: the page at `cursor` (null: the first). Throws an Ig error when it fails. */
export function* fetchPage(config: ClientConfig, call: Call, cursor: string | null): Op<ApiResult> {
  return yield* send(config, withCursor(call, cursor));
}

interface Target {
  plan: PagePlan;
  /** The call of this target's next page. */
  call: Call;
  read: PagingProgress;
  result: PagingResult;
  /** Budget reserved for the page handed out and not yet recorded; undefined when none is out. */
  out?: number;
  done: boolean;
}

/**
 * The walk of many lists, one round at a time, free of I/O so each product can fetch a round its
 * own way (Sheets: cache first, then fetchAll under a deadline; elsewhere `paginateMany`).
 * Caps apply to each target; the cap's `budget` is shared by all of them. Nothing throws for a
 * failed page: its target stops with 'error' and holds the pages it paid for.
 */
export class PageWalk {
  private readonly targets: Target[];
  constructor(
    calls: Call[],
    private readonly cap: PagingCap,
  ) {
    this.targets = calls.map((call) => {
      const plan = planPaging(call, cap);
      const stop = capBefore(plan, NOTHING_READ);
      const result: PagingResult = {
        items: [],
        pages: 0,
        creditsCharged: 0,
        stoppedBy: stop ?? 'end',
        nextCursor: null,
        requestIds: [],
      };
      return { plan, call, read: NOTHING_READ, result, done: stop !== null };
    });
  }

  get done(): boolean {
    return this.targets.every((t) => t.done);
  }

  /**
   * The next page of every target still going, in input order, each reserved from the shared
   * budget first (a target the budget refuses stops with 'credits'). Empty when the walk is over.
   * Every page handed out must be given back with `record` or `unsent` before the next round.
   */
  nextRound(): { index: number; call: Call }[] {
    const round: { index: number; call: Call }[] = [];
    this.targets.forEach((t, index) => {
      if (t.out !== undefined) throw new Error(`PageWalk: page of target ${index} neither recorded nor unsent`);
      if (t.done) return;
      if (this.cap.budget && !this.cap.budget.tryReserve(t.plan.pageCost)) return this.stop(t, 'credits');
      t.out = t.plan.pageCost;
      round.push({ index, call: t.call });
    });
    return round;
  }

  /** The answer to a target's page of this round. */
  record(index: number, answer: PageAnswer): void {
    const charged = isIgError(answer) ? answer.charged : answer.creditsCharged;
    const t = this.settle(index, charged);
    const r = t.result;
    r.creditsCharged += charged;
    if (isIgError(answer)) {
      r.error = answer;
      return this.stop(t, 'error');
    }
    const decision = afterPage(t.plan, t.read, answer);
    t.read = decision.read;
    r.pages = decision.read.pages;
    r.items.push(...decision.taken);
    if (answer.requestId) r.requestIds.push(answer.requestId);
    if (answer.creditsRemaining !== undefined) r.creditsRemaining = answer.creditsRemaining;
    if ('next' in decision) {
      r.nextCursor = decision.next;
      t.call = withCursor(t.call, decision.next);
    } else {
      r.nextCursor = decision.resume;
      this.stop(t, decision.stop);
    }
  }

  /**
   * A page handed out but not sent (the caller ran out of time): its reservation is released, its target stops with
   * 'time'.
   */
  unsent(index: number): void {
    const t = this.settle(index, 0);
    t.result.nextCursor = (t.call.params.cursor as string | undefined) ?? null;
    this.stop(t, 'time');
  }

  /** One result per target, in input order. */
  results(): PagingResult[] {
    return this.targets.map((t) => t.result);
  }

  /** The target whose page is given back: its reservation is settled at what the page cost. */
  private settle(index: number, charged: number): Target {
    const t = this.targets[index];
    if (!t || t.out === undefined) throw new Error(`PageWalk: no page of target ${index} is out`);
    this.cap.budget?.settle(t.out, charged);
    t.out = undefined;
    return t;
  }

  private stop(t: Target, reason: PagingResult['stoppedBy']): void {
    t.done = true;
    t.result.stoppedBy = reason;
  }
}

/** Many lists over the network: each round is one batch (page N of every target, one httpAll). */
export function* paginateMany(config: ClientConfig, calls: Call[], cap: PagingCap): Op<PagingResult[]> {
  const walk = new PageWalk(calls, cap);
  for (let round = walk.nextRound(); round.length; round = walk.nextRound()) {
    const answers = yield* sendAll(
      config,
      round.map((p) => p.call),
    );
    round.forEach((p, k) => walk.record(p.index, answers[k]));
  }
  return walk.results();
}

/**
 * One list. When a later page fails, the pages already paid for are kept (stoppedBy 'error');
 * when the first page fails there is nothing to return, and its error is thrown.
 */
export function* paginate(config: ClientConfig, call: Call, cap: PagingCap): Op<PagingResult> {
  const [result] = yield* paginateMany(config, [call], cap);
  if (result.stoppedBy === 'error' && result.pages === 0) throw result.error;
  return result;
}
