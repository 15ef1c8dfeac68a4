/**
 * One credit cap per workflow execution: what the node's runs in one execution have spent, shared
 * by all of them (each batch of Loop Over Items, each AI agent's tool call, each input branch).
 *
 * It lives in n8n's node context (`getContext('node')`), the per-execution store n8n's own Loop Over
 * Items keeps its state in: part of the execution's run data, keyed by node name, so every run of
 * this node in the execution sees the same object (n8n 2.8.4 to 2.41.1 build the context of a tool
 * call on the same run data), and it ends with the execution (nothing to clean up). In queue mode an
 * execution runs on one worker, so its runs share it there too; a waiting execution (a Wait node)
 * saves it with the run data and finds it again when it resumes. Plain numbers, for that reason.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import type { LedgerTally } from '@igdata/core';
import { emptyTally } from '@igdata/core';

export interface ExecutionCredits {
  /** Spent, reserved and held by this node's runs in this execution: the cap applies to it. */
  tally: LedgerTally;
  /** Runs of this node in this execution that have finished. */
  runs: number;
}

const KEY = 'igDataCredits';

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** This node's credits in the current execution (made on its first run). */
export function executionCredits(ctx: IExecuteFunctions): ExecutionCredits {
  const context = ctx.getContext('node');
  const saved = context[KEY] as Partial<ExecutionCredits> | undefined;
  if (saved && typeof saved === 'object' && saved.tally && typeof saved.tally === 'object') {
    // A context restored from the database (a resumed execution) holds what was saved; anything that is not a count
    // counts 0.
    saved.tally.spent = count(saved.tally.spent);
    saved.tally.reserved = count(saved.tally.reserved);
    saved.tally.held = count(saved.tally.held);
    saved.runs = count(saved.runs);
    return saved as ExecutionCredits;
  }
  const fresh: ExecutionCredits = { tally: emptyTally(), runs: 0 };
  context[KEY] = fresh;
  return fresh;
}
