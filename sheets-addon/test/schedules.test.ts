/**
 * Schedules and bulk runs in-process, on the context's interfaces in memory (context-fakes.ts): no build, no
 * stand-in. A weekly history schedule, a capped schedule that rotates, and a run killed mid-way
 * and resumed by the next hourly trigger. The stand-in suites (test/sheets/schedules.test.ts) keep
 * what only the platform shows (the built bundle, triggers, execution limits).
 */
import { jobStore } from '../src/bulk/job';
import { OWNERS } from '../src/owners';
import { background } from '../src/schedule/background';
import { loadSchedules, saveSchedule, scheduleViews } from '../src/schedule/schedules';
import type { World } from './context-fakes';
import { world } from './context-fakes';

const HOUR = 3600000;
const DAY = 24 * HOUR;
const accounts = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `acct_${from + i}`);

/** Moves the clock past the schedule's next run and runs the hourly trigger's work there (a new execution). */
function hourlyAfterNextRun(w: World, opts?: Parameters<World['execution']>[0]) {
  const [s] = loadSchedules(w.execution().props);
  w.clock.t = s.nextAt + 10 * 60000;
  background(w.execution(opts), OWNERS);
}

const history = (w: World, name = 'IG Data history IGPROFILE') =>
  w.sheet(name).read(2, 1, w.sheet(name).lastRow() - 1, 3);
const lastRun = (w: World) => scheduleViews(w.execution())[0].run!;

test('a weekly history schedule appends one dated snapshot per target each week, each billed once', () => {
  const w = world();
  w.column(['acct_1', 'acct_2', '@ACCT_1', 'acct_3']); // a repeat, written another way
  saveSchedule(
    w.execution(),
    { endpoint: 'profile', fields: 'followers', output: 'history' },
    { every: 'weekly', weekday: 1, hour: 7 },
    100,
  );
  expect(w.sheet('IG Data history IGPROFILE').read(1, 1, 1, 3)).toEqual([['date', 'handle', 'followers']]);
  hourlyAfterNextRun(w);
  hourlyAfterNextRun(w);
  const rows = history(w);
  expect(rows.map((r) => r[1])).toEqual(['acct_1', 'acct_2', 'acct_3', 'acct_1', 'acct_2', 'acct_3']);
  const [first, second] = [(rows[0][0] as Date).getTime(), (rows[3][0] as Date).getTime()];
  expect(second - first).toBe(7 * DAY);
  expect(w.svc.credits).toBe(6);
  expect(lastRun(w)).toMatchObject({ kind: 'history', status: 'done', credits: 3, written: 3, duplicates: 1 });
});

test('a capped schedule rotates: 60 rows at a cap of 25 are all refreshed in 3 runs', () => {
  const w = world();
  w.column(accounts(60));
  saveSchedule(
    w.execution(),
    { endpoint: 'profile', fields: 'followers', output: 'beside' },
    { every: 'daily', hour: 7 },
    25,
  );
  const asked = () => new Set(w.svc.sent.map((p) => /handle=acct_(\d+)/.exec(p)![1]).map(Number));
  const rowsAsked: number[][] = [];
  for (let run = 0; run < 3; run++) {
    w.svc.sent.length = 0;
    hourlyAfterNextRun(w);
    rowsAsked.push([...asked()].sort((a, b) => a - b));
  }
  const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  expect(rowsAsked).toEqual([range(0, 24), range(25, 49), [...range(0, 14), ...range(50, 59)]]);
  expect(lastRun(w).message).toBe(
    "Stopped at this run's cap of 25 credits (25 spent): 35 rows were not looked up (rows 17-51); the next run starts with them, so every row is refreshed in turn.",
  );
  // Every row's followers are written beside it.
  expect(
    w
      .sheet('Sheet1')
      .read(2, 2, 60, 1)
      .every(([v]) => typeof v === 'number'),
  ).toBe(true);
  expect(w.svc.credits).toBe(75);
});

describe('a run killed mid-way resumes at the next hour without a duplicate row or a second charge', () => {
  // 120 targets = 3 units of 50; the history sheet's writes: header (at save), then one per unit.
  for (const killAt of [
    { call: 'grid.write', nth: 2 },
    { call: 'props.set', nth: 4 },
  ] as const) {
    test(`killed at ${killAt.call} #${killAt.nth}`, () => {
      const w = world();
      w.column(accounts(120));
      saveSchedule(
        w.execution(),
        { endpoint: 'profile', fields: 'followers', output: 'history' },
        { every: 'daily', hour: 7 },
        1000,
      );
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
      hourlyAfterNextRun(w, { killAt });
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ message: 'Exceeded maximum execution time' }));
      warn.mockRestore();
      const job = jobStore(w.execution().props).load(loadSchedules(w.execution().props)[0].id)!;
      expect(job.status).toBe('running'); // died mid-way
      expect(w.svc.credits).toBeLessThan(120);
      w.clock.advance(HOUR);
      background(w.execution(), OWNERS); // the next hourly trigger
      const rows = history(w);
      expect(rows.map((r) => r[1])).toEqual(accounts(120));
      expect(w.svc.credits).toBe(120);
      expect(lastRun(w)).toMatchObject({ status: 'done', credits: 120, written: 120 });
    });
  }
});

test('two history schedules of one lookup share its history sheet; due in the same trigger, each appends below the other, nothing is written over', () => {
  const w = world();
  w.column(['acct_1', 'acct_2']);
  saveSchedule(
    w.execution(),
    { endpoint: 'profile', fields: 'followers', output: 'history' },
    { every: 'daily', hour: 7 },
    100,
  );
  w.sheet('Sheet1').write(2, 3, [['acct_3'], ['acct_4']]);
  w.selection = { sheet: 'Sheet1', row: 2, col: 3, rows: 2, cols: 1, a1: 'C2:C3' };
  saveSchedule(
    w.execution(),
    { endpoint: 'profile', fields: 'followers', output: 'history' },
    { every: 'daily', hour: 7 },
    100,
  );
  hourlyAfterNextRun(w);
  expect(
    history(w)
      .map((r) => r[1])
      .sort(),
  ).toEqual(['acct_1', 'acct_2', 'acct_3', 'acct_4']);
  expect(w.svc.credits).toBe(4);
});
