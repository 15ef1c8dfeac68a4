/**
 * "Benchmark these accounts": a selection of accounts (the first is ours unless the user says which), the measures to
 * compare (measures.ts), and a refresh schedule become, in one step, a report sheet (report-sheet.ts) rebuilt from
 * the benchmark's history sheets whenever its runs end. A benchmark is a tracker whose view is a report: the same
 * history schedules (one per insight its measures come from, kind 'benchmark' in owners.ts), first run now, weekly
 * runs by the hourly trigger, history kept, answers still fresh reused (free), the same cap.
 */
import { baseUrlOf, counted, estimateCost, getEndpoint } from '@igdata/core';
import { answersFor } from '../context/answers';
import type { Context } from '../context/context';
import { settingRule } from '../context/reuse';
import { planRow, uniqueCalls } from '../engine/rows';
import { selection } from '../bulk/grid';
import type { Repeat } from '../schedule/when';
import { reuseLimitMs } from '../schedule/when';
import type { PartRequest, TrackerRequest } from '../tracker/read';
import { readRuns } from '../tracker/read';
import type { RunsSpec } from '../tracker/trackers';
import {
  accountsIn,
  capShare,
  deleteTracker,
  makeRuns,
  previewRuns,
  runsOwner,
  stepTracker,
  trackerViews,
} from '../tracker/trackers';
import { BEST_TIME_ENDPOINT, DEFAULT_MEASURES, MEASURES } from './measures';
import { writeBenchmark } from './report-sheet';

export interface BenchmarkRequest extends Omit<TrackerRequest, 'fields' | 'sortBy'> {
  /** Measure ids (measures.ts), in the report's order; absent: the ticked ones. */
  measures?: string[];
  /** Our account, as typed in the selection; absent: its first. */
  ours?: string;
  /** The selection the preview counted. */
  range?: string;
}

/** The measures offered, each with the function it reads and what that costs an account (the registry's price). */
export const benchmarkChoices = () => ({
  measures: MEASURES.map((m) => {
    const e = getEndpoint(m.endpoint);
    return { id: m.id, label: m.label, fn: e.fn, credits: estimateCost(e, {}).credits, ticked: !!m.ticked };
  }),
  defaults: DEFAULT_MEASURES,
});

/** The benchmark asked for, checked (a message naming what is wrong; nothing is saved on bad input). */
function readBenchmark(ctx: Context, req: BenchmarkRequest): { spec: RunsSpec; measures: string[]; zone: number } {
  const ids = req.measures?.length ? [...new Set(req.measures.map(String))] : DEFAULT_MEASURES;
  const unknown = ids.find((id) => !MEASURES.some((m) => m.id === id));
  if (unknown)
    throw new Error(`Measures: "${unknown}" is not a measure. Choose from: ${MEASURES.map((m) => m.id).join(', ')}.`);
  const chosen = MEASURES.filter((m) => ids.includes(m.id));
  // The best-time insight says hours in the zone asked: the spreadsheet's, in whole hours (the API's -12..14).
  const zone = Math.max(-12, Math.min(14, Math.round(ctx.book.zoneOffset(ctx.now()) / 60)));
  const parts: PartRequest[] = [];
  for (const m of chosen) {
    const endpoint = getEndpoint(m.endpoint);
    let part = parts.find((p) => p.endpoint === endpoint);
    if (!part) {
      part = { endpoint, fields: [], params: m.endpoint === BEST_TIME_ENDPOINT ? { timezone: zone } : {} };
      parts.push(part);
    }
    for (const f of m.shown?.fields ?? [m.field]) if (!part.fields.includes(f)) part.fields.push(f);
  }
  const measures = chosen.map((m) => m.id);
  // A benchmark may be made once, not refreshed (its report stays as the first run left it).
  const kinds: Repeat['every'][] = ['weekly', 'daily', 'never'];
  const spec = readRuns({ ...req, fields: undefined, sortBy: undefined }, measures, parts, kinds, 'measures');
  // Growth is the change between two runs: a benchmark made once would show an empty row, paid for nothing.
  const change = chosen.find((m) => m.change);
  if (spec.settings.repeat.every === 'never' && change)
    throw new Error(
      `Measures: ${change.label.toLowerCase()} needs a second run; choose a weekly or daily refresh, or untick it.`,
    );
  return { spec, measures, zone };
}

/**
 * A benchmark made once has no later run to finish what its cap cut: its cap covers every account, else the
 * missing accounts would stay blank for good.
 */
function checkOnce({ settings, each }: RunsSpec, accounts: number): void {
  const all = accounts * each;
  if (settings.repeat.every === 'never' && settings.cap < all)
    throw new Error(
      `Credit cap per run: a benchmark made once runs once, so its cap must cover every account: at least ` +
        `${all} (${counted(accounts, 'account')} \u00d7 ${counted(each, 'credit')}); got ${settings.cap}.`,
    );
}

/** "ours", checked against the selection's accounts as the service reads them. */
function oursIn(ctx: Context, req: BenchmarkRequest): { accounts: string[]; ours: string } {
  const r = selection(ctx.book);
  const accounts = accountsIn(ctx, { ...r, rows: r.rows });
  if (accounts.length < 2)
    throw new Error(
      `The selection ${r.a1} holds ${counted(accounts.length, 'account')}: ` +
        'select a column of at least two usernames, @names or profile links (ours first).',
    );
  const typed = String(req.ours ?? '').trim();
  if (!typed) return { accounts, ours: accounts[0] };
  const call = planRow(getEndpoint(MEASURES[0].endpoint), 'handle', {}, typed);
  const ours = call.kind === 'call' ? String(call.call.params.handle) : typed;
  if (!accounts.includes(ours))
    throw new Error(`Our account: "${typed}" is not in the selection (${accounts.join(', ')}): choose one of them.`);
  return { accounts, ours };
}

/**
 * What the benchmark would cost now and per month: every part's calls over the selection, less the answers a run
 * would reuse (fetched within half its period and the freshness setting: free), against the balance.
 */
export function previewBenchmark(ctx: Context, req: BenchmarkRequest) {
  const { spec, measures } = readBenchmark(ctx, req);
  const { accounts, ours } = oursIn(ctx, req);
  checkOnce(spec, accounts.length);
  const r = selection(ctx.book);
  const runs = previewRuns(ctx, spec, { ...r, rows: r.rows });
  const rule = { ...settingRule(ctx.settings), runLimitMs: reuseLimitMs(spec.settings.repeat) };
  const store = answersFor(ctx, rule, false).deps.store;
  const baseUrl = baseUrlOf(ctx.client.config);
  // Each part's run spends at most its share of the cap, in whole accounts (it stops before passing it).
  const parts = spec.parts.map((p) => {
    const calls = uniqueCalls(accounts.map((a) => planRow(p.endpoint, 'handle', p.params, a)));
    const kept = store.getMany([...calls.keys()].map((k) => store.keyFor(baseUrl, k))).size;
    const paid = Math.min(calls.size - kept, Math.floor(capShare(p.credits, spec.settings.cap, spec.each) / p.credits));
    return { fn: p.endpoint.fn, creditsEach: p.credits, kept, credits: paid * p.credits };
  });
  const now = parts.reduce((n, p) => n + p.credits, 0);
  return {
    ...runs,
    /** The selection's accounts as the service reads them (the sidebar offers them as ours). */
    handles: accounts,
    ours,
    measures,
    parts,
    /** What the first run spends now: what is not kept, never more than the cap. */
    now,
    kept: parts.reduce((n, p) => n + p.kept, 0),
    enough: runs.balance === undefined ? undefined : runs.balance >= now,
  };
}

/** Makes the benchmark on the selection: its schedules, its first run now (the sidebar steps it) and its report. */
export function createBenchmark(ctx: Context, req: BenchmarkRequest) {
  const { spec, measures, zone } = readBenchmark(ctx, req);
  const { accounts, ours } = oursIn(ctx, req);
  checkOnce(spec, accounts.length);
  return makeRuns(ctx, spec, req.range, { report: 'benchmark', ours, measures, zone }, writeBenchmark);
}

/** A benchmark as its schedules' owner: its report is rebuilt once all its runs are over. */
export const BENCHMARK_OWNER = runsOwner(writeBenchmark);

export const stepBenchmark = (ctx: Context, id: string) => stepTracker(ctx, id, BENCHMARK_OWNER, 'benchmark');
export const benchmarkViews = (ctx: Context) => trackerViews(ctx, 'benchmark');
/** Deletes a benchmark and its schedules; its report and history sheets stay (the sidebar asks first). */
export const deleteBenchmark = deleteTracker;
