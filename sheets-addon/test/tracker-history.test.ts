/**
 * A tracker's history: a failed lookup's row carries its error code (issue 25) and the view decides
 * by it; trackers saved before schedules had owners still own theirs. In-process (context-fakes.ts).
 */

import { deleteSchedule, loadSchedules } from '../src/schedule/schedules';
import { deleteTracker } from '../src/tracker/trackers';
import { trackerView } from '../src/tracker/view';
import type { World } from './context-fakes';
import { world } from './context-fakes';
import { accounts, nextWeek, track, view, weekly } from './tracker-kit';

describe('trackers saved before schedules had owners', () => {
  /** The schedules property as it was saved then: a tracker's schedule carried `tracker: <id>` and no owner. */
  function saveOldShape(w: World) {
    const props = w.execution().props;
    const old = loadSchedules(props).map(({ owner, ...s }) => ({ ...s, tracker: owner!.id }));
    props.set('IGDATA_SCHEDULES', JSON.stringify(old));
  }

  test('still belong to their tracker: its view follows their runs, and they are deleted with it, not alone', () => {
    const w = world();
    w.column(accounts(3));
    const t = track(w, { fields: 'followers', ...weekly, cap: 10 });
    saveOldShape(w);
    const [s] = loadSchedules(w.execution().props);
    expect(s.owner).toEqual({ kind: 'tracker', id: t.id });
    expect(() => deleteSchedule(w.execution(), s.id)).toThrow(
      'This schedule is part of a tracker: delete the tracker instead. Nothing was deleted.',
    );
    nextWeek(w);
    // The hourly run's end rebuilt the view: a second point on every line.
    const v = view(w, t.view);
    for (let r = 1; r <= 3; r++) expect(v.trend(r, 'followers')).toHaveLength(2);
    deleteTracker(w.execution(), t.id);
    expect(loadSchedules(w.execution().props)).toEqual([]);
  });
});

describe("a failed lookup's history row carries its error code (issue 25)", () => {
  test('the code is in its own column, blank for an answer; the view takes its note from the row the code marks', () => {
    const w = world();
    w.column(['acct_1', 'gone_1', '']);
    const t = track(w, { fields: 'followers', ...weekly, cap: 10 });
    const h = w.sheet(t.parts[0].history);
    const [header, ...rows] = h.read(1, 1, h.lastRow(), h.maxColumns()).map((r) => r.slice(0, 6));
    expect(header).toEqual(['date', 'handle', 'followers', 'id', '_fetched_at', '_error']);
    const row = (target: string) => rows.find((r) => r[1] === target)!;
    expect(row('acct_1')[5]).toBe('');
    expect(row('gone_1')[5]).toBe('not_found');
    expect(row('gone_1')[2]).toMatch(/no public data/);
    // Not a field to chart: the view has no column for it.
    expect(view(w, t.view).header.some((c) => c.startsWith('_error'))).toBe(false);
  });

  const history = (fields: string[], rows: unknown[][]) => [
    { name: 'IG Data history IGPROFILE', fields, values: [['date', 'handle', ...fields], ...rows] },
  ];
  const at = new Date('2026-11-23T07:00:00Z');

  test('the view decides by the code, not by the wording of the sentence', () => {
    const v = trackerView(
      ['a', 'b'],
      history(
        ['followers', '_fetched_at', '_error'],
        [
          [at, 'a', 'Worded some other way, without what was charged', '', 'not_found'],
          [at, 'b', 120, at, ''],
        ],
      ),
      'followers',
    );
    const note = (account: string) => v.rows.find((r) => r[0] === account)!.at(-1);
    expect(note('a')).toBe('Worded some other way, without what was charged');
    expect(note('b')).toBe('');
  });

  test('a history sheet made before the code column tells a failure by its blank _fetched_at', () => {
    const v = trackerView(
      ['a', 'b', 'c'],
      history(
        ['full_name', 'followers', '_fetched_at'],
        [
          [at, 'a', '@a has no public data: private, deleted or nonexistent. (Charged 1 credit.)', '', ''],
          [at, 'b', 'A name (Charged 1 credit.)', '', at],
          [at, 'c', 'Cee', 7, at],
        ],
      ),
      'followers',
    );
    const note = (account: string) => v.rows.find((r) => r[0] === account)!.at(-1);
    expect(note('a')).toMatch(/no public data/);
    expect(note('b')).toBe('');
    expect(note('c')).toBe('');
  });
});
