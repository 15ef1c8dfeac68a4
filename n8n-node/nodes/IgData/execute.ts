/** The action node's execute(): read each item's fields, run the engine, shape n8n items. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { prepare } from '../../../core/src/call';
import type { AnyIgError } from '../../../core/src/errors';
import { isIgError } from '../../../core/src/errors';
import { flatten, pick } from '../../../core/src/flatten';
import { userMessage } from '../../../core/src/messages';
import { findEndpoint } from '../../../core/src/registry/endpoints';
import type { EndpointDef } from '../../../core/src/registry/types';
import { DEFAULT_CONCURRENCY, DEFAULT_CREDIT_CAP, DEFAULT_LIMIT, MAX_CONCURRENCY } from './description';
import type { CapStop, Job, Meta } from './engine';
import { capMessage, isCapStop, runJobs } from './engine';
import { clientConfig, KEY_WHERE, n8nIO } from './transport';

interface Options {
	concurrency?: number;
	creditCap?: number;
	simplify?: boolean;
	includeMeta?: boolean;
	extraParameters?: { parameter?: { name?: string; value?: string }[] };
}

/** Simplified output: the operation's default columns, flattened (`author.username`). */
export function simplifyItem(endpoint: EndpointDef, item: Record<string, unknown>): IDataObject {
	const flat = flatten(item);
	if (!endpoint.columns.length) return flat as IDataObject;
	const out: IDataObject = {};
	for (const column of endpoint.columns) out[column] = pick(item, flat, column);
	return out;
}

/** Input for the core: the operation's fields by their API names, plus extra query parameters. */
function readInput(ctx: IExecuteFunctions, endpoint: EndpointDef, i: number, options: Options): Record<string, unknown> {
	const input: Record<string, unknown> = {};
	for (const extra of options.extraParameters?.parameter ?? []) {
		const name = (extra.name ?? '').trim();
		if (name) input[name] = extra.value ?? '';
	}
	for (const p of endpoint.params) {
		if (p.kind === 'cursor') continue;
		const value = ctx.getNodeParameter(p.name, i, undefined) as unknown;
		if (value !== undefined) input[p.name] = value;
		else if (!(p.name in input)) input[p.name] = undefined;
	}
	return input;
}

type Failure = AnyIgError | CapStop | Error;

function toNodeError(ctx: IExecuteFunctions, error: Failure, job: Job | undefined, itemIndex: number) {
	if (isCapStop(error)) return new NodeOperationError(ctx.getNode(), capMessage(error), { itemIndex });
	if (!isIgError(error)) return new NodeOperationError(ctx.getNode(), error, { itemIndex });
	const message = userMessage(error, { keyWhere: KEY_WHERE, call: job?.call });
	if (error.name === 'IgApiError') {
		const response: JsonObject = {
			code: error.code,
			message: error.message,
			status: error.status,
			request_id: error.details.requestId ?? null,
			credits_charged: error.charged,
		};
		return new NodeApiError(ctx.getNode(), response, { message, httpCode: String(error.status), itemIndex });
	}
	return new NodeOperationError(ctx.getNode(), message, { itemIndex });
}

function errorJson(ctx: IExecuteFunctions, error: Failure, job: Job | undefined): IDataObject {
	if (isCapStop(error)) return { error: capMessage(error), code: 'credit_cap', credits_charged: 0 };
	if (!isIgError(error)) return { error: error.message, code: 'internal_error' };
	const json: IDataObject = { error: userMessage(error, { keyWhere: KEY_WHERE, call: job?.call }), credits_charged: error.charged };
	if (error.name === 'IgApiError') {
		json.code = error.code;
		json.http_status = error.status;
		if (error.details.requestId) json.request_id = error.details.requestId;
	} else {
		json.code = error.name === 'IgValidationError' ? 'invalid_input' : error.name === 'IgConnectionError' ? 'connection_error' : 'unexpected_response';
	}
	return json;
}

function metaJson(meta: Meta): IDataObject {
	const out: IDataObject = {};
	for (const [k, v] of Object.entries(meta)) if (v !== undefined) out[k] = v as IDataObject[string];
	return out;
}

export async function executeIgData(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const first = (this.getNodeParameter('options', 0, {}) as Options) ?? {};
	const concurrency = Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(first.concurrency ?? DEFAULT_CONCURRENCY)));
	// Absent = the default cap (a paid API: a mistake must stop somewhere); 0 = no cap.
	const capSetting = first.creditCap ?? DEFAULT_CREDIT_CAP;
	const creditCap = capSetting > 0 ? Math.floor(capSetting) : undefined;

	const jobs: (Job | undefined)[] = [];
	const early: (Failure | undefined)[] = [];
	const perItem: { endpoint?: EndpointDef; options: Options }[] = [];
	for (let i = 0; i < items.length; i++) {
		const options = (this.getNodeParameter('options', i, {}) as Options) ?? {};
		const operation = this.getNodeParameter('operation', i) as string;
		const endpoint = findEndpoint(operation);
		if (!endpoint) throw new NodeOperationError(this.getNode(), `Unknown operation "${operation}".`, { itemIndex: i });
		perItem.push({ endpoint, options });
		try {
			const call = prepare(endpoint, readInput(this, endpoint, i, options));
			const job: Job = { call, returnAll: false };
			if (endpoint.shape === 'list') {
				job.returnAll = endpoint.paginated ? (this.getNodeParameter('returnAll', i, false) as boolean) : false;
				if (!job.returnAll) job.limit = Math.max(1, Math.floor(this.getNodeParameter('limit', i, DEFAULT_LIMIT) as number));
			}
			jobs.push(job);
			early.push(undefined);
		} catch (e) {
			if (!isIgError(e)) throw new NodeOperationError(this.getNode(), e as Error, { itemIndex: i });
			jobs.push(undefined);
			early.push(e);
		}
	}

	const config = await clientConfig(this);
	const outcomes = jobs.some(Boolean) ? await runJobs(config, jobs, n8nIO(this), { concurrency, creditCap }) : [];

	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		const outcome = outcomes[i];
		const failure: Failure | undefined = early[i] ?? (outcome && !outcome.ok ? outcome.error : undefined);
		if (failure) {
			if (this.continueOnFail()) {
				out.push({ json: errorJson(this, failure, jobs[i]), pairedItem: { item: i } });
				continue;
			}
			throw toNodeError(this, failure, jobs[i], i);
		}
		if (!outcome || !outcome.ok) continue;
		const { endpoint, options } = perItem[i];
		const list = outcome.items;
		list.forEach((item, k) => {
			const json: IDataObject = options.simplify ? simplifyItem(endpoint as EndpointDef, item) : { ...(item as IDataObject) };
			if (options.includeMeta) json.meta = metaJson(outcome.meta);
			if (outcome.notice && k === list.length - 1) json._notice = outcome.notice;
			out.push({ json, pairedItem: { item: i } });
		});
		if (outcome.notice) this.addExecutionHints({ message: `Item ${i}: ${outcome.notice}`, type: 'warning', location: 'outputPane' });
	}
	return [out];
}
