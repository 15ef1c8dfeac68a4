/**
 * One step of a list run (new sheet only, one row per item, the target in column A). The unit of
 * work is a group of targets whose pages (estimated from the page size, less what is stored) fit
 * UNIT_PAGES; one target is a unit of its own when it needs more (500 posts = 42 pages). A unit is
 * fetched by the custom functions' engine (walkCalls: page N of every target in one fetchAll, each
 * page stored as soon as it is paid for, stopping at `limit` items, the end of the list or the
 * step's budget, with claims so formulas recalculating meanwhile never pay for it again). Then
 * its targets' rows are written in order, all at once, and only then does `next` advance. A target
 * is written only when all its pages are in; a target cut short (out of credits, out of time) is
 * written by a later step, whose fetch of the pages already paid for comes from the store. A
 * target repeated in the column (same request) is written once, at its first row. Rows are
 * appended as append.ts says (never twice).
 */
import type { Call } from '@igdata/core';
import { baseUrlOf } from '@igdata/core';
import { messageOf, messageRow } from '../engine/messages';
import { uniqueCalls } from '../engine/rows';
import type { TargetResult } from '../engine/walk';
import { walkCalls } from '../engine/walk';
import type { SheetValue } from '../engine/values';
import { cellsOf } from '../engine/values';
import { appendRows, appendWindow } from './append';
import type { ListJob } from './job';
import { countFetch } from './job';
import { cacheWalk, pagesFor, pagesLeft } from './plan';
import type { Step } from './step';
import { eachUnit, endStep, rowOutcomes, writesCells } from './step';
import { UNIT_TARGETS } from './unit';

/** Rows a list step reads ahead. */
const WINDOW_ROWS = 200;
/** Estimated pages not in the store that one unit of work may need. */
const UNIT_PAGES = 50;

export function stepList(s: Step<ListJob>): ListJob {
  const { job, endpoint, deps: d } = s;
  const rows = appendWindow(s, WINDOW_ROWS);
  if (!rows) return endStep(s);
  const n = rows.length;
  const base = job.next;
  const walk = cacheWalk(endpoint, uniqueCalls(rows), job.limit, d.store, baseUrlOf(d.client.config));
  const each = pagesFor(endpoint, job.limit);
  const labelled = (label: SheetValue, message: string): SheetValue[] => [
    label,
    ...messageRow(message, job.fields.length),
  ];

  eachUnit(s, n, (i) => {
    // Cut a unit: targets until their pages not in the store would pass UNIT_PAGES (at least one).
    const unit = new Map<string, Call>();
    let pages = 0;
    let end = i;
    for (; end < n; end++) {
      const r = rows[end];
      if (r.kind !== 'call') continue;
      const left = pagesLeft(walk.get(r.key)!, each);
      if (unit.size && (pages + left > UNIT_PAGES || unit.size >= UNIT_TARGETS)) break;
      pages += left;
      unit.set(r.key, r.call);
    }
    // No new page after the step's budget, as for rows: the step holds the document lock, which
    // the sidebar's calls and the formulas' claims wait for. A target cut short is finished by the
    // next step, its pages paid for so far read from the store.
    const run = walkCalls(endpoint, unit, d, {
      deadline: s.started + s.budgetMs,
      refresh: false,
      limit: job.limit,
      claims: true,
    });
    countFetch(job, run.credits, run.requests, run.fromStore, run.lost);
    const { outcomes, stopAt } = rowOutcomes(job, rows, i, end, (row) => {
      const res = run.results.get(row.key) as TargetResult;
      return res.late ? { late: true } : { value: res, error: res.error, failedCall: res.failedCall };
    });
    // The rows of the unit's targets, in order.
    const values: SheetValue[][] = [];
    let written = 0;
    let dups = 0;
    for (const x of outcomes) {
      if (x.kind === 'dup') dups++;
      if (x.kind === 'invalid') values.push(labelled(x.label, x.message));
      if (x.kind === 'answer') {
        const res = x.value!;
        for (const item of res.items) values.push([x.row.label, ...cellsOf(item, job.fields, res.fetchedAt)]);
        // A failure after some pages: the items read, then the message (as in the custom functions).
        if (x.error) values.push(labelled(x.row.label, messageOf(x.error, x.failedCall ?? x.row.call, d.zoneOffset)));
        else if (!res.items.length) values.push(labelled(x.row.label, 'No items.'));
      }
      if (writesCells(x)) written++;
    }
    appendRows(s, values, { next: base + stopAt, written, duplicates: dups });
    return { stopAt, end };
  });
  return endStep(s);
}
