/**
 * The benchmark report from its history sheets (pure, benchmark/report.ts) and its leader rule as the preview
 * evaluates it (scripts/sheets-preview/scorecard.js formulaHolds): the edges a whole run over the sandbox does not
 * reach. A history is what a schedule's run writes: date, target, the fields, `_fetched_at`, `_error`.
 */
import { MEASURES } from '../src/benchmark/measures';
import { benchmarkReport } from '../src/benchmark/report';
import type { TrackedHistory } from '../src/tracker/view';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { formulaHolds } = require('../../scripts/sheets-preview/scorecard.js') as {
  formulaHolds: (
    formula: string,
    g: { row: number; col: number },
    row: number,
    col: number,
    cell: (r: number, c: number) => unknown,
  ) => boolean | null;
};

const E = 'insights/profile/engagement';
const S = 'insights/profile/stats';
const B = 'insights/profile/best-time';
const measure = (id: string) => MEASURES.find((m) => m.id === id)!;
const day = (d: number) => new Date(Date.UTC(2026, 11, d, 7));

/** A history of `fields` from rows [date, target, ...values, fetched, error]. */
const history = (fields: string[], rows: unknown[][]): TrackedHistory => ({
  name: 'h',
  fields: [...fields, '_fetched_at', '_error'],
  values: [['date', 'handle', ...fields, '_fetched_at', '_error'], ...rows],
});

test('growth: the change between the last two answers fetched; a run that reused an answer is no new point', () => {
  const h = history(
    ['followers'],
    [
      [day(1), 'a', 100, day(1), ''],
      [day(8), 'a', 110, day(8), ''],
      [day(8), 'a', 110, day(8), ''], // "Run now" an hour later: the same answer again
      [day(1), 'b', 200, day(1), ''],
      [day(8), 'b', 150, day(8), ''], // a fall: negative growth
      [day(1), 'c', 300, day(1), ''], // one answer: no growth yet
    ],
  );
  const r = benchmarkReport(['a', 'b', 'c'], undefined, new Map([[E, h]]), [measure('followers'), measure('growth')]);
  expect(r.rows[1]).toEqual(['Followers', 110, 150, 300]);
  expect(r.rows[2]).toEqual(['Follower growth since the previous run', 0.1, -0.25, '']);
});

test('ours first (the first account when ours is no longer in the column); a failed last lookup: blank values and its sentence in note', () => {
  const h = history(
    ['followers', 'engagement_rate_pct'],
    [
      [day(1), 'a', 100, 2.5, day(1), ''],
      [day(1), 'b', 'b is private: no public data. (Charged 1 credit.)', '', '', 'not_found'],
    ],
  );
  const ms = [measure('followers'), measure('engagement')];
  const r = benchmarkReport(['a', 'b'], 'b', new Map([[E, h]]), ms);
  expect(r.accounts).toEqual(['b', 'a']);
  expect(r.rows[0]).toEqual(['measure', 'b (ours)', 'a']);
  expect(r.rows[1]).toEqual(['Followers', '', 100]);
  expect(r.rows[3]).toEqual(['fetched', day(1), day(1)]); // a failed lookup's: when its run looked it up
  expect(r.rows[4]).toEqual(['note', 'b is private: no public data. (Charged 1 credit.)', '']);
  expect(benchmarkReport(['a', 'b'], 'gone', new Map([[E, h]]), ms).rows[0]).toEqual(['measure', 'a (ours)', 'b']);
});

test('days between posts: 0 (fewer than 2 posts) is blank, never a leader; best time: the first day and hour, blank when none', () => {
  const s = history(
    ['avg_days_between_posts'],
    [
      [day(1), 'a', 0, day(1), ''],
      [day(1), 'b', 3.5, day(1), ''],
    ],
  );
  const b = history(
    ['best_days', 'best_hours'],
    [
      [day(1), 'a', 'Tuesday, Friday', '20, 9', day(1), ''],
      [day(1), 'b', '', '', day(1), ''],
    ],
  );
  const r = benchmarkReport(
    ['a', 'b'],
    undefined,
    new Map([
      [S, s],
      [B, b],
    ]),
    [measure('gap'), measure('best_time')],
  );
  expect(r.rows[1]).toEqual(['Days between posts', '', 3.5]);
  expect(r.rows[2]).toEqual(['Best time to post', 'Tuesday 20:00', '']);
});

test("the leader rule: every cell equal to the row's largest (smallest) number leads, ties included; text and blanks never", () => {
  const grid: unknown[][] = [
    ['measure', 'a', 'b', 'c', 'd'],
    ['Followers', 5, 9, 9, ''],
    ['Days between posts', 4, '', 2.5, 'x'],
  ];
  const cell = (r: number, c: number) => grid[r - 1]?.[c - 1];
  const leads = (row: number, formula: string) =>
    [2, 3, 4, 5].filter((c) => formulaHolds(formula, { row, col: 2 }, row, c, cell)).map((c) => grid[0][c - 1]);
  expect(leads(2, '=AND(ISNUMBER(B2),B2=MAX($B2:$E2))')).toEqual(['b', 'c']);
  expect(leads(3, '=AND(ISNUMBER(B3),B3=MIN($B3:$E3))')).toEqual(['c']);
});
