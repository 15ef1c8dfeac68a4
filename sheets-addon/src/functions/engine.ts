/**
 * The range-first engine behind every IG... custom function. One execution handles the whole
 * range: targets are resolved and de-duplicated, cached answers cost nothing, the rest go out in
 * fetchAll batches inside a time budget, and the result is one row per input row (blank rows stay
 * blank, failures are a message in that row, rows not reached in time say so).
 */
import type { AnyIgError, Call, EndpointDef, Params } from '@igdata/core';
import {
  IgValidationError, flatten, getEndpoint, isBlank, isIgError, isValidationError, pick, prepare, resolveParam, expectedFor, showValue, userMessage,
} from '@igdata/core';
import { documentClaims } from '../claim-store';
import { gasIO } from '../gas-io';
import { readSettings } from '../settings';
import type { Outcome } from './fetch';
import { fetchMany, keyOf } from './fetch';
import { MAX_LIMIT, argLayout, defaultHeader } from './layout';
import type { SheetValue } from './values';
import { bool, intIn, isRange, parseFields, single, targetCells, toCell } from './values';

export const KEY_WHERE = 'Extensions > IG Data > Settings';
export const NOT_REACHED = 'Not reached in time: recalculate to continue (already fetched rows are cached)';
/** Custom functions must return within 30 s: no new batch starts after this much time. */
export const CUSTOM_BUDGET_MS = 20000;
/** Retries kept short in a cell: at most ~4 s of backoff in all. */
export const CELL_RETRY = { attempts: 3, baseDelayMs: 500, maxDelayMs: 2000, maxRetryAfterMs: 4000 };

export interface Request {
  endpoint: EndpointDef;
  /** The validated non-target parameters. */
  params: Record<string, unknown>;
  /** The raw target cells, in input order (one element for a single cell). */
  targets: unknown[];
  targetName?: string;
  isRangeInput: boolean;
  fields: string[];
  header: boolean;
  limit?: number;
  refresh: boolean;
}

/** Reads a custom function's positional arguments. Throws IgValidationError before any request. */
export function parseArgs(endpoint: EndpointDef, args: unknown[]): Request {
  const layout = argLayout(endpoint);
  const req: Request = { endpoint, params: {}, targets: [undefined], isRangeInput: false, fields: [], header: defaultHeader(endpoint), refresh: false };
  if (args.length > layout.length) {
    throw new IgValidationError('arguments', `at most ${layout.length} (${layout.map((a) => a.name).join(', ')})`, String(args.length));
  }
  layout.forEach((spec, i) => {
    const v = args[i];
    switch (spec.role) {
      case 'target':
        req.targetName = spec.name;
        req.isRangeInput = isRange(v);
        req.targets = targetCells(spec.name, v);
        break;
      case 'param': {
        const p = spec.param!;
        const x = single(p.name, v);
        if (isBlank(x)) {
          if (p.required) throw new IgValidationError(p.name, expectedFor(p), showValue(x));
        } else req.params[p.name] = resolveParam(p, x);
        break;
      }
      case 'fields':
        req.fields = parseFields(endpoint, v);
        break;
      case 'header':
        req.header = bool('header', v, req.header);
        break;
      case 'limit':
        req.limit = intIn('limit', v, 1, MAX_LIMIT);
        break;
      case 'refresh':
        req.refresh = bool('refresh', v, false);
        break;
    }
  });
  return req;
}

export type Row = { kind: 'blank' } | { kind: 'error'; message: string } | { kind: 'call'; key: string; call: Call };

/** One entry per target cell: blank, invalid (with its message) or a call with its request key. */
export function planRows(req: Request): Row[] {
  return req.targets.map((cell): Row => {
    if (req.targetName && isBlank(cell)) return { kind: 'blank' };
    try {
      const input = req.targetName ? { ...req.params, [req.targetName]: typeof cell === 'string' ? cell.trim() : cell } : { ...req.params };
      const call = prepare(req.endpoint, input);
      return { kind: 'call', key: keyOf(call), call };
    } catch (e) {
      if (isIgError(e)) return { kind: 'error', message: userMessage(e, { keyWhere: KEY_WHERE }) };
      throw e;
    }
  });
}

export const messageOf = (error: AnyIgError, call?: Call): string => userMessage(error, { keyWhere: KEY_WHERE, call });

export interface ListResult {
  items: Record<string, unknown>[];
  error?: AnyIgError;
  late?: boolean;
}

/**
 * Runs the calls of a range. Single endpoints: one round. List endpoints: page by page (all
 * targets' page N in the same batches) until each target has `limit` items or its list ends.
 */
export function runCalls(
  endpoint: EndpointDef,
  calls: Map<string, Call>,
  opts: { deadline: number; refresh: boolean; limit?: number },
): { results: Map<string, ListResult>; credits: number; requests: number; cacheHits: number } {
  const settings = readSettings();
  const config = { apiKey: settings.apiKey, baseUrl: settings.baseUrl, retry: CELL_RETRY };
  const io = gasIO();
  // Other cells recalculating at the same time share the cache: claims keep them from paying twice.
  const claims = opts.refresh ? null : documentClaims();
  const results = new Map<string, ListResult>();
  let credits = 0;
  let cacheHits = 0;
  let pending = new Map(calls); // key of the original call -> call of the next page
  for (let round = 0; pending.size; round++) {
    const byPageKey = new Map<string, Call>();
    const owner = new Map<string, string>();
    for (const [key, call] of pending) {
      const pk = keyOf(call);
      byPageKey.set(pk, call);
      owner.set(key, pk);
    }
    // The balance changes with every paid call and costs nothing: never cached.
    const run = fetchMany(byPageKey, { config, io, deadline: opts.deadline, refresh: opts.refresh, noCache: endpoint.id === 'credits', claims });
    credits += run.stats.credits;
    cacheHits += run.stats.cacheHits;
    const next = new Map<string, Call>();
    for (const [key, call] of pending) {
      const outcome = run.outcomes.get(owner.get(key) as string) as Outcome;
      const acc = results.get(key) ?? { items: [] };
      results.set(key, acc);
      if (outcome.kind === 'late') acc.late = true;
      else if (outcome.kind === 'error') acc.error = outcome.error;
      else if (endpoint.shape === 'single') acc.items = [outcome.value.data];
      else {
        const items = (outcome.value.data.items as Record<string, unknown>[]) ?? [];
        acc.items.push(...items);
        const want = opts.limit;
        const cursor = endpoint.paginated ? outcome.value.next : null;
        if (want !== undefined && acc.items.length > want) acc.items.length = want;
        if (cursor && want !== undefined && acc.items.length < want && items.length) {
          next.set(key, { endpoint: call.endpoint, params: { ...call.params, cursor } as Params });
        }
      }
    }
    pending = next;
  }
  return { results, credits, requests: io.stats.requests, cacheHits };
}

function rowCells(item: Record<string, unknown>, fields: string[]): SheetValue[] {
  const flat = flatten(item);
  return fields.map((f) => toCell(f, pick(item, flat, f)));
}

/** Columns of a table when neither the user nor the registry chose any: every key seen. */
function fieldsFor(req: Request, results: Map<string, ListResult>): string[] {
  if (req.fields.length) return req.fields;
  const seen: string[] = [];
  for (const r of results.values()) for (const item of r.items) for (const k of Object.keys(flatten(item))) if (!seen.includes(k)) seen.push(k);
  return seen.length ? seen : ['result'];
}

/** The custom function itself: args as Sheets passes them; returns a value or a 2D array. */
export function customFunction(endpointId: string, args: unknown[]): SheetValue | SheetValue[][] {
  const started = Date.now();
  try {
    const endpoint = getEndpoint(endpointId);
    const req = parseArgs(endpoint, args);
    const rows = planRows(req);
    const calls = new Map<string, Call>();
    for (const row of rows) if (row.kind === 'call') calls.set(row.key, row.call);
    // A single bad target fails the formula (a bad argument); in a range it is that row's message.
    if (!req.isRangeInput && rows[0].kind === 'error') throw new Error(rows[0].message);
    const { results } = runCalls(endpoint, calls, { deadline: started + CUSTOM_BUDGET_MS, refresh: req.refresh, limit: req.limit });
    return format(req, rows, results);
  } catch (e) {
    if (isIgError(e)) throw new Error(userMessage(e, { keyWhere: KEY_WHERE }));
    throw e;
  }
}

export function format(req: Request, rows: Row[], results: Map<string, ListResult>): SheetValue | SheetValue[][] {
  const fields = fieldsFor(req, results);
  const width = fields.length;
  const pad = (first: SheetValue): SheetValue[] => [first, ...new Array(Math.max(0, width - 1)).fill('')];
  const table: SheetValue[][] = [];
  const list = req.endpoint.shape === 'list';
  const stacked = list && req.isRangeInput; // several lists: a first column says whose row it is
  for (const row of rows) {
    if (row.kind === 'blank') {
      if (!list) table.push(pad(''));
      continue;
    }
    const label = row.kind === 'call' && req.targetName ? String(row.call.params[req.targetName]) : '';
    const lead = (cells: SheetValue[]) => (stacked ? [label, ...cells] : cells);
    if (row.kind === 'error') {
      table.push(lead(pad(row.message)));
      continue;
    }
    const r = results.get(row.key) as ListResult;
    if (r.late) table.push(lead(pad(NOT_REACHED)));
    else if (r.error) table.push(lead(pad(messageOf(r.error, row.call))));
    else if (!list) table.push(rowCells(r.items[0], fields));
    else if (!r.items.length) table.push(lead(pad('No items.')));
    else for (const item of r.items) table.push(lead(rowCells(item, fields)));
  }
  const head = stacked ? [req.targetName as string, ...fields] : fields;
  if (req.header) table.unshift(head);
  if (!table.length) return '';
  if (table.length === 1 && table[0].length === 1) return table[0][0];
  return table;
}

export { IgValidationError, isValidationError };
