/**
 * Bulk lookup from the sidebar: a column of targets, one endpoint, some fields; plain values
 * written beside the column or to a new sheet (list endpoints: a new sheet only, one row per item).
 * The sidebar drives it in steps, each a short script execution far under the 6-minute limit,
 * one at a time per document (the document lock).
 */
import { getEndpoint } from '@igdata/core';
import { targetParam } from '../engine/layout';
import { engineDeps, keepingAnswers, withAgeLimit } from '../gas/deps';
import { withDocumentLock } from '../gas/lock';
import { recordUsage } from '../gas/usage';
import { newId } from '../gas/settings';
import type { Range } from '../gas/sheet';
import { historySheet, newOutputSheet, outputPlace, selection, sheetByName, writeRow } from '../gas/sheet';
import type { BulkJob, JobPlace } from './job';
import { loadJob, saveJob } from './job';
import { stepList } from './list-step';
import { stepHistory } from './history-step';
import type { BulkPlan, BulkRequest } from './plan';
import { plan } from './plan';
import { stepRows } from './row-step';

/** Time one step may spend fetching before it reports progress (the limit is 6 minutes). */
const STEP_BUDGET_MS = 3000;

/**
 * Prepares the output of a run on `range` (writes the header; fetches nothing): a new sheet, the
 * history sheet of the lookup, or the empty columns beside (refused when not empty).
 */
export function placeOutput(range: Range, p: BulkPlan, output: BulkRequest['output']): JobPlace & { outNext?: number } {
  const src = range.getSheet();
  const at = { sheet: src.getName(), row: range.getRow(), col: range.getColumn(), rows: range.getNumRows() };
  if (output === 'history') {
    const h = historySheet(p.endpoint.fn, ['date', p.targetName, ...p.fields]);
    return { ...at, outSheet: h.name, outRow: 2, outCol: 3, outNext: h.next };
  }
  if (output === 'sheet') {
    // Row r of the source goes to row r + 2 (list rows are added as they come).
    const name = newOutputSheet(p.endpoint.fn, [p.targetName, ...p.fields], p.list ? 0 : range.getNumRows() + 1);
    return { ...at, outSheet: name, outRow: 2, outCol: 2, outNext: p.list ? 2 : undefined };
  }
  const place = outputPlace(range, p.fields.length, output, true);
  if (range.getRow() > 1) writeRow(src, range.getRow() - 1, place.col, p.fields);
  return { ...at, outSheet: place.sheet as string, outRow: place.row, outCol: place.col };
}

/** A new job (not saved) writing to `place`. */
export function newJob(p: BulkPlan, place: JobPlace & { outNext?: number }, output: BulkRequest['output']): BulkJob {
  const job: BulkJob = {
    id: newId(), endpoint: p.endpoint.id, params: p.params, fields: p.fields,
    sheet: place.sheet, row: place.row, col: place.col, rows: place.rows,
    outSheet: place.outSheet, outRow: place.outRow, outCol: place.outCol, copyTargets: output === 'sheet',
    next: 0, written: 0, skipped: 0, credits: 0, requests: 0, cached: 0, errors: 0, status: 'running', startedAt: new Date().toISOString(),
  };
  if (p.list) {
    // Rows are appended from row 2: column A the target, then the fields (outCol 2).
    job.list = true;
    if (p.limit !== undefined) job.limit = p.limit;
    job.items = 0;
    job.duplicates = 0;
  }
  if (output === 'history') {
    job.history = true;
    job.copyTargets = false;
    job.items = 0;
    job.duplicates = 0;
  }
  if (place.outNext !== undefined) job.outNext = place.outNext;
  return job;
}

/** Starts a job on the selection (replacing any earlier sidebar job). Writes the header; fetches nothing. */
export function start(req: BulkRequest): BulkJob {
  const p = plan(req);
  const range = selection();
  return withDocumentLock(() => {
    const job = newJob(p, placeOutput(range, p, req.output), req.output);
    saveJob(job);
    return job;
  });
}

/** One step: rows from `next` until the window ends or the step's time budget is used. */
export function step(jobId: string, budgetMs = STEP_BUDGET_MS, slot?: string): BulkJob {
  return withDocumentLock(() => {
    const job = loadJob(slot);
    if (!job || job.id !== jobId) throw new Error('This bulk run was replaced by another one.');
    if (job.status !== 'running') return job;
    const started = Date.now();
    const endpoint = getEndpoint(job.endpoint);
    const targetName = targetParam(endpoint)!.name;
    const src = sheetByName(job.sheet);
    const out = sheetByName(job.outSheet);
    if (!src || !out) {
      job.status = 'paused';
      job.message = `The sheet "${!src ? job.sheet : job.outSheet}" is gone; start a new run.`;
      saveJob(job);
      return job;
    }
    if (job.row + job.rows - 1 > src.getMaxRows()) {
      job.status = 'paused';
      job.message = `The targets go past the last row of "${job.sheet}" (were rows deleted?). Select the column again and start a new run.`;
      saveJob(job);
      return job;
    }
    const run = job.list ? stepList : job.history ? stepHistory : stepRows;
    // Its answers are kept in the hidden sheet too (engine/keep.ts), written at the step's end.
    const before = job.credits;
    const after = withAgeLimit(job.maxAgeMs, () => keepingAnswers(() => run(job, endpoint, targetName, src, out, engineDeps, started, budgetMs)));
    recordUsage(`${job.slot ? 'Scheduled run' : 'Run'} ${job.startedAt.slice(0, 16)} ${endpoint.fn}`, after.credits - before);
    return after;
  });
}

export function cancel(jobId: string): BulkJob | null {
  return withDocumentLock(() => {
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
export function resume(jobId: string): BulkJob {
  return withDocumentLock(() => {
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
