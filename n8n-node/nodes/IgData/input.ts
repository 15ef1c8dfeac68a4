/**
 * Reading the input items before anything is sent: each item's call (or why it cannot be made),
 * its options, and the settings of the run as a whole (Credit Cap, Concurrency). Every item is
 * checked before the first request: without Continue On Fail an invalid item stops the execution
 * here, naming the item and the field, with nothing sent and nothing charged.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { AnyIgError, EndpointDef } from '@igdata/core';
import { findEndpoint, isIgError, prepare } from '@igdata/core';
import { DEFAULT_CONCURRENCY, DEFAULT_CREDIT_CAP, DEFAULT_LIMIT, MAX_CONCURRENCY } from './options';
import type { ItemCall } from './engine-types';
import type { OnNotFound } from './disposition';
import { failureMessage } from './output';
import { failuresAsItems } from './outcome';

export interface Options {
  concurrency?: number;
  creditCap?: number;
  simplify?: boolean;
  includeMeta?: boolean;
  onNotFound?: OnNotFound;
  extraParameters?: { parameter?: { name?: string; value?: string }[] };
  downloadMedia?: string[] | string;
  mediaMaxSize?: number;
  mediaTimeLimit?: number;
  mediaAnyHost?: boolean;
}

export interface RunInput {
  /** Per input item: its call, or undefined when it failed before any request (`early`). */
  calls: (ItemCall | undefined)[];
  early: (AnyIgError | undefined)[];
  perItem: { endpoint: EndpointDef; options: Options }[];
  /** Options > Concurrency, else DEFAULT_CONCURRENCY (what media downloads use). */
  concurrency: number;
  /** Options > Concurrency was set: the lookups' ceiling and first wave (else the pace finds them). */
  concurrencySet: boolean;
  /** Undefined: no cap (Credit Cap 0). */
  creditCap?: number;
}

/** Input for the core: the operation's fields by their API names, plus extra query parameters. */
function fields(ctx: IExecuteFunctions, endpoint: EndpointDef, i: number, options: Options): Record<string, unknown> {
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

function itemCall(ctx: IExecuteFunctions, endpoint: EndpointDef, i: number, options: Options): ItemCall {
  const call: ItemCall = { call: prepare(endpoint, fields(ctx, endpoint, i, options)), returnAll: false };
  if (endpoint.shape !== 'list') return call;
  call.returnAll = endpoint.paginated ? (ctx.getNodeParameter('returnAll', i, false) as boolean) : false;
  if (!call.returnAll) call.limit = Math.max(1, Math.floor(ctx.getNodeParameter('limit', i, DEFAULT_LIMIT) as number));
  return call;
}

const concurrencyOf = (o: Options) =>
  Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(o.concurrency ?? DEFAULT_CONCURRENCY)));
// Absent = the default cap (a paid API: a mistake must stop somewhere); 0 = no cap.
const capOf = (o: Options) => {
  const setting = o.creditCap ?? DEFAULT_CREDIT_CAP;
  return setting > 0 ? Math.floor(setting) : undefined;
};

/**
 * Credit Cap and Concurrency hold for the run as a whole, so every item must agree on them (an
 * expression may give each item its own): one that differs from item 0 is refused, before
 * anything is sent, rather than silently overruled.
 */
function sameForAll(ctx: IExecuteFunctions, perItem: { options: Options }[]): void {
  const settings = [
    { name: 'Credit Cap', of: (o: Options) => capOf(o) ?? 0 },
    { name: 'Concurrency', of: concurrencyOf },
  ];
  for (const { name, of } of settings) {
    const first = of(perItem[0].options);
    const i = perItem.findIndex((p) => of(p.options) !== first);
    if (i < 0) continue;
    throw new NodeOperationError(
      ctx.getNode(),
      `Options > ${name} must be the same for every input item: it holds for the whole ` +
        `execution. Item 0 has ${first}, item ${i} has ${of(perItem[i].options)}. Set one ` +
        `value (not an expression that differs by item). Nothing was sent. (Not charged.)`,
      { itemIndex: i },
    );
  }
}

export function readInput(ctx: IExecuteFunctions, items: INodeExecutionData[]): RunInput {
  const input: RunInput = {
    calls: [],
    early: [],
    perItem: [],
    concurrency: DEFAULT_CONCURRENCY,
    concurrencySet: false,
  };
  for (let i = 0; i < items.length; i++) {
    const options = (ctx.getNodeParameter('options', i, {}) as Options) ?? {};
    const operation = ctx.getNodeParameter('operation', i) as string;
    const endpoint = findEndpoint(operation);
    if (!endpoint) throw new NodeOperationError(ctx.getNode(), `Unknown operation "${operation}".`, { itemIndex: i });
    input.perItem.push({ endpoint, options });
    try {
      input.calls.push(itemCall(ctx, endpoint, i, options));
      input.early.push(undefined);
    } catch (e) {
      if (!isIgError(e)) throw new NodeOperationError(ctx.getNode(), e as Error, { itemIndex: i });
      if (!failuresAsItems(ctx)) {
        const which = items.length > 1 ? `Item ${i} of ${items.length}: ` : '';
        throw new NodeOperationError(ctx.getNode(), `${which}${failureMessage(e)}`, { itemIndex: i });
      }
      input.calls.push(undefined);
      input.early.push(e);
    }
  }
  if (!input.perItem.length) return input;
  sameForAll(ctx, input.perItem);
  input.concurrency = concurrencyOf(input.perItem[0].options);
  input.concurrencySet = input.perItem[0].options.concurrency !== undefined;
  input.creditCap = capOf(input.perItem[0].options);
  return input;
}
