/**
 * The action node's per-item outcome policy, in one place: what happens to each input item's
 * result in n8n's output (`decide`), whether the run throws (`runFailure`, which only applies what
 * `decide` said), and what a failed media download does to its answered item (`mediaFailure`).
 *
 * The rule behind it: what was paid for reaches the user. In n8n a node that throws fails the
 * execution and its output is lost (n8n keeps no items of a failed node run), so throwing is kept
 * for what makes the whole execution wrong and has nothing paid to lose. The sentences say what
 * was charged ("Not charged.", "Charged 1 credit.", "May have been charged." for a try whose
 * answer was lost): they are core's (`userMessage`, `runErrorMessage`).
 *
 * An AI agent's tool call is one run of the node inside the agent's execution, and a run that
 * throws ends that whole execution (n8n-core's WorkflowExecute: the agent never answers, and
 * the answers of earlier calls, paid for, reach nobody). So a tool call treats every failure as
 * Continue On Fail does: the item that says it (the same sentence and code) is the tool's answer,
 * which the agent hands to the model (`failuresAsItems`).
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';
import type { Call } from '@igdata/core';
import { isIgError, isRunRefusedError, isRunStoppedError, stopsBulkRun } from '@igdata/core';
import type { Disposition, Failure, ItemPolicy } from './disposition';
import { answerItems, failedJson, isNotFound, notFoundJson, receivedItems } from './disposition';
import type { ItemResult } from './engine-types';
import type { MediaFailure } from './media-response';
import { failureSentence } from './media-response';
import { errorJson, failureMessage, toNodeError } from './output';

/**
 * Whether this run is an AI agent's tool call. n8n gives a `usableAsTool` node a second type,
 * `<package>.<node>Tool`, and the agent's tool calls run that type: by the engine's requests (the
 * AI Agent from n8n 2.x; `isToolExecution()` is false there) or, in older agents and other tool
 * users, through a sub-node context whose `isToolExecution()` is true. Our own type is `igData`.
 */
export function isToolCall(ctx: IExecuteFunctions): boolean {
  const type = String(ctx.getNode().type ?? '')
    .split('.')
    .pop();
  return Boolean(type?.endsWith('Tool')) || ctx.isToolExecution?.() === true;
}

/** Whether a failed item becomes its error item (rather than a notice or the run's throw). */
export const failuresAsItems = (ctx: IExecuteFunctions): boolean => ctx.continueOnFail() || isToolCall(ctx);

/**
 * The policy: item `i`'s result from the engine (or its failure before any request, `early`) as
 * what it becomes, case by case in this order.
 */
export function decide(
  i: number,
  result: ItemResult | undefined,
  early: Failure | undefined,
  policy: ItemPolicy,
): Disposition {
  // An answer: its items. A list the cap, the page bound or a failed page stopped part-way is one
  // too (its pages were paid for): its notice says where it stopped and what to do.
  if (result?.ok) return answerItems(result.items, policy, result.meta, result.notice);
  const error = early ?? result?.error;
  if (!error) return { kind: 'notLookedUp' };
  const deduplicated = result && !result.ok ? result.deduplicated : undefined;
  // A billed 404 (private, deleted or nonexistent) is an answer: Options > On Not Found decides
  // (an item `found: false` by default, or left out with a notice; Error falls through).
  if (isNotFound(error) && policy.onNotFound !== 'error') {
    if (policy.onNotFound === 'skip')
      return {
        kind: 'leftOut',
        notice: `Item ${i} skipped (Options > On Not Found): ${failureMessage(error, policy.call)}`,
      };
    return { kind: 'output', items: [notFoundJson(error, policy, deduplicated)], answers: [undefined] };
  }
  // An answer in an undocumented shape was billed: its data as it came, `_notice` saying so.
  if (isIgError(error) && error.name === 'IgSchemaError') {
    return answerItems(
      receivedItems(policy.endpoint, error.received),
      policy,
      undefined,
      failureMessage(error, policy.call),
    );
  }
  // Continue On Fail: every other failure is the item's error item.
  if (policy.continueOnFail) return { kind: 'output', items: [errorJson(error, policy.call)], answers: [undefined] };
  // Items a run stopped part-way did not look up: left out, the run's stop notice says how far it got.
  if (isRunStoppedError(error)) return { kind: 'notLookedUp' };
  // The execution's own error (a refusal before anything was sent, a refused key or an empty
  // balance before any answer) and On Not Found: Error fail the execution.
  if (isRunRefusedError(error) || (isIgError(error) && stopsBulkRun(error)) || isNotFound(error))
    return { kind: 'fatal', error };
  // The item's own failure (429s or a 5xx after retries, no connection, the cap before its request;
  // never billed twice, usually not at all): its own item that says so, paired with its input, as a
  // not-found one is, so the next node sees every input; or the execution's error when no item of
  // the run has anything to output (runFailure).
  const message = isIgError(error) ? failureMessage(error, policy.call) : error.message;
  return { kind: 'failed', error, notice: `Item ${i} not delivered: ${message}`, items: [failedJson(error, policy)] };
}

/**
 * The run's verdict from the dispositions: the error to throw, if any. A `fatal` one always; a
 * `failed` item's only when no item of the run has anything to output (nothing paid is lost).
 */
export function runFailure(node: INode, dispositions: Disposition[], calls: (Call | undefined)[]): Error | undefined {
  const fatal = dispositions.findIndex((d) => d.kind === 'fatal');
  const asError = (k: number, error: Failure) =>
    toNodeError(node, error, calls[k], isRunRefusedError(error) ? undefined : k);
  if (fatal >= 0) return asError(fatal, (dispositions[fatal] as { error: Failure }).error);
  if (dispositions.some((d) => d.kind === 'output')) return undefined;
  const failed = dispositions.findIndex((d) => d.kind === 'failed');
  return failed >= 0 ? asError(failed, (dispositions[failed] as { error: Failure }).error) : undefined;
}

/**
 * An answered item whose media could not be downloaded (an expired link, a medium gone) keeps its
 * answer: it was paid for and downloads are free, so this never fails the run. With Continue On
 * Fail the failure is the item's `error`, `code` and `http_status` beside the answer; without it, a
 * notice, as for a medium over the size limit.
 */
export function mediaFailure(
  failures: MediaFailure[],
  continueOnFail: boolean,
): { notice: string } | { fields: IDataObject } | undefined {
  if (!failures.length) return undefined;
  const message = failures.map(failureSentence).join(' ');
  if (!continueOnFail) return { notice: message };
  const fields: IDataObject = { error: message, code: failures[0].code };
  if (failures[0].status !== undefined) fields.http_status = failures[0].status;
  return { fields };
}
