/**
 * What the action node and the trigger hand to n8n, in one place for both: simplified items, and
 * failures as n8n errors (a thrown node error) or as error items (Continue On Fail).
 */
import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { AnyIgError, Call, EndpointDef } from '@igdata/core';
import { flatten, isIgError, pick, userMessage } from '@igdata/core';
import { KEY_WHERE } from './transport';

/** Where users raise the action node's credit cap, for the core's sentence. */
const CAP_WHERE = 'Options > Credit Cap';

/** Simplified output: the operation's default columns, flattened (`author.username`). */
export function simplifyItem(endpoint: EndpointDef, item: Record<string, unknown>): IDataObject {
	const flat = flatten(item);
	if (!endpoint.columns.length) return flat as IDataObject;
	const out: IDataObject = {};
	for (const column of endpoint.columns) out[column] = pick(item, flat, column);
	return out;
}

/** The sentence users read for a failure of `call`. */
export const failureMessage = (error: AnyIgError, call?: Call): string => userMessage(error, { keyWhere: KEY_WHERE, capWhere: CAP_WHERE, call });

/** A failure as the error n8n shows (and stops on): the core's sentence, the service's facts. */
export function toNodeError(node: INode, error: AnyIgError | Error, call?: Call, itemIndex?: number): NodeApiError | NodeOperationError {
	const where = itemIndex === undefined ? {} : { itemIndex };
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
		return new NodeApiError(node, response, { message, httpCode: String(error.status), ...where });
	}
	return new NodeOperationError(node, message, where);
}

const CODE_OF: Record<Exclude<AnyIgError['name'], 'IgApiError'>, string> = {
	IgValidationError: 'invalid_input',
	IgConnectionError: 'connection_error',
	IgSchemaError: 'unexpected_response',
	IgCreditCapError: 'credit_cap',
};

/** A failure as an output item (Continue On Fail): the sentence, a code, what was charged. */
export function errorJson(error: AnyIgError | Error, call?: Call): IDataObject {
	if (!isIgError(error)) return { error: error.message, code: 'internal_error' };
	const json: IDataObject = { error: failureMessage(error, call), credits_charged: error.charged };
	if (error.name === 'IgApiError') {
		json.code = error.code;
		json.http_status = error.status;
		if (error.details.requestId) json.request_id = error.details.requestId;
	} else {
		json.code = CODE_OF[error.name];
	}
	return json;
}
