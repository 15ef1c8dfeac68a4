/**
 * What an input item becomes in n8n's output (a Disposition) and the items that say it: an
 * answer's items (simplified, with meta), a billed 404's `found: false` item, the data of an answer
 * in an undocumented shape. Which disposition an item gets is outcome.ts's policy.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { AnyIgError, Call, EndpointDef, RunError } from '@igdata/core';
import { isIgError } from '@igdata/core';
import type { ItemMeta } from './engine-types';
import { errorJson, failureMessage, simplifyItem, wholeItem } from './output';

/** Options > On Not Found. */
export type OnNotFound = 'item' | 'skip' | 'error';
export const DEFAULT_ON_NOT_FOUND: OnNotFound = 'item';

export type Failure = AnyIgError | RunError | Error;

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
  /**
   * Without Continue On Fail: fails the execution when nothing else in it was answered, else its
   * own item that says so (`items`, failedJson), `notice` in the run's hints.
   */
  | { kind: 'failed'; error: Failure; notice: string; items: IDataObject[] }
  /** Fails the execution whatever else was answered (the execution's own error, or On Not Found: Error). */
  | { kind: 'fatal'; error: Failure };

const metaJson = (meta: ItemMeta): IDataObject => {
  const out: IDataObject = {};
  for (const [k, v] of Object.entries(meta)) if (v !== undefined) out[k] = v as IDataObject[string];
  return out;
};

export const isNotFound = (e: Failure): e is Extract<AnyIgError, { name: 'IgApiError' }> =>
  isIgError(e) && e.name === 'IgApiError' && e.code === 'not_found';

/** The item of a billed 404: the target as asked, what the API said and what it cost. */
export function notFoundJson(
  error: Extract<AnyIgError, { name: 'IgApiError' }>,
  policy: ItemPolicy,
  deduplicated?: boolean,
): IDataObject {
  const json: IDataObject = { found: false };
  const target = policy.call?.endpoint.params.find((p) => p.required && policy.call?.params[p.name] !== undefined);
  if (target && policy.call) json[target.name] = String(policy.call.params[target.name]);
  json.message = failureMessage(error, policy.call);
  json.code = String(error.code);
  json.http_status = error.status;
  json.credits_charged = error.charged; // 0 when served again (dedupe.ts)
  if (error.first) json.credits_charged_first = error.first.charged;
  if (error.details.requestId) json.request_id = error.details.requestId;
  if (deduplicated) json.deduplicated = true;
  return json;
}

/**
 * The item of an input whose request ran out of tries (429s, a provider's 5xx, no connection) or
 * that the cap kept from being sent: the target as asked, `delivered: false`, the sentence, the
 * code and what was charged (`may_have_been_charged` when an answer was lost on the way).
 */
export function failedJson(error: Failure, policy: ItemPolicy): IDataObject {
  const json: IDataObject = { delivered: false };
  const target = policy.call?.endpoint.params.find((p) => p.required && policy.call?.params[p.name] !== undefined);
  if (target && policy.call) json[target.name] = String(policy.call.params[target.name]);
  Object.assign(json, errorJson(error, policy.call));
  if (isIgError(error) && error.lostSends > 0) json.may_have_been_charged = true;
  return json;
}

/** The data of an answer that does not have the documented shape: what it holds, as it came. */
export function receivedItems(endpoint: EndpointDef, received: unknown): Record<string, unknown>[] {
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(received)) return [];
  if (endpoint.shape !== 'list') return [received];
  return Array.isArray(received.items) ? received.items.filter(isObject) : [];
}

export function answerItems(
  answers: Record<string, unknown>[],
  policy: ItemPolicy,
  meta?: ItemMeta,
  notice?: string,
): Disposition {
  const items = answers.map((a) =>
    policy.simplify ? simplifyItem(policy.endpoint, a) : wholeItem(policy.endpoint, a),
  );
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

/**
 * The output items of the dispositions, paired to their input items, with the answers behind them;
 * `hints`: the notices of the run, one line per item concerned; `missing`: those of items left out.
 */
export function outputOf(dispositions: Disposition[]): {
  out: INodeExecutionData[];
  answers: (Record<string, unknown> | undefined)[];
  hints: string[];
  missing: string[];
} {
  const out: INodeExecutionData[] = [];
  const answers: (Record<string, unknown> | undefined)[] = [];
  const hints: string[] = [];
  const missing: string[] = [];
  dispositions.forEach((d, item) => {
    if (d.kind === 'output') {
      d.items.forEach((json) => out.push({ json, pairedItem: { item } }));
      answers.push(...d.answers);
      if (d.notice) hints.push(`Item ${item}: ${d.notice}`);
    } else if (d.kind === 'failed') {
      // Its own item says it; the hint tells the run.
      d.items.forEach((json) => out.push({ json, pairedItem: { item } }));
      answers.push(...d.items.map(() => undefined));
      hints.push(d.notice);
    } else if (d.kind === 'leftOut') {
      hints.push(d.notice);
      missing.push(d.notice);
    }
  });
  return { out, answers, hints, missing };
}
