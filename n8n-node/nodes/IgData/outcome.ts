/**
 * The per-item outcome policy, in one place: what each input item's outcome becomes in n8n's output.
 *
 * The rule behind it: what was paid for reaches the user. In n8n a node that throws fails the
 * execution and its output is lost (n8n keeps no items of a failed node run), so throwing is kept
 * for what makes the whole execution wrong and has nothing paid to lose:
 * - an answer: its items (an answer in an undocumented shape too, with `_notice` saying so);
 * - a billed 404 (private, deleted or nonexistent) is an answer: Options > On Not Found decides
 *   (an item `found: false` by default, or left out with a notice, or an error);
 * - a failed item (a 5xx after retries, no connection, the cap before its request; never billed
 *   twice, usually not billed at all): an error item under Continue On Fail; without it, left out
 *   with a notice when other items of the run have answers, else the execution fails with it;
 * - what is the execution's, not the item's (a refusal before anything was sent, a refused key
 *   or an empty balance before any answer): the execution fails with it (Continue On Fail: error items);
 * - items a run stopped part-way did not look up: left out, the run's notice says how far it got.
 */
import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';
import type { AnyIgError, Call, EndpointDef, RunError } from '@igdata/core';
import { isIgError, isRunRefusedError, isRunStoppedError, stopsBulkRun } from '@igdata/core';
import type { ItemMeta, ItemResult } from './engine-types';
import { errorJson, failureMessage, simplifyItem, toNodeError } from './output';

/** Options > On Not Found. */
export type OnNotFound = 'item' | 'skip' | 'error';
export const DEFAULT_ON_NOT_FOUND: OnNotFound = 'item';

type Failure = AnyIgError | RunError | Error;

export interface ItemPolicy {
	endpoint: EndpointDef;
	call?: Call;
	simplify?: boolean;
	includeMeta?: boolean;
	onNotFound?: OnNotFound;
	continueOnFail: boolean;
}

/** What one input item becomes. `answers` are the raw answers behind `items` (for their media). */
export type Disposition =
	| { kind: 'output'; items: IDataObject[]; answers: (Record<string, unknown> | undefined)[]; notice?: string }
	/** Left out of the output; `notice` says so (on the run's last item and in a hint). */
	| { kind: 'leftOut'; notice: string }
	/** Left out: a run stopped part-way did not look it up (the run's stop notice says it). */
	| { kind: 'notLookedUp' }
	/** Without Continue On Fail: fails the execution when nothing else in it was answered, else left out with `notice`. */
	| { kind: 'failed'; error: Failure; notice: string }
	/** Fails the execution whatever else was answered (the execution's own error, or On Not Found: Error). */
	| { kind: 'fatal'; error: Failure };

const metaJson = (meta: ItemMeta): IDataObject => {
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(meta)) if (v !== undefined) out[k] = v as IDataObject[string];
	return out;
};

const isNotFound = (e: Failure): e is Extract<AnyIgError, { name: 'IgApiError' }> => isIgError(e) && e.name === 'IgApiError' && e.code === 'not_found';

/** The item of a billed 404: the target as asked, what the API said and what it cost. */
function notFoundJson(error: Extract<AnyIgError, { name: 'IgApiError' }>, policy: ItemPolicy, deduplicated?: boolean): IDataObject {
	const json: IDataObject = { found: false };
	const target = policy.call?.endpoint.params.find((p) => p.required && policy.call?.params[p.name] !== undefined);
	if (target && policy.call) json[target.name] = String(policy.call.params[target.name]);
	json.message = failureMessage(error, policy.call);
	json.code = String(error.code);
	json.http_status = error.status;
	json.credits_charged = deduplicated ? 0 : error.charged;
	if (error.details.requestId) json.request_id = error.details.requestId;
	if (deduplicated) json.deduplicated = true;
	return json;
}

/** The data of an answer that does not have the documented shape: what it holds, as it came. */
function receivedItems(endpoint: EndpointDef, received: unknown): Record<string, unknown>[] {
	const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
	if (!isObject(received)) return [];
	if (endpoint.shape !== 'list') return [received];
	return Array.isArray(received.items) ? received.items.filter(isObject) : [];
}

function answerItems(answers: Record<string, unknown>[], policy: ItemPolicy, meta?: ItemMeta, notice?: string): Disposition {
	const items = answers.map((a) => (policy.simplify ? simplifyItem(policy.endpoint, a) : { ...(a as IDataObject) }));
	const withAnswers: (Record<string, unknown> | undefined)[] = [...answers];
	if (!items.length && notice) {
		items.push({}); // nothing readable came, but it was paid for: the item says so
		withAnswers.push(undefined);
	}
	items.forEach((json, k) => {
		if (meta && policy.includeMeta) json.meta = metaJson(meta);
		if (notice && k === items.length - 1) json._notice = notice;
	});
	return { kind: 'output', items, answers: withAnswers, notice };
}

/** The policy: one input item's outcome (or its failure before any request) as a disposition. */
export function decide(i: number, outcome: ItemResult | undefined, early: Failure | undefined, policy: ItemPolicy): Disposition {
	if (outcome?.ok) return answerItems(outcome.items, policy, outcome.meta, outcome.notice);
	const error = early ?? outcome?.error;
	if (!error) return { kind: 'notLookedUp' };
	const deduplicated = outcome && !outcome.ok ? outcome.deduplicated : undefined;
	if (isNotFound(error) && policy.onNotFound !== 'error') {
		if (policy.onNotFound === 'skip') return { kind: 'leftOut', notice: `Item ${i} skipped (Options > On Not Found): ${failureMessage(error, policy.call)}` };
		return { kind: 'output', items: [notFoundJson(error, policy, deduplicated)], answers: [undefined] };
	}
	if (isIgError(error) && error.name === 'IgSchemaError') {
		return answerItems(receivedItems(policy.endpoint, error.received), policy, undefined, failureMessage(error, policy.call));
	}
	if (policy.continueOnFail) return { kind: 'output', items: [errorJson(error, policy.call)], answers: [undefined] };
	if (isRunStoppedError(error)) return { kind: 'notLookedUp' };
	if (isRunRefusedError(error) || (isIgError(error) && stopsBulkRun(error)) || isNotFound(error)) return { kind: 'fatal', error };
	const message = isIgError(error) ? failureMessage(error, policy.call) : error.message;
	return { kind: 'failed', error, notice: `Item ${i} not delivered: ${message}` };
}

/**
 * The run's verdict: the error to throw, if any. An error of the execution (`fatal`) always; a failed
 * item's only when no item of the run has anything to output (then nothing paid is lost by throwing).
 */
export function runFailure(node: INode, dispositions: Disposition[], calls: (Call | undefined)[]): Error | undefined {
	const fatal = dispositions.findIndex((d) => d.kind === 'fatal');
	const asError = (k: number, error: Failure) => toNodeError(node, error, calls[k], isRunRefusedError(error) ? undefined : k);
	if (fatal >= 0) return asError(fatal, (dispositions[fatal] as { error: Failure }).error);
	if (dispositions.some((d) => d.kind === 'output')) return undefined;
	const failed = dispositions.findIndex((d) => d.kind === 'failed');
	return failed >= 0 ? asError(failed, (dispositions[failed] as { error: Failure }).error) : undefined;
}

/**
 * The output items of the dispositions, paired to their input items, with the answers behind them;
 * `hints`: the notices of the run, one line per item concerned; `missing`: those of items left out.
 */
export function outputOf(dispositions: Disposition[]): { out: INodeExecutionData[]; answers: (Record<string, unknown> | undefined)[]; hints: string[]; missing: string[] } {
	const out: INodeExecutionData[] = [];
	const answers: (Record<string, unknown> | undefined)[] = [];
	const hints: string[] = [];
	const missing: string[] = [];
	dispositions.forEach((d, item) => {
		if (d.kind === 'output') {
			d.items.forEach((json) => out.push({ json, pairedItem: { item } }));
			answers.push(...d.answers);
			if (d.notice) hints.push(`Item ${item}: ${d.notice}`);
		} else if (d.kind === 'leftOut' || d.kind === 'failed') {
			hints.push(d.notice);
			missing.push(d.notice);
		}
	});
	return { out, answers, hints, missing };
}
