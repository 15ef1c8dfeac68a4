/** The action node's execute(): read each item's fields, run the engine, shape n8n items. */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { AnyIgError, EndpointDef, RunError, RunStoppedError } from '@igdata/core';
import { findEndpoint, isIgError, isRunRefusedError, isRunStoppedError, prepare } from '@igdata/core';
import { DEFAULT_CONCURRENCY, DEFAULT_CREDIT_CAP, DEFAULT_LIMIT, MAX_CONCURRENCY } from './description';
import type { ItemCall, ItemMeta } from './engine';
import { runItemCalls } from './engine';
import type { MediaOptions } from './media';
import { downloadMedia, failureSentence, maxBytesOf, mediaFields } from './media';
import { errorJson, simplifyItem, stopNotice, toNodeError } from './output';
import { n8nClient } from './transport';

interface Options {
	concurrency?: number;
	creditCap?: number;
	simplify?: boolean;
	includeMeta?: boolean;
	extraParameters?: { parameter?: { name?: string; value?: string }[] };
	downloadMedia?: string[] | string;
	mediaMaxSize?: number;
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

type Failure = AnyIgError | RunError | Error;

function metaJson(meta: ItemMeta): IDataObject {
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

	const itemCalls: (ItemCall | undefined)[] = [];
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
			const itemCall: ItemCall = { call, returnAll: false };
			if (endpoint.shape === 'list') {
				itemCall.returnAll = endpoint.paginated ? (this.getNodeParameter('returnAll', i, false) as boolean) : false;
				if (!itemCall.returnAll) itemCall.limit = Math.max(1, Math.floor(this.getNodeParameter('limit', i, DEFAULT_LIMIT) as number));
			}
			itemCalls.push(itemCall);
			early.push(undefined);
		} catch (e) {
			if (!isIgError(e)) throw new NodeOperationError(this.getNode(), e as Error, { itemIndex: i });
			itemCalls.push(undefined);
			early.push(e);
		}
	}

	const client = n8nClient(this);
	const outcomes = itemCalls.some(Boolean) ? await runItemCalls(await client.config(), itemCalls, client.io, { concurrency, creditCap }) : [];

	const out: INodeExecutionData[] = [];
	// Aligned with out: the answer an output item came from (for its media) and its input item.
	const answers: (Record<string, unknown> | undefined)[] = [];
	const owners: number[] = [];
	let stopped: RunStoppedError | undefined;
	for (let i = 0; i < items.length; i++) {
		const outcome = outcomes[i];
		const failure: Failure | undefined = early[i] ?? (outcome && !outcome.ok ? outcome.error : undefined);
		if (failure) {
			if (isRunStoppedError(failure)) stopped = failure;
			if (this.continueOnFail()) {
				out.push({ json: errorJson(failure, itemCalls[i]?.call), pairedItem: { item: i } });
				answers.push(undefined);
				owners.push(i);
				continue;
			}
			// The paid answers are not thrown away for the items a stopped run did not look up: those are
			// left out, and the notice below says so.
			if (isRunStoppedError(failure)) continue;
			// A refusal is the whole execution's, not this item's.
			throw toNodeError(this.getNode(), failure, itemCalls[i]?.call, isRunRefusedError(failure) ? undefined : i);
		}
		if (!outcome || !outcome.ok) continue;
		const { endpoint, options } = perItem[i];
		const list = outcome.items;
		list.forEach((item, k) => {
			const json: IDataObject = options.simplify ? simplifyItem(endpoint as EndpointDef, item) : { ...(item as IDataObject) };
			if (options.includeMeta) json.meta = metaJson(outcome.meta);
			if (outcome.notice && k === list.length - 1) json._notice = outcome.notice;
			out.push({ json, pairedItem: { item: i } });
			answers.push(item);
			owners.push(i);
		});
		if (outcome.notice) this.addExecutionHints({ message: `Item ${i}: ${outcome.notice}`, type: 'warning', location: 'outputPane' });
	}
	await attachMedia(this, out, answers, (k) => {
		const options = perItem[owners[k]].options;
		const fields = mediaFields(options.downloadMedia);
		return fields.length ? { fields, maxBytes: maxBytesOf(options.mediaMaxSize), concurrency } : undefined;
	});
	if (stopped) noteStop(this, out, stopped);
	return [out];
}

/**
 * Options > Download Media: the chosen media of each answered item as binary properties. A medium
 * over the size limit, or a failed download (an expired link, a medium gone), is left out with a
 * notice (`_notice` and a warning hint), never failing the execution (its answers were paid for);
 * under Continue On Fail a failed download is `error` and `code` beside the answer instead.
 */
async function attachMedia(ctx: IExecuteFunctions, out: INodeExecutionData[], answers: (Record<string, unknown> | undefined)[], options: (k: number) => MediaOptions | undefined): Promise<void> {
	if (!answers.some((a, k) => a && options(k))) return;
	const media = await downloadMedia(ctx, answers, options);
	const skipped: string[] = [];
	media.forEach((m, k) => {
		if (!m) return;
		const item = out[k];
		if (Object.keys(m.binary).length) item.binary = { ...(item.binary ?? {}), ...m.binary };
		for (const notice of m.skipped) {
			item.json._notice = item.json._notice ? `${String(item.json._notice)} ${notice}` : notice;
			skipped.push(`Item ${(item.pairedItem as { item: number }).item}: ${notice}`);
		}
		if (!m.failures.length) return;
		const message = m.failures.map(failureSentence).join(' ');
		// The answer was paid for and the download was free: a failed download never throws the
		// execution's answers away. Without Continue On Fail it is a notice, as a medium over the limit.
		if (!ctx.continueOnFail()) {
			item.json._notice = item.json._notice ? `${String(item.json._notice)} ${message}` : message;
			skipped.push(`Item ${(item.pairedItem as { item: number }).item}: ${message}`);
			return;
		}
		item.json.error = message;
		item.json.code = m.failures[0].code;
		if (m.failures[0].status !== undefined) item.json.http_status = m.failures[0].status;
	});
	// One hint for the execution, not one per post: every item concerned says it in _notice.
	if (skipped.length) {
		const more = skipped.length > 1 ? ` (and ${skipped.length - 1} more media; see _notice on the items)` : '';
		ctx.addExecutionHints({ message: `${skipped[0]}${more}`, type: 'warning', location: 'outputPane' });
	}
}

/**
 * An execution that stopped part-way ends as a success with what it was paid for, as n8n's own nodes
 * end at a limit: a warning hint on the output and, without Continue On Fail (where the items not
 * looked up are not in the output to say it), the same sentence as `_notice` on the last item.
 */
function noteStop(ctx: IExecuteFunctions, out: INodeExecutionData[], stopped: RunStoppedError): void {
	const notice = stopNotice(stopped);
	ctx.addExecutionHints({ message: notice, type: 'warning', location: 'outputPane' });
	const last = out[out.length - 1];
	if (ctx.continueOnFail() || !last) return;
	last.json._notice = last.json._notice ? `${String(last.json._notice)} ${notice}` : notice;
}
