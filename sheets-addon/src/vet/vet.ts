/**
 * "Vet these accounts": a column of accounts and some checks become a scorecard sheet (scorecard.ts)
 * in one step. Each check is an ordinary rows run of the document's bulk run (bulk/), one after the
 * other, writing its fields into the scorecard's columns: the sidebar steps it, the hourly trigger
 * goes on with it when the sidebar closes, answers still fresh are reused (free), and a cap stops it.
 * The vet in progress lives in one document property.
 */
import { baseUrlOf, counted, estimateCost, getEndpoint } from '@igdata/core';
import { newJob } from '../bulk/runs';
import { freeSheetName, rangeLabel, readColumn, selection, writeBlock } from '../bulk/grid';
import type { BulkJob, RowsJob } from '../bulk/job';
import { jobStore, refuseReplacing } from '../bulk/job';
import { OLD_OUTCOME_WIDTH, OUTCOME_WIDTH, readOutcome } from '../bulk/outcome';
import type { BulkPlan } from '../bulk/plan';
import { plan } from '../bulk/plan';
import { readBalance } from '../engine/balance';
import { readJson } from '../engine/json';
import type { SheetValue } from '../engine/values';
import { planRow, uniqueCalls } from '../engine/rows';
import { answersFor } from '../context/answers';
import type { Context } from '../context/context';
import { PROP } from '../context/property-names';
import { settingRule } from '../context/reuse';
import type { RunOwner } from '../schedule/owner';
import { readCap } from '../schedule/schedules';
import type { FailedCheck } from './scorecard';
import {
  COLORS,
  FIELDS_FROM,
  FIELDS_TO,
  FIRST_ROW,
  LINK_COL,
  NOTE_COL,
  VERDICT_COL,
  colOf,
  linkFormula,
  noteOf,
  outcomeColOf,
  scorecardTop,
  verdictFormula,
} from './scorecard';

/**
 * The checks offered, in the order they run: each is the profile insight of its name
 * (insights/profile/<id>) and writes its fields into the scorecard. `niche` and `summary` both give the niche.
 */
const CHECKS = [
  { id: 'engagement', fields: ['followers', 'engagement_rate_pct'] },
  { id: 'audit', fields: ['estimated_real_pct', 'quality_grade'] },
  { id: 'niche', fields: ['niche'] },
  { id: 'summary', fields: ['niche'] },
  { id: 'qualify', fields: ['fit_score'] },
] as const;
const endpointOf = (id: string) => getEndpoint(`insights/profile/${id}`);

export interface VetRequest {
  /** Check ids (CHECKS). */
  checks?: string[];
  /** The checks' own parameters by API name: posts, sample (audit), criteria (qualify). */
  params?: Record<string, unknown>;
  cap?: unknown;
  /** The selection the preview counted. */
  range?: string;
}

/** The vet in progress: its scorecard, its checks and which one runs (its job is the document's bulk run). */
interface Vet {
  sheet: string;
  rows: number;
  checks: { fn: string; endpoint: string; params: Record<string, unknown>; fields: string[] }[];
  at: number;
  jobId: string;
  cap: number;
  /** Credits of the checks done (the next check's run counts on from them). */
  credits: number;
  /** Cells of each check's outcome: OUTCOME_WIDTH; absent in a vet started by the version before (3). */
  outcomeWidth?: number;
}

/** The cells of each of the vet's outcomes (a vet started before the first charge was kept has 3). */
const widthOf = (v: Vet): number => v.outcomeWidth ?? OLD_OUTCOME_WIDTH;

/** The checks offered, each with what it costs an account at its default parameters (the registry's price). */
export const vetChoices = () =>
  CHECKS.map((c) => {
    const e = endpointOf(c.id);
    return { id: c.id, fn: e.fn, fields: [...c.fields], credits: estimateCost(e, {}).credits };
  });

/** The request checked: the plan of each check chosen (nothing is sent or saved on bad input). */
function readVet(req: VetRequest): { plans: BulkPlan[]; cap: number } {
  const ids = [...new Set(req.checks ?? [])];
  if (!ids.length) throw new Error('Checks: choose at least one check to run.');
  const unknown = ids.find((id) => !CHECKS.some((c) => c.id === id));
  if (unknown)
    throw new Error(`Checks: "${unknown}" is not a check. Choose from: ${CHECKS.map((c) => c.id).join(', ')}.`);
  if (ids.includes('niche') && ids.includes('summary'))
    throw new Error('Checks: niche and summary both give the niche: choose one of them.');
  const plans = CHECKS.filter((c) => ids.includes(c.id)).map((c) =>
    plan({ endpoint: endpointOf(c.id).id, params: req.params, fields: c.fields.join(','), output: 'beside' }),
  );
  return { plans, cap: readCap(req.cap ?? 1000) };
}

/** An account cell as a check's call (or why it is not one). */
const account = (p: BulkPlan, cell: unknown) => planRow(p.endpoint, p.targetName, p.params, cell);

/** The selection's distinct accounts as the service reads them (a bad one as typed: its row says why), in order. */
function accountsIn(ctx: Context, p: BulkPlan): { range: string; accounts: string[] } {
  const r = selection(ctx.book);
  const out = new Set<string>();
  for (const cell of readColumn(ctx.book.sheet(r.sheet)!, r.row, r.col, r.rows)) {
    const row = account(p, cell);
    if (row.kind === 'call') out.add(String(row.call.params[p.targetName]));
    else if (row.kind === 'error') out.add(String(cell).trim());
  }
  return { range: rangeLabel(r), accounts: [...out] };
}

/** What vetting the selection costs: per check and account, in all, what is kept (free), against the balance. */
export function previewVet(ctx: Context, req: VetRequest) {
  const { plans, cap } = readVet(req);
  const { range, accounts } = accountsIn(ctx, plans[0]);
  const store = answersFor(ctx, settingRule(ctx.settings), false).deps.store;
  const baseUrl = baseUrlOf(ctx.client.config);
  const checks = plans.map((p) => {
    const calls = uniqueCalls(accounts.map((a) => account(p, a)));
    const kept = store.getMany([...calls.keys()].map((k) => store.keyFor(baseUrl, k))).size;
    const cost = estimateCost(p.endpoint, p.params as never);
    return {
      fn: p.endpoint.fn,
      creditsEach: cost.credits,
      exact: cost.exact,
      kept,
      credits: (calls.size - kept) * cost.credits,
    };
  });
  const credits = checks.reduce((n, c) => n + c.credits, 0);
  const b = readBalance(ctx.client);
  return {
    range,
    accounts: accounts.length,
    checks,
    credits,
    cap,
    perAccount: checks.reduce((n, c) => n + c.creditsEach, 0),
    kept: checks.reduce((n, c) => n + c.kept, 0),
    exact: checks.every((c) => c.exact),
    balance: b.ok ? b.balance : undefined,
    balanceMessage: b.ok ? undefined : b.message,
    enough: b.ok ? b.balance >= Math.min(credits, cap) : undefined,
  };
}

const loadVet = (ctx: Pick<Context, 'props'>): Vet | null => readJson(ctx.props.get(PROP.vet)) as Vet | null;
const saveVet = (ctx: Pick<Context, 'props'>, v: Vet) => ctx.props.set(PROP.vet, JSON.stringify(v));

/** The run of the vet's current check: the scorecard's accounts in, its fields' columns out. */
function checkJob(ctx: Context, v: Vet): BulkJob {
  const c = v.checks[v.at];
  const p: BulkPlan = {
    endpoint: getEndpoint(c.endpoint),
    targetName: 'handle',
    params: c.params,
    list: false,
    fields: c.fields,
  };
  const place = {
    sheet: v.sheet,
    row: FIRST_ROW,
    col: 1,
    rows: v.rows,
    outSheet: v.sheet,
    outRow: FIRST_ROW,
    outCol: colOf(c.fields[0]),
  };
  // Its credits go on from the checks before it: the vet's cap and count are one, as the user set and reads them.
  const job = newJob(ctx, p, place, 'beside') as RowsJob;
  return {
    ...job,
    cap: v.cap,
    credits: v.credits,
    label: `Vet ${v.sheet}`,
    outcomeCol: outcomeColOf(v.at, widthOf(v)),
    outcomeWidth: widthOf(v),
  };
}

/**
 * Vets the selection: a new scorecard sheet (thresholds, accounts, verdict and link formulas, colours)
 * and the first check's run, which the sidebar steps. The document's bulk run still going or paused
 * is replaced only when `replace` says the user confirmed it.
 */
export function startVet(
  ctx: Context,
  req: VetRequest,
  replace = false,
): { job: BulkJob; sheet: string; checks: number } {
  const { plans, cap } = readVet(req);
  const { range, accounts } = accountsIn(ctx, plans[0]);
  if (req.range && req.range !== range)
    throw new Error(`The selection changed since the preview (${req.range}, now ${range}): preview again.`);
  if (!accounts.length)
    throw new Error(`The selection ${range} holds no accounts: select a column of usernames, @names or profile links.`);
  return ctx.lock.withLock(() => {
    refuseReplacing(ctx.props, replace);
    const sheet = freeSheetName(ctx.book, 'IG Data vet');
    const grid = ctx.book.insertSheet(sheet);
    const n = accounts.length;
    writeBlock(grid, 1, 1, scorecardTop());
    writeBlock(
      grid,
      FIRST_ROW,
      1,
      accounts.map((a) => [a]),
    );
    const fields = plans.flatMap((p) => p.fields);
    const rows = accounts.map((_, i) => FIRST_ROW + i);
    grid.writeFormulas(
      FIRST_ROW,
      VERDICT_COL,
      rows.map((r) => verdictFormula(r, fields)),
    );
    // A bad account gets no link: its note says what is wrong with it.
    grid.writeFormulas(
      FIRST_ROW,
      LINK_COL,
      rows.map((r, i) => (account(plans[0], accounts[i]).kind === 'call' ? linkFormula(r) : '')),
    );
    grid.colorWhen(FIRST_ROW, VERDICT_COL, n, 1, COLORS);
    grid.setNumberFormat(FIRST_ROW, colOf('followers'), n, 1, '#,##0');
    const lastCol = outcomeColOf(plans.length, OUTCOME_WIDTH) - 1;
    if (grid.maxColumns() < lastCol) grid.insertColumnsAfter(grid.maxColumns(), lastCol - grid.maxColumns());
    const v: Vet = {
      sheet,
      rows: n,
      cap,
      credits: 0,
      at: 0,
      jobId: '',
      outcomeWidth: OUTCOME_WIDTH,
      checks: plans.map((p) => ({ fn: p.endpoint.fn, endpoint: p.endpoint.id, params: p.params, fields: p.fields })),
    };
    const job = checkJob(ctx, v);
    v.jobId = job.id;
    jobStore(ctx.props).save(job);
    saveVet(ctx, v);
    return { job, sheet, checks: v.checks.length };
  });
}

/**
 * Moves each row's messages (a private, missing or bad account) to its note, said once with what
 * they cost: a check failed on a row when its outcome (the working columns) says so, and its message
 * is then in its first field's cell; the check's cells and the working columns are emptied.
 */
function writeNotes(ctx: Context, v: Vet): void {
  const grid = ctx.book.sheet(v.sheet);
  if (!grid) return;
  const fields = grid.read(FIRST_ROW, FIELDS_FROM, v.rows, FIELDS_TO - FIELDS_FROM + 1);
  const width = widthOf(v);
  const work = grid.read(FIRST_ROW, outcomeColOf(0), v.rows, v.checks.length * width);
  fields.forEach((cells, i) => {
    const failed: FailedCheck[] = [];
    const cleared = cells.slice() as SheetValue[];
    v.checks.forEach((c, k) => {
      const f = readOutcome(work[i].slice(k * width, (k + 1) * width));
      if (!f) return;
      const at = colOf(c.fields[0]) - FIELDS_FROM;
      failed.push({ message: cells[at], charged: f.charged, lost: f.lost, first: f.first });
      c.fields.forEach((_, j) => (cleared[at + j] = ''));
    });
    const note = noteOf(failed, (t) => ctx.book.zoneOffset(t));
    if (!note) return;
    grid.write(FIRST_ROW + i, FIELDS_FROM, [cleared]);
    grid.write(FIRST_ROW + i, NOTE_COL, [[note]]);
  });
  grid.write(
    FIRST_ROW,
    outcomeColOf(0),
    work.map((r) => r.map(() => '')),
  );
}

/**
 * After a step of the document's bulk run (the sidebar's, or the hourly trigger's): when it was a
 * vet's check and it is done, the next check starts (its job is returned) or, after the last, the
 * notes are written and the job says what the vet cost in all.
 */
function afterVetStep(ctx: Context, job: BulkJob): BulkJob {
  if (job.status !== 'done') return job;
  return ctx.lock.withLock(() => {
    const v = loadVet(ctx);
    if (!v || v.jobId !== job.id) return job;
    v.credits = job.credits;
    if (v.at + 1 < v.checks.length) {
      v.at++;
      const next = checkJob(ctx, v);
      v.jobId = next.id;
      jobStore(ctx.props).save(next);
      saveVet(ctx, v);
      return next;
    }
    writeNotes(ctx, v);
    ctx.props.delete(PROP.vet);
    const fns = v.checks.map((c) => c.fn).join(', ');
    job.message =
      `Vetted ${counted(v.rows, 'account')} with ${fns}: ${counted(v.credits, 'credit')} in all. ` +
      `The scorecard is the sheet \u201c${v.sheet}\u201d.`;
    jobStore(ctx.props).save(job);
    return job;
  });
}

/**
 * Vet as an owner of runs (owners.ts): its next check follows a step of the sidebar's run, from the
 * sidebar or the hourly trigger.
 */
export const VET_OWNER: RunOwner = { afterSidebarStep: afterVetStep };
