/**
 * Runs never trample each other (issue 22), in-process over the in-memory context (context-fakes.ts): a new
 * bulk run never replaces one still going or paused unless the user confirmed it; a list step holds
 * the document lock for its step's budget, not minutes; a formula recalculated while a bulk step
 * fetches the same accounts waits for that step's answers instead of paying for them again.
 */
import type { Context } from '../src/context/context';
import { answersFor } from '../src/context/answers';
import { settingRule } from '../src/context/reuse';
import { resume, start } from '../src/bulk/control';
import { step } from '../src/bulk/runs';
import { jobStore } from '../src/bulk/job';
import { background } from '../src/schedule/background';
import type { RunOwners } from '../src/schedule/owner';
import { evaluateFormula } from '../src/engine/formula';
import type { World } from './context-fakes';
import { world } from './context-fakes';

const T0 = Date.parse('2026-11-25T10:00:00Z');
const accounts = (n: number) => Array.from({ length: n }, (_, i) => `acct_${i}`);
const profile = { endpoint: 'profile', fields: 'followers', output: 'beside' as const };

/** Each fetchAll takes `ms` of the world's clock (a step's budget then ends after its first unit). */
function slowFetch(w: World, ms: number): void {
  const fetchAll = w.svc.io.fetchAll;
  w.svc.io.fetchAll = (rs) => {
    w.clock.advance(ms);
    return fetchAll(rs);
  };
}

/** Steps the sidebar's job to its end (or `max` steps). */
function stepAll(w: World, id: string, max = 100) {
  let job = step(w.execution(), id);
  for (let i = 1; i < max && job.status === 'running'; i++) job = step(w.execution(), id);
  return job;
}

describe('a second bulk run while one is unfinished', () => {
  test('while one is paused: refused with what it would leave undone, the first kept and resumable; replaced only when confirmed', () => {
    const w = world(T0);
    w.column(accounts(60));
    slowFetch(w, 1000);
    const first = start(w.execution(), profile);
    step(w.execution(), first.id, 0); // one unit of 50 rows
    const paused = jobStore(w.execution().props).load()!;
    paused.status = 'paused'; // e.g. out of credits
    paused.message = 'Out of credits: 0 left. Top up to continue. (Not charged.)';
    jobStore(w.execution().props).save(paused);
    // A second run over another column.
    w.sheet('Sheet2').write(1, 1, [['handle'], ['nasa'], ['nike']]);
    w.selection = { sheet: 'Sheet2', row: 2, col: 1, rows: 2, cols: 1, a1: 'A2:A3' };
    expect(() => start(w.execution(), profile)).toThrow(
      'Another bulk run is paused at 50 of 60 rows (IGPROFILE, Sheet1): resume or cancel it first, or confirm to start this one in its place (its rows 52-61 would not be looked up). Nothing was started. (Not charged.)',
    );
    expect(w.sheet('Sheet2').read(1, 2, 1, 1)[0][0]).toBe(''); // no header written either
    expect(jobStore(w.execution().props).load()).toMatchObject({ id: first.id, status: 'paused', next: 50 });
    // Resumed, the first run finishes its rows, each billed once.
    resume(w.execution(), first.id);
    expect(stepAll(w, first.id)).toMatchObject({ status: 'done', next: 60, written: 60 });
    expect(w.svc.credits).toBe(60);
    // Then the second starts without a question.
    const second = start(w.execution(), profile);
    expect(stepAll(w, second.id)).toMatchObject({ status: 'done', written: 2 });
  });

  test('while one is still running (the background trigger steps it): refused; with the confirmation it is replaced and its written rows stay', () => {
    const w = world(T0);
    w.column(accounts(60));
    slowFetch(w, 1000);
    const first = start(w.execution(), profile);
    step(w.execution(), first.id, 0);
    w.sheet('Sheet2').write(1, 1, [['handle'], ['nasa']]);
    w.selection = { sheet: 'Sheet2', row: 2, col: 1, rows: 1, cols: 1, a1: 'A2:A2' };
    expect(() => start(w.execution(), profile)).toThrow(/^Another bulk run is still running at 50 of 60 rows/);
    const second = start(w.execution(), profile, true);
    expect(() => step(w.execution(), first.id)).toThrow('This bulk run was replaced by another one.');
    expect(stepAll(w, second.id)).toMatchObject({ status: 'done', written: 1 });
    expect(
      w
        .sheet('Sheet1')
        .read(2, 2, 50, 1)
        .every(([v]) => typeof v === 'number'),
    ).toBe(true);
  });

  test('after one is done or cancelled, a new run starts without a question', () => {
    const w = world(T0);
    w.column(accounts(3));
    const first = start(w.execution(), profile);
    stepAll(w, first.id);
    w.sheet('Sheet2').write(1, 1, [['handle'], ['nasa']]);
    w.selection = { sheet: 'Sheet2', row: 2, col: 1, rows: 1, cols: 1, a1: 'A2:A2' };
    expect(start(w.execution(), profile).status).toBe('running');
  });
});

test('a list step holds the document lock for its step budget (about a page round more), not until the target is read to its end', () => {
  const w = world(T0);
  w.column(['acct_1', 'acct_2']);
  slowFetch(w, 2000);
  const held: number[] = [];
  const locked = (ctx: Context): Context => ({
    ...ctx,
    lock: {
      ...ctx.lock,
      withLock: (fn) => {
        const t = ctx.now();
        try {
          return fn();
        } finally {
          held.push(ctx.now() - t);
        }
      },
    },
  });
  const job = start(locked(w.execution()), {
    endpoint: 'profile/posts',
    fields: 'shortcode',
    output: 'sheet',
    limit: 30,
  });
  let j = job;
  for (let i = 0; i < 20 && j.status === 'running'; i++) j = step(locked(w.execution()), job.id, 3000);
  expect(j).toMatchObject({ status: 'done', items: 60 });
  // 30 posts = 3 pages of 12 for each of 2 accounts: 3 rounds, each paid once (2 credits a page).
  expect(w.svc.credits).toBe(12);
  expect(Math.max(...held)).toBeLessThanOrEqual(3000 + 2000);
  expect(held.filter((ms) => ms > 0).length).toBeGreaterThan(1);
  const out = w.sheet(j.outSheet);
  expect(out.read(2, 1, 60, 2).map((r) => r[1])).toEqual([
    ...Array.from({ length: 30 }, (_, i) => `acct_1${i}`),
    ...Array.from({ length: 30 }, (_, i) => `acct_2${i}`),
  ]);
});

describe('formulas recalculated during a bulk step pay once', () => {
  /**
   * The bulk step holds the document lock; while its batch is out, the formula over the same
   * accounts recalculates in another execution (run here inside the batch's fetchAll), whose claim
   * round cannot get the lock. Run inside the batch, the formula cannot see the batch come back: it
   * started 12 s before (waiting on the lock), so its budget ends (8 s left) before the step's
   * claims would (15 s), as a batch of a second or two comes back long before either.
   */
  function duringBulkStep(
    w: World,
    request: Parameters<typeof start>[1],
    formula: { endpoint: string; args: unknown[] },
  ) {
    let lockedBy: string | null = null;
    const inExecution = (ctx: Context, who: string): Context => ({
      ...ctx,
      lock: {
        withLock: (fn) => {
          lockedBy = who;
          try {
            return fn();
          } finally {
            lockedBy = null;
          }
        },
        tryLock: () => (lockedBy === who ? () => undefined : lockedBy ? null : () => undefined),
      },
    });
    w.svc.io.sleep = (ms) => w.clock.advance(ms);
    const fetchAll = w.svc.io.fetchAll;
    let result: unknown;
    let ran = false;
    w.svc.io.fetchAll = (rs) => {
      if (!ran) {
        ran = true;
        const ctx = inExecution(w.execution(), 'formula');
        result = evaluateFormula(
          formula.endpoint,
          formula.args,
          () => answersFor(ctx, settingRule(ctx.settings), false).deps,
          () => ctx.now() - 12000,
        );
      }
      return fetchAll(rs);
    };
    const job = start(inExecution(w.execution(), 'bulk'), request);
    let j = job;
    for (let i = 0; i < 20 && j.status === 'running'; i++) j = step(inExecution(w.execution(), 'bulk'), job.id);
    return { job: j, result };
  }

  test("a rows run: the formula waits for the step's answers instead of sending the same requests", () => {
    const w = world(T0);
    w.column(accounts(5));
    const range = accounts(5).map((a) => [a]);
    const { job, result } = duringBulkStep(w, profile, { endpoint: 'profile', args: [range, 'followers'] });
    expect(job).toMatchObject({ status: 'done', written: 5 });
    expect(w.svc.credits).toBe(5); // before: 10, the formula sent the 5 lookups again
    expect(JSON.stringify(result)).toMatch(/not reached in time/i); // it waited, free...
    // ...and its recalculation reads the bulk run's answers, free.
    const ctx = w.execution();
    const again = evaluateFormula(
      'profile',
      [range, 'followers'],
      () => answersFor(ctx, settingRule(ctx.settings), false).deps,
      ctx.now,
    ) as unknown[][];
    expect(again.map((r) => typeof r[0])).toEqual(Array(5).fill('number'));
    expect(w.svc.credits).toBe(5);
  });

  test('a list run: the formula reading the same first pages pays nothing more', () => {
    const w = world(T0);
    w.column(['acct_1', 'acct_2']);
    const range = [['acct_1'], ['acct_2']];
    const { job, result } = duringBulkStep(
      w,
      { endpoint: 'profile/posts', fields: 'shortcode', output: 'sheet' },
      { endpoint: 'profile/posts', args: [range, 'shortcode'] },
    );
    expect(JSON.stringify(result)).toMatch(/not reached in time/i);
    expect(job).toMatchObject({ status: 'done' });
    expect(w.svc.credits).toBe(4); // one page each at 2 credits; before: 8
  });
});

describe('the hourly trigger and the owners of runs (schedule/owner.ts)', () => {
  test("each owner's due work runs once a trigger; each background step of the sidebar's run passes through afterSidebarStep, whose job goes on", () => {
    const w = world();
    w.column(accounts(60));
    start(w.execution(), profile);
    const calls: string[] = [];
    const owners: RunOwners = {
      a: { due: () => void calls.push('due a') },
      b: {
        afterSidebarStep: (_, job) => {
          calls.push(`after ${job.status}`);
          return job;
        },
      },
    };
    background(w.execution(), owners);
    expect(calls[0]).toBe('due a');
    expect(calls.filter((c) => c === 'due a')).toHaveLength(1);
    expect(calls.at(-1)).toBe('after done');
    expect(calls.slice(1).every((c) => c.startsWith('after '))).toBe(true);
    expect(jobStore(w.execution().props).load()!.status).toBe('done');
  });
});
