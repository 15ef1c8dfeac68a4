/**
 * One step of a bulk run of list endpoints (new sheet only, one row per item, the target in
 * column A). The unit of work is a group of targets whose pages (estimated from the page size,
 * less what is stored) fit UNIT_PAGES; one target is a unit of its own when it needs more (500
 * posts = 42 pages). A unit is fetched by the custom functions' engine (runCalls: page N of every
 * target in one fetchAll, each page stored as soon as it is paid for, stopping at `limit` items or
 * the end of the list). Then its targets' rows are written in order, all at once, and only then
 * does `next` advance. A target is written only when all its pages are in; a target cut short (out
 * of credits, out of time) is written by a later step, whose fetch of the pages already paid for
 * comes from the store. A target repeated in the column (same request) is written once, at its
 * first row. Rows are appended as append.ts says (never twice).
 */
import type { Call, EndpointDef } from '@igdata/core';
import { baseUrlOf, stopsBulkRun } from '@igdata/core';
import { messageOf, messageRow } from '../engine/messages';
import type { EngineDeps } from '../engine/ports';
import type { TargetResult } from '../engine/run';
import { runCalls } from '../engine/run';
import type { SheetValue } from '../engine/values';
import { cellsOf } from '../engine/values';
import type { Sheet } from '../gas/sheet';
import { readColumn } from '../gas/sheet';
import { appendRows, settlePending } from './append';
import type { BulkJob } from './job';
import { eachUnit, endStep, fromEarlierRuns } from './job';
import { cacheWalk, pagesFor, pagesLeft } from './plan';
import { distinctRows } from './targets';
import { upTo } from './job';

/** Rows a list step reads ahead. */
const WINDOW_ROWS = 200;
/** Estimated pages not in the store that one unit of work may need. */
const UNIT_PAGES = 50;
/** A unit starts no new page after this long (far under the 6-minute limit); the rest waits for the next step. */
const UNIT_DEADLINE_MS = 240000;

export function stepList(job: BulkJob, endpoint: EndpointDef, targetName: string, src: Sheet, out: Sheet, deps: () => EngineDeps, started: number, budgetMs: number): BulkJob {
  settlePending(job, out);
  const n = Math.min(WINDOW_ROWS, job.rows - job.next);
  if (n <= 0) return endStep(job);
  const base = job.next;
  const width = job.fields.length + 1;
  const plan = { endpoint, targetName, params: job.params };
  const rows = distinctRows(plan, readColumn(src, job.row, job.col, base + n), base, n, upTo(base));
  const fresh = new Map<string, Call>();
  for (const r of rows) if (r.kind === 'call') fresh.set(r.key, r.call);
  const d = deps();
  const walk = cacheWalk(endpoint, fresh, job.limit, d.store, baseUrlOf(d.client.config));
  const each = pagesFor(endpoint, job.limit);
  const labelled = (label: SheetValue, message: string): SheetValue[] => [label, ...messageRow(message, width - 1)];

  eachUnit(job, n, started, budgetMs, (i) => {
    // Cut a unit: targets until their pages not in the store would pass UNIT_PAGES (at least one).
    const unit = new Map<string, Call>();
    let pages = 0;
    let end = i;
    for (; end < n; end++) {
      const r = rows[end];
      if (r.kind !== 'call') continue;
      const left = pagesLeft(walk.get(r.key)!, each);
      if (unit.size && (pages + left > UNIT_PAGES || unit.size >= 50)) break;
      pages += left;
      unit.set(r.key, r.call);
    }
    const run = runCalls(endpoint, unit, d, { deadline: started + UNIT_DEADLINE_MS, refresh: false, limit: job.limit });
    job.credits += run.credits;
    job.requests += run.requests;
    job.cached += fromEarlierRuns(job, run.fromStore);
    // The rows of the unit's targets, in order; a blocking error or a late target stops before its row.
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
        values.push(labelled(row.label, row.message));
        written++;
        continue;
      }
      const res = run.results.get(row.key) as TargetResult;
      if (res.late) {
        stopAt = r;
        break;
      }
      if (res.error && stopsBulkRun(res.error)) {
        job.status = 'paused';
        job.message = messageOf(res.error!, res.failedCall ?? row.call);
        stopAt = r;
        break;
      }
      for (const item of res.items) values.push([row.label, ...cellsOf(item, job.fields, res.fetchedAt)]);
      // A failure after some pages: the items read, then the message (as in the custom functions).
      if (res.error) values.push(labelled(row.label, messageOf(res.error, res.failedCall ?? row.call)));
      else if (!res.items.length) values.push(labelled(row.label, 'No items.'));
      written++;
    }
    appendRows(job, out, values, { next: base + stopAt, written, duplicates: dups });
    return { stopAt, end };
  });
  return endStep(job);
}
