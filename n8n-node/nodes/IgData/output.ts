/**
 * What the action node and the trigger hand to n8n, in one place for both: items (whole or
 * simplified) with the spreadsheet-safe twin of each stranger text field (core's rule:
 * `caption_for_sheets` beside `caption`, what a Google Sheets or CSV node should write), and failures as
 * n8n errors (a thrown node error) or as error items (Continue On Fail).
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { AnyIgError, Call, EndpointDef, KnownErrorCode, RunError, RunStoppedError } from '@igdata/core';
import {
  docsNote,
  errorCode,
  flatten,
  isIgError,
  isRunError,
  pick,
  runErrorMessage,
  runStopSentence,
  userMessage,
  withSafeTwins,
  withTwinColumns,
} from '@igdata/core';
import { KEY_WHERE } from './transport';

/** What the core's sentences about the action node's runs name: the cap, how to turn it off, how to split a run. */
const RUN_WORDS = { capWhere: 'Options > Credit Cap', capOff: '0 for no cap', splitWith: 'e.g. with Loop Over Items' };

/** An answer's item as the node outputs it whole: with its twins (`caption_for_sheets`...). */
export const wholeItem = (endpoint: EndpointDef, item: Record<string, unknown>): IDataObject =>
  withSafeTwins(endpoint.schema, item) as IDataObject;

/**
 * Simplified output: the operation's default columns, flattened (`author.username`), each stranger
 * text column followed by its twin (`caption`, `caption_for_sheets`).
 */
export function simplifyItem(endpoint: EndpointDef, item: Record<string, unknown>): IDataObject {
  const whole = wholeItem(endpoint, item);
  const flat = flatten(whole);
  if (!endpoint.columns.length) return flat as IDataObject;
  const out: IDataObject = {};
  for (const column of withTwinColumns(endpoint.schema, endpoint.columns)) out[column] = pick(whole, flat, column);
  return out;
}

/** The sentence users read for a failure of `call`, or of the whole execution. */
export function failureMessage(error: AnyIgError | RunError, call?: Call): string {
  const ctx = { keyWhere: KEY_WHERE, ...RUN_WORDS, call };
  return isRunError(error) ? runErrorMessage(error, ctx) : userMessage(error, ctx);
}

/** The notice of an execution that stopped part-way: how far it got, what was spent and delivered, what to do. */
export const stopNotice = (error: RunStoppedError): string =>
  runStopSentence(error, { keyWhere: KEY_WHERE, ...RUN_WORDS });

/** A failure as the error n8n shows (and stops on): the core's sentence, the service's facts. */
export function toNodeError(
  node: INode,
  error: AnyIgError | RunError | Error,
  call?: Call,
  itemIndex?: number,
): NodeApiError | NodeOperationError {
  const where = itemIndex === undefined ? {} : { itemIndex };
  if (isRunError(error)) return new NodeOperationError(node, failureMessage(error), where);
  if (!isIgError(error)) return new NodeOperationError(node, error, where);
  const message = failureMessage(error, call);
  if (error.name === 'IgApiError') {
    const response: JsonObject = {
      code: error.code,
      message: error.message,
      status: error.status,
      request_id: error.details.requestId ?? null,
      credits_charged: error.charged,
    };
    // n8n shows the description under the message: the service's page for the error, on the base URL's origin.
    const description = docsNote(error);
    return new NodeApiError(node, response, {
      message,
      httpCode: String(error.status),
      ...(description && { description }),
      ...where,
    });
  }
  return new NodeOperationError(node, message, where);
}

/**
 * The `code` of an error item. A refused execution says which limit refused it; an item that a
 * stopped execution did not look up has the code of what stopped it (`insufficient_credits`, ...).
 */
function codeOf(error: AnyIgError | RunError): string {
  if (error.name === 'RunRefusedError')
    return error.limit === 'cap'
      ? 'credit_cap' /* errorCode's for a cap */
      : ('insufficient_credits' satisfies KnownErrorCode);
  if (error.name === 'RunStoppedError') return codeOf(error.stoppedBy);
  return errorCode(error);
}

/** A failure as an output item (Continue On Fail): the sentence, a code, what was charged. */
export function errorJson(error: AnyIgError | RunError | Error, call?: Call): IDataObject {
  if (!isIgError(error) && !isRunError(error)) return { error: error.message, code: 'internal_error' };
  const json: IDataObject = { error: failureMessage(error, call), code: codeOf(error), credits_charged: error.charged };
  if (isIgError(error) && error.first) json.credits_charged_first = error.first.charged;
  if (error.name === 'IgApiError') {
    json.http_status = error.status;
    if (error.details.requestId) json.request_id = error.details.requestId;
  }
  return json;
}
