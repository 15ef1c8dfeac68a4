/** The growth view of a history sheet, in-process: latest against previous, and the chart's table. */
import { growth, historyFields } from '../src/engine/growth';

const d1 = new Date('2026-11-16T07:00:00Z');
const d2 = new Date('2026-11-23T07:00:00Z');
const history = [
  ['date', 'handle', 'followers', 'following'],
  [d1, 'nasa', 1000, 5],
  [d1, 'natgeo', 4000, 6],
  [d1, 'locked_acc', '@locked_acc has no public data', ''],
  [d2, 'nasa', 1100, 5],
  [d2, 'natgeo', 3800, 6],
  [d2, 'new_one', 50, 1],
  ['', '', '', ''],
];

test('per account: the latest snapshot, the previous one and the change; largest first', () => {
  const g = growth(history, 'followers');
  expect(g.summary).toEqual([
    ['account', 'latest date', 'latest', 'previous date', 'previous', 'change', 'change %'],
    ['natgeo', d2, 3800, d1, 4000, -200, -0.05],
    ['nasa', d2, 1100, d1, 1000, 100, 0.1],
    ['new_one', d2, 50, '', '', '', ''],
  ]);
  expect(g.snapshots).toBe(5); // the message row is no snapshot
});

test("the chart's table: dates down, accounts across, blank where an account has no snapshot", () => {
  expect(growth(history, 'followers').series).toEqual([
    ['date', 'natgeo', 'nasa', 'new_one'],
    [d1, 4000, 1000, ''],
    [d2, 3800, 1100, 50],
  ]);
  expect(growth(history, 'followers', ['nasa', ' new_one', 'unknown']).series[0]).toEqual(['date', 'nasa', 'new_one']);
});

test('a field the history lacks says which ones it has', () => {
  expect(historyFields(history[0])).toEqual(['followers', 'following']);
  expect(() => growth(history, 'likes')).toThrow(
    'The history has no column "likes": choose one of followers, following.',
  );
  expect(() => growth(history, 'handle')).toThrow(/no column "handle"/);
});
