/**
 * Bulk lookup from the sidebar: a column of targets, one endpoint, some fields; plain values
 * written beside the column or to a new sheet (list endpoints: a new sheet only, one row per item,
 * see `stepList`). The sidebar drives it in steps (each a short script
 * execution, far under the 6-minute limit). The job lives in one small document property, so it
 * survives the sidebar closing, an error or a timeout:
 *
 *   each step: read the next rows, skip rows whose output cells are already filled, fetch (cache
 *   first; every paid answer is cached right after its batch), write the values, and only then
 *   advance `next`. A resume therefore never writes a row twice nor bills a done row again.
 */
import type { Call, EndpointDef } from '@igdata/core';
import { estimateCost, flatten, getEndpoint, isBlank, pick, prepare, requestKey, runSync, send, userMessage, isIgError } from '@igdata/core';
import { cacheKey, getMany, underDocumentLock } from './cache';
import { gasIO } from './gas-io';
import type { ListResult } from './functions/engine';
import { CELL_RETRY, KEY_WHERE, messageOf, parseArgs, runCalls } from './functions/engine';
import { fetchMany, keyOf } from './functions/fetch';
import { MAX_LIMIT, targetParam } from './functions/layout';
import type { SheetValue } from './functions/values';
import { toCell } from './functions/values';
import { PROP, props, readSettings } from './settings';

/** Time one step may spend fetching before it reports progress (the limit is 6 minutes). */
export const STEP_BUDGET_MS = 3000;
/** Rows one step reads ahead. */
const WINDOW_ROWS = 1000;
/** Errors that stop the job (nothing more can succeed until the user acts). */
const BLOCKING = new Set(['invalid_api_key', 'missing_api_key', 'insufficient_credits']);

export interface BulkRequest {
  endpoint: string;
  /** Non-target parameters by API name (posts, sample, criteria...). */
  params?: Record<string, unknown>;
  /** Comma list; blank = the endpoint's default columns. */
  fields?: string;
  output: 'beside' | 'sheet';
  /** List endpoints: items per target (1-500); blank = the first page, whatever its size. */
  limit?: number | string | null;
}

export interface Job {
  id: string;
  endpoint: string;
  params: Record<string, unknown>;
  fields: string[];
  /** Source: sheet name, first row and column, row count (one column). */
  sheet: string;
  row: number;
  col: number;
  rows: number;
  /** Output: sheet and the column of the first field; row r of the source goes to outRow + r. */
  outSheet: string;
  outRow: number;
  outCol: number;
  /** New-sheet output: the target is copied to column A of each written row. */
  copyTargets: boolean;
  /** Index (0-based) of the next source row to process. */
  next: number;
  /** Rows written with a value or a message; rows skipped because already written. */
  written: number;
  skipped: number;
  credits: number;
  requests: number;
  cached: number;
  status: 'running' | 'paused' | 'cancelled' | 'done';
  message?: string;
  startedAt: string;
  /** List endpoints (new sheet only): rows are appended, one per item, the target in column A. */
  list?: boolean;
  /** Items per target; absent = the first page. */
  limit?: number;
  /** List jobs: the next free output row. */
  outNext?: number;
  /** List jobs: rows written to the output sheet (items and messages); source rows skipped as repeats of an earlier target. */
  items?: number;
  duplicates?: number;
  /**
   * List jobs: a write in progress. Saved before the rows are written and applied after; if the
   * execution dies in between, the next step looks at row `at`: filled = the write happened (apply
   * it), empty = it did not (drop it; the pages are cached, so fetching them again is free).
   */
  pending?: { at: number; rows: number; next: number; written: number; items: number; duplicates: number };
}

export function loadJob(): Job | null {
  const text = props().getProperty(PROP.job);
  if (!text) return null;
  try {
    return JSON.parse(text) as Job;
  } catch {
    return null;
  }
}

const saveJob = (job: Job) => props().setProperty(PROP.job, JSON.stringify(job));

/** Endpoints a bulk run offers: one target in; one row out (single) or one row per item (list). */
export const bulkEndpoints = (all: readonly EndpointDef[]): EndpointDef[] =>
  all.filter((e) => (e.shape === 'single' || e.shape === 'list') && targetParam(e) !== undefined);

/** Page size used for estimates (the registry's); null when the list is one page (not paged). */
export const pageSizeOf = (e: EndpointDef): number | null => (e.paginated ? e.pageSize ?? 12 : null);

/** Pages a target needs at most for `limit` items (blank = the first page only). */
export function pagesFor(e: EndpointDef, limit: number | undefined): number {
  const size = pageSizeOf(e);
  return size === null || limit === undefined ? 1 : Math.ceil(limit / size);
}

function selection() {
  const range = SpreadsheetApp.getActiveRange();
  if (!range) throw new Error('Select the column of targets first (e.g. A2:A801).');
  if (range.getNumColumns() !== 1) throw new Error(`Select one column of targets; the selection ${range.getA1Notation()} has ${range.getNumColumns()} columns.`);
  return range;
}

/** Reads and checks a bulk request (same rules as the custom functions: nothing is sent on a bad argument). */
function plan(req: BulkRequest) {
  const endpoint = getEndpoint(req.endpoint);
  if (!bulkEndpoints([endpoint]).length) throw new Error(`${endpoint.fn} takes no target; bulk runs need a column of targets.`);
  const list = endpoint.shape === 'list';
  if (list && req.output !== 'sheet') throw new Error(`${endpoint.fn} returns many rows per target: choose "a new sheet".`);
  const target = targetParam(endpoint)!;
  const layout = [undefined, ...endpoint.params.filter((p) => p !== target && p.kind !== 'cursor').map((p) => req.params?.[p.name]), req.fields ?? ''];
  // Same validation as the custom functions' `limit` argument (1-500), after `header`.
  if (list) layout.push(undefined, req.limit ?? undefined);
  try {
    const parsed = parseArgs(endpoint, layout);
    return {
      endpoint, target, params: parsed.params, list, limit: parsed.limit,
      fields: parsed.fields.length ? parsed.fields : endpoint.columns.length ? endpoint.columns : ['result'],
    };
  } catch (e) {
    if (isIgError(e)) throw new Error(userMessage(e, { keyWhere: KEY_WHERE }));
    throw e;
  }
}

function callFor(endpoint: EndpointDef, targetName: string, params: Record<string, unknown>, cell: unknown): Call | string | null {
  if (isBlank(cell)) return null;
  try {
    return prepare(endpoint, { ...params, [targetName]: typeof cell === 'string' ? cell.trim() : cell });
  } catch (e) {
    if (isIgError(e)) return userMessage(e, { keyWhere: KEY_WHERE });
    throw e;
  }
}

/** The balance, from the free credits endpoint; undefined when it cannot be read. */
export function balance(): { balance?: number; message?: string } {
  const s = readSettings();
  if (!s.apiKey) return { message: `No API key is set. Set it in ${KEY_WHERE}.` };
  try {
    const r = runSync(send({ apiKey: s.apiKey, baseUrl: s.baseUrl, retry: CELL_RETRY }, prepare('credits', {})), gasIO());
    const v = r.data.credits_remaining ?? r.creditsRemaining;
    return { balance: typeof v === 'number' ? v : Number(v) };
  } catch (e) {
    if (isIgError(e)) return { message: userMessage(e, { keyWhere: KEY_WHERE }) };
    throw e;
  }
}

export interface Preview {
  range: string;
  rows: number;
  blank: number;
  invalid: number;
  unique: number;
  cached: number;
  toFetch: number;
  creditsEach: number;
  credits: number;
  exact: boolean;
  balance?: number;
  balanceMessage?: string;
  enough?: boolean;
  fields: string[];
  output: string;
  /** List endpoints: the estimate is in pages (at most `pagesEach` per target at `pageSize` items a page). */
  list?: {
    limit: number | null;
    pageSize: number | null;
    pagesEach: number;
    /** Pages still to fetch: uncached targets times pagesEach, less pages already cached. */
    pages: number;
    duplicates: number;
  };
}

/**
 * How far each target's list is already cached: follows cached pages the way runCalls would fetch
 * them (same cursors, same stop rule). `complete` = every page the run needs is cached (free).
 */
function cacheWalk(endpoint: EndpointDef, calls: Map<string, Call>, limit: number | undefined, baseUrl: string) {
  const state = new Map<string, { pages: number; items: number; complete: boolean }>();
  for (const k of calls.keys()) state.set(k, { pages: 0, items: 0, complete: false });
  let pending = new Map(calls);
  while (pending.size) {
    const ck = new Map<string, string>();
    for (const [k, c] of pending) ck.set(k, cacheKey(baseUrl, keyOf(c)));
    const hits = getMany([...ck.values()]);
    const next = new Map<string, Call>();
    for (const [k, c] of pending) {
      const hit = hits.get(ck.get(k) as string);
      if (!hit) continue;
      const st = state.get(k)!;
      st.pages++;
      if (!hit.ok) {
        st.complete = true;
        continue;
      }
      const items = Array.isArray(hit.data.items) ? hit.data.items.length : 0;
      st.items += items;
      const cursor = endpoint.paginated ? hit.next : null;
      if (cursor && limit !== undefined && st.items < limit && items) next.set(k, { endpoint: c.endpoint, params: { ...c.params, cursor } });
      else st.complete = true;
    }
    pending = next;
  }
  return state;
}

/** Pages still to fetch for a target, from its cache walk (at least one when not complete). */
const pagesLeft = (w: { pages: number; complete: boolean }, each: number) => (w.complete ? 0 : Math.max(1, each - w.pages));

/** What a run would cost: unique uncached targets times the cost, against the balance. */
export function preview(req: BulkRequest): Preview {
  const p = plan(req);
  const range = selection();
  const cells = range.getValues().map((r: unknown[]) => r[0]);
  const s = readSettings();
  let blank = 0;
  let invalid = 0;
  let valid = 0;
  const calls = new Map<string, Call>();
  for (const cell of cells) {
    const c = callFor(p.endpoint, p.target.name, p.params, cell);
    if (c === null) blank++;
    else if (typeof c === 'string') invalid++;
    else {
      valid++;
      calls.set(keyOf(c), c);
    }
  }
  if (p.list) return listPreview(p, range, cells.length, blank, invalid, valid, calls, s.baseUrl);
  const keys = [...calls.keys()].map((k) => cacheKey(s.baseUrl, k));
  const hits = getMany(keys).size;
  const first = calls.values().next().value as Call | undefined;
  const cost = estimateCost(p.endpoint, first ? first.params : (p.params as never));
  const toFetch = calls.size - hits;
  const b = balance();
  const out = outputPlace(range, p.fields.length, req.output, false);
  return {
    range: `${range.getSheet().getName()}!${range.getA1Notation()}`,
    rows: cells.length, blank, invalid, unique: calls.size, cached: hits, toFetch,
    creditsEach: cost.credits, credits: toFetch * cost.credits, exact: cost.exact,
    balance: b.balance, balanceMessage: b.message,
    enough: b.balance === undefined ? undefined : b.balance >= toFetch * cost.credits,
    fields: p.fields, output: out.label,
  };
}

function listPreview(
  p: ReturnType<typeof plan>, range: any, rows: number, blank: number, invalid: number, valid: number, calls: Map<string, Call>, baseUrl: string,
): Preview {
  const walk = cacheWalk(p.endpoint, calls, p.limit, baseUrl);
  const each = pagesFor(p.endpoint, p.limit);
  let cached = 0;
  let pages = 0;
  for (const w of walk.values()) {
    if (w.complete) cached++;
    pages += pagesLeft(w, each);
  }
  const perPage = estimateCost(p.endpoint, p.params as never).credits;
  const credits = pages * perPage;
  const b = balance();
  return {
    range: `${range.getSheet().getName()}!${range.getA1Notation()}`,
    rows, blank, invalid, unique: calls.size, cached, toFetch: calls.size - cached,
    creditsEach: perPage, credits, exact: false,
    balance: b.balance, balanceMessage: b.message,
    // "At most": a list that ends early costs fewer pages.
    enough: b.balance === undefined ? undefined : b.balance >= credits,
    fields: p.fields, output: 'a new sheet',
    list: { limit: p.limit ?? null, pageSize: pageSizeOf(p.endpoint), pagesEach: each, pages, duplicates: valid - calls.size },
  };
}

const colName = (c: number): string => (c <= 0 ? '' : colName(Math.floor((c - 1) / 26)) + String.fromCharCode(65 + ((c - 1) % 26)));

/**
 * Where the values go. "beside": the columns right of the source column, which must be empty (a
 * run never overwrites the user's data); "sheet": a new sheet with the targets in column A.
 */
function outputPlace(range: any, width: number, output: BulkRequest['output'], create: boolean) {
  const sheet = range.getSheet();
  const row = range.getRow();
  const col = range.getColumn();
  const n = range.getNumRows();
  if (output === 'sheet') {
    return { label: 'a new sheet', sheet: null as string | null, row: 2, col: 2 };
  }
  const headerRow = row > 1 ? row - 1 : row;
  const height = n + (row > 1 ? 1 : 0);
  if (col + width > sheet.getMaxColumns()) throw new Error(`Not enough columns right of ${colName(col)}: choose "New sheet".`);
  const values = sheet.getRange(headerRow, col + 1, height, width).getValues();
  const busy = values.some((r: unknown[]) => r.some((v) => v !== '' && v !== null));
  const label = `columns ${colName(col + 1)}:${colName(col + width)} of ${sheet.getName()}`;
  if (busy && create) throw new Error(`${label} are not empty. Clear them or choose "New sheet": a bulk run never overwrites cells.`);
  return { label: busy ? `${label} (not empty: choose "New sheet")` : label, sheet: sheet.getName() as string, row, col: col + 1 };
}

function withLock<T>(fn: () => T): T {
  const lock = LockService.getDocumentLock();
  if (!lock) return fn();
  if (!lock.tryLock(30000)) throw new Error('Another bulk step is still running; try again in a few seconds.');
  try {
    return underDocumentLock(fn); // cache writes inside use this lock instead of taking it again
  } finally {
    lock.releaseLock();
  }
}

/** Starts a job on the selection (replacing any earlier job). Writes the header; fetches nothing. */
export function start(req: BulkRequest): Job {
  const p = plan(req);
  const range = selection();
  return withLock(() => {
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    const src = range.getSheet();
    const place = outputPlace(range, p.fields.length, req.output, true);
    let outSheet = place.sheet;
    let outRow = place.row;
    if (req.output === 'sheet') {
      let name = `IG Data ${p.endpoint.fn}`;
      for (let i = 2; ss.getSheetByName(name); i++) name = `IG Data ${p.endpoint.fn} ${i}`;
      const sheet = ss.insertSheet(name);
      // Row r of the source goes to row r + 1: make room when the column is long.
      const need = p.list ? 0 : range.getNumRows() + 1 - sheet.getMaxRows(); // list rows: added as they come
      if (need > 0) {
        if (typeof sheet.insertRowsAfter !== 'function') throw new Error(`The new sheet has too few rows for ${range.getNumRows()} targets; write beside the column instead.`);
        sheet.insertRowsAfter(sheet.getMaxRows(), need);
      }
      sheet.getRange(1, 1, 1, p.fields.length + 1).setValues([[p.target.name, ...p.fields]]);
      outSheet = name;
      outRow = 2;
    } else if (range.getRow() > 1) {
      src.getRange(range.getRow() - 1, place.col, 1, p.fields.length).setValues([p.fields]);
    }
    const job: Job = {
      id: Utilities.getUuid(), endpoint: p.endpoint.id, params: p.params, fields: p.fields,
      sheet: src.getName(), row: range.getRow(), col: range.getColumn(), rows: range.getNumRows(),
      outSheet: outSheet as string, outRow, outCol: place.col, copyTargets: req.output === 'sheet',
      next: 0, written: 0, skipped: 0, credits: 0, requests: 0, cached: 0, status: 'running', startedAt: new Date().toISOString(),
    };
    // In a new sheet, row r of the output is row r of the source shifted to start at row 2.
    if (req.output === 'sheet') job.outRow = 2;
    if (p.list) {
      // Rows are appended from row 2: column A the target, then the fields (outCol 2).
      job.list = true;
      if (p.limit !== undefined) job.limit = p.limit;
      job.outNext = 2;
      job.items = 0;
      job.duplicates = 0;
    }
    saveJob(job);
    return job;
  });
}

function cellsOf(item: Record<string, unknown>, fields: string[]): SheetValue[] {
  const flat = flatten(item);
  return fields.map((f) => toCell(f, pick(item, flat, f)));
}

/**
 * One step: process rows from `next` until the window ends or the step's time budget is used.
 * Sub-chunks are cut so that each holds up to 50 uncached unique targets (one full fetchAll).
 */
export function step(jobId: string, budgetMs = STEP_BUDGET_MS): Job {
  return withLock(() => {
    const job = loadJob();
    if (!job || job.id !== jobId) throw new Error('This bulk run was replaced by another one.');
    if (job.status !== 'running') return job;
    const started = Date.now();
    const endpoint = getEndpoint(job.endpoint);
    const target = targetParam(endpoint)!;
    const settings = readSettings();
    const config = { apiKey: settings.apiKey, baseUrl: settings.baseUrl, retry: CELL_RETRY };
    const ss = SpreadsheetApp.getActiveSpreadsheet();
    const src = ss.getSheetByName(job.sheet);
    const out = ss.getSheetByName(job.outSheet);
    if (!src || !out) {
      job.status = 'paused';
      job.message = `The sheet "${!src ? job.sheet : job.outSheet}" is gone; start a new run.`;
      saveJob(job);
      return job;
    }
    if (job.list) return stepList(job, endpoint, target.name, src, out, started, budgetMs, settings.baseUrl);
    const base = job.next;
    const n = Math.min(WINDOW_ROWS, job.rows - job.next);
    if (n <= 0) {
      job.status = 'done';
      saveJob(job);
      return job;
    }
    const cells: unknown[] = src.getRange(job.row + job.next, job.col, n, 1).getValues().map((r: unknown[]) => r[0]);
    const existing: unknown[][] = out.getRange(job.outRow + job.next, job.outCol, n, job.fields.length).getValues();
    const filled = existing.map((r) => r.some((v) => v !== '' && v !== null));
    const calls = cells.map((c, i) => (filled[i] ? null : callFor(endpoint, target.name, job.params, c)));
    const keys: (string | null)[] = calls.map((c) => (c && typeof c !== 'string' ? requestKey(c.endpoint, c.params) : null));
    const uniqueKeys: string[] = [...new Set(keys.filter((k): k is string => k !== null))];
    const hits = getMany(uniqueKeys.map((k) => cacheKey(settings.baseUrl, k)));
    const isCached = new Set(uniqueKeys.filter((k) => hits.has(cacheKey(settings.baseUrl, k))));

    let i = 0;
    while (i < n && job.status === 'running') {
      if (i > 0 && Date.now() - started > budgetMs) break;
      // Cut a sub-chunk: rows until 50 distinct uncached targets are collected.
      const chunk = new Map<string, Call>();
      const fresh = new Set<string>();
      let end = i;
      while (end < n) {
        const k = keys[end];
        if (k && !isCached.has(k) && !fresh.has(k)) {
          if (fresh.size >= 50) break;
          fresh.add(k);
        }
        if (k) chunk.set(k, calls[end] as Call);
        end++;
      }
      const io = gasIO();
      const run = fetchMany(chunk, { config, io, deadline: Number.MAX_SAFE_INTEGER, refresh: false });
      job.credits += run.stats.credits;
      job.requests += io.stats.requests;
      job.cached += run.stats.cacheHits;
      for (const k of chunk.keys()) if (run.outcomes.get(k)?.kind === 'ok' || run.outcomes.get(k)?.kind === 'error') isCached.add(k);
      // Rows to write, in order; a blocking error stops the run before its row.
      const values: (SheetValue[] | null)[] = [];
      let stopAt = end;
      for (let r = i; r < end; r++) {
        const c = calls[r];
        if (filled[r]) {
          values.push(null);
          job.skipped++;
          continue;
        }
        if (c === null) {
          values.push(null); // blank target: nothing to write
          continue;
        }
        if (typeof c === 'string') {
          values.push(messageRow(c, job.fields.length));
          continue;
        }
        const o = run.outcomes.get(keys[r] as string)!;
        if (o.kind === 'error' && o.error.name === 'IgApiError' && BLOCKING.has(String(o.error.code))) {
          job.status = 'paused';
          job.message = messageOf(o.error, c);
          stopAt = r;
          break;
        }
        if (o.kind === 'ok') values.push(cellsOf(o.value.data, job.fields));
        else if (o.kind === 'error') values.push(messageRow(messageOf(o.error, c), job.fields.length));
        else values.push(null);
      }
      writeRuns(out, job, base + i, values, job.copyTargets ? cells.slice(i, i + values.length) : null);
      job.written += values.filter((v) => v !== null).length;
      job.next = base + stopAt;
      saveJob(job); // only after the rows are written
      i = stopAt;
      if (stopAt < end) break;
    }
    return endStep(job);
  });
}

/** Rows a list step reads ahead. */
const LIST_WINDOW_ROWS = 200;
/** Estimated uncached pages one unit of work (a chunk of targets fetched together) may need. */
export const LIST_CHUNK_PAGES = 50;
/** A chunk starts no new page after this long (far under the 6-minute limit); the rest waits for the next step. */
export const LIST_CHUNK_DEADLINE_MS = 240000;

type ListRow = { kind: 'blank' } | { kind: 'dup' } | { kind: 'invalid'; label: SheetValue; message: string } | { kind: 'call'; label: SheetValue; key: string; call: Call };

const labelOf = (cell: unknown): SheetValue => (typeof cell === 'string' ? cell.trim() : (cell as SheetValue));

/** Settles a write that an earlier step began but did not record (see Job.pending). */
function settlePending(job: Job, out: any): void {
  const p = job.pending;
  if (!p) return;
  const first = out.getMaxRows() >= p.at ? out.getRange(p.at, 1, 1, 1).getValues()[0][0] : '';
  if (first !== '' && first !== null) {
    job.next = p.next;
    job.outNext = p.at + p.rows;
    job.written += p.written;
    job.items = (job.items ?? 0) + p.items;
    job.duplicates = (job.duplicates ?? 0) + p.duplicates;
  }
  delete job.pending;
  saveJob(job);
}

/**
 * One step of a list job. The unit of work is a chunk of targets whose pages (estimated from the
 * page size, less what is cached) fit LIST_CHUNK_PAGES; one target is a chunk of its own when it
 * needs more (500 posts = 42 pages). A chunk is fetched by the custom functions' engine (runCalls:
 * page N of every target in one fetchAll, each page cached as soon as it is paid for, stopping at
 * `limit` items or the end of the list). Then its targets' rows are written in order, all at once,
 * and only then does `next` advance. A target is written only when all its pages are in; a target
 * cut short (out of credits, out of time) is written by a later step, whose fetch of the pages
 * already paid for comes from the cache. A target repeated in the column (same request) is written
 * once, at its first row.
 */
function stepList(job: Job, endpoint: EndpointDef, targetName: string, src: any, out: any, started: number, budgetMs: number, baseUrl: string): Job {
  settlePending(job, out);
  const n = Math.min(LIST_WINDOW_ROWS, job.rows - job.next);
  if (n <= 0) {
    job.status = 'done';
    saveJob(job);
    return job;
  }
  const base = job.next;
  const width = job.fields.length + 1;
  // The column up to the end of the window: targets before `next` were written already.
  const cells: unknown[] = src.getRange(job.row, job.col, base + n, 1).getValues().map((r: unknown[]) => r[0]);
  const seen = new Set<string>();
  for (let r = 0; r < base; r++) {
    const c = callFor(endpoint, targetName, job.params, cells[r]);
    if (c && typeof c !== 'string') seen.add(keyOf(c));
  }
  const rows: ListRow[] = cells.slice(base).map((cell): ListRow => {
    const c = callFor(endpoint, targetName, job.params, cell);
    if (c === null) return { kind: 'blank' };
    if (typeof c === 'string') return { kind: 'invalid', label: labelOf(cell), message: c };
    const key = keyOf(c);
    if (seen.has(key)) return { kind: 'dup' };
    seen.add(key);
    return { kind: 'call', label: labelOf(cell), key, call: c };
  });
  const fresh = new Map<string, Call>();
  for (const r of rows) if (r.kind === 'call') fresh.set(r.key, r.call);
  const walk = cacheWalk(endpoint, fresh, job.limit, baseUrl);
  const each = pagesFor(endpoint, job.limit);
  const pad = (label: SheetValue, message: string): SheetValue[] => [label, ...messageRow(message, width - 1)];

  let i = 0;
  while (i < n && job.status === 'running') {
    if (i > 0 && Date.now() - started > budgetMs) break;
    // Cut a chunk: targets until their uncached pages would pass LIST_CHUNK_PAGES (at least one).
    const chunk = new Map<string, Call>();
    let pages = 0;
    let end = i;
    while (end < n) {
      const r = rows[end];
      if (r.kind === 'call') {
        const left = pagesLeft(walk.get(r.key)!, each);
        if (chunk.size && (pages + left > LIST_CHUNK_PAGES || chunk.size >= 50)) break;
        pages += left;
        chunk.set(r.key, r.call);
      }
      end++;
    }
    const run = runCalls(endpoint, chunk, { deadline: started + LIST_CHUNK_DEADLINE_MS, refresh: false, limit: job.limit });
    job.credits += run.credits;
    job.requests += run.requests;
    job.cached += run.cacheHits;
    // The rows of the chunk's targets, in order; a blocking error or a late target stops before its row.
    const values: SheetValue[][] = [];
    let written = 0;
    let dups = 0;
    let stopAt = end;
    for (let r = i; r < end; r++) {
      const row = rows[r];
      if (row.kind === 'blank') continue;
      if (row.kind === 'dup') {
        dups++;
        continue;
      }
      if (row.kind === 'invalid') {
        values.push(pad(row.label, row.message));
        written++;
        continue;
      }
      const res = run.results.get(row.key) as ListResult;
      if (res.late) {
        stopAt = r;
        break;
      }
      if (res.error && res.error.name === 'IgApiError' && BLOCKING.has(String(res.error.code))) {
        job.status = 'paused';
        job.message = messageOf(res.error, row.call);
        stopAt = r;
        break;
      }
      for (const item of res.items) values.push([row.label, ...cellsOf(item, job.fields)]);
      // A failure after some pages: the items read, then the message (as in the custom functions).
      if (res.error) values.push(pad(row.label, messageOf(res.error, row.call)));
      else if (!res.items.length) values.push(pad(row.label, 'No items.'));
      written++;
    }
    const at = job.outNext as number;
    if (values.length) {
      job.pending = { at, rows: values.length, next: base + stopAt, written, items: values.length, duplicates: dups };
      saveJob(job);
      const need = at + values.length - 1 - out.getMaxRows();
      if (need > 0) {
        if (typeof out.insertRowsAfter !== 'function') throw new Error(`The sheet "${job.outSheet}" has no room for more rows.`);
        out.insertRowsAfter(out.getMaxRows(), need);
      }
      out.getRange(at, 1, values.length, width).setValues(values); // one write: all or nothing
      delete job.pending;
    }
    job.outNext = at + values.length;
    job.written += written;
    job.items = (job.items ?? 0) + values.length;
    job.duplicates = (job.duplicates ?? 0) + dups;
    job.next = base + stopAt;
    saveJob(job); // only after the rows are written
    i = stopAt;
    if (stopAt < end) break;
  }
  return endStep(job);
}

/** A row of `width` cells: a message in the first, the rest blank. */
const messageRow = (message: string, width: number): SheetValue[] => [message, ...new Array(Math.max(0, width - 1)).fill('')];

/** The end of every step: done when the pointer passed the last row; the state saved either way. */
function endStep(job: Job): Job {
  if (job.status === 'running' && job.next >= job.rows) job.status = 'done';
  saveJob(job);
  return job;
}

/** Writes contiguous runs of rows from source index `from` (never touching rows already filled). */
function writeRuns(out: any, job: Job, from: number, values: (SheetValue[] | null)[], sourceCells: unknown[] | null): void {
  let r = 0;
  while (r < values.length) {
    if (values[r] === null) {
      r++;
      continue;
    }
    let e = r;
    while (e < values.length && values[e] !== null) e++;
    const rows = values.slice(r, e) as SheetValue[][];
    const at = job.outRow + from + r;
    out.getRange(at, job.outCol, rows.length, job.fields.length).setValues(rows);
    if (sourceCells) out.getRange(at, 1, rows.length, 1).setValues(sourceCells.slice(r, e).map((c) => [c]));
    r = e;
  }
}

export function cancel(jobId: string): Job | null {
  return withLock(() => {
    const job = loadJob();
    if (!job || job.id !== jobId) return job;
    if (job.status === 'running' || job.status === 'paused') {
      job.status = 'cancelled';
      job.message = 'Cancelled. Rows already written stay; resume to continue.';
      saveJob(job);
    }
    return job;
  });
}

/** Continues a paused or cancelled job where it stopped. */
export function resume(jobId: string): Job {
  return withLock(() => {
    const job = loadJob();
    if (!job || job.id !== jobId) throw new Error('There is no such bulk run to resume.');
    if (job.status !== 'done') {
      job.status = 'running';
      delete job.message;
      saveJob(job);
    }
    return job;
  });
}
