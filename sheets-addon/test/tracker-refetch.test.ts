/**
 * When a tracker's answers are fetched again (issue 21: the rule in sheets-addon/README.md), in-process
 * (context-fakes.ts): a first weekly run after creation, a Run now within half a period reusing the
 * answers, one after it fetching again.
 */
import { OWNERS } from '../src/owners';
import { background } from '../src/schedule/background';
import { runNow } from '../src/schedule/start';
import { stepScheduled } from '../src/schedule/step';
import { loadSchedules } from '../src/schedule/schedules';

import type { World } from './context-fakes';
import { world } from './context-fakes';
import { accounts, track, view, weekly } from './tracker-kit';

describe("when a tracker's answers are fetched again (issue 21: the rule in sheets-addon/README.md)", () => {
  const DAY = 24 * 3600000;
  const credits = (w: World) => w.svc.credits;

  test('created on a Saturday, a weekly Monday tracker does not run two days later: its next run is the Monday after, and fetches every account', () => {
    const w = world(Date.parse('2026-11-28T10:00:00Z')); // Saturday
    w.column(accounts(4));
    const t = track(w, { fields: 'followers', ...weekly, cap: 10 });
    expect(credits(w)).toBe(4);
    const first = w.clock.t;
    w.clock.t = Date.parse('2026-11-30T07:10:00Z'); // Monday, two days later
    background(w.execution(), OWNERS);
    expect(credits(w)).toBe(4);
    expect(Math.min(...loadSchedules(w.execution().props).map((s) => s.nextAt))).toBe(
      Date.parse('2026-12-07T07:00:00Z'),
    );
    expect(view(w, t.view).lines.every((l) => (l[1] as Date).getTime() === first)).toBe(true);
    w.clock.t = Date.parse('2026-12-07T07:10:00Z');
    background(w.execution(), OWNERS);
    expect(credits(w)).toBe(8);
    const v = view(w, t.view);
    expect(v.lines.every((l) => (l[1] as Date).getTime() === Date.parse('2026-12-07T07:10:00Z'))).toBe(true);
    for (let r = 1; r <= 4; r++) expect(v.trend(r, 'followers')).toHaveLength(2);
  });

  /** Run now of the tracker's schedule (Schedules, in the sidebar), stepped to its end. */
  function runNowToEnd(w: World, scheduleId: string) {
    let job = runNow(w.execution(), scheduleId);
    for (let i = 0; i < 20 && job.status === 'running'; i++)
      job = stepScheduled(w.execution(), OWNERS, scheduleId, job.id);
  }

  test('a run two days after the first one (Run now) reuses its answers: it bills nothing, and the view says they were fetched two days ago', () => {
    const w = world(Date.parse('2026-11-28T10:00:00Z'));
    w.column(accounts(4));
    const t = track(w, { fields: 'followers', ...weekly, cap: 10 });
    const first = w.clock.t;
    w.clock.advance(2 * DAY);
    runNowToEnd(w, t.parts[0].scheduleId);
    expect(credits(w)).toBe(4);
    const h = w.sheet(t.parts[0].history);
    // Two snapshots per account, each row saying when its answer was fetched.
    const rows = h.read(2, 1, h.lastRow() - 1, 5);
    expect(rows.map((r) => (r[0] as Date).getTime())).toEqual([...Array(4).fill(first), ...Array(4).fill(w.clock.t)]);
    expect(rows.every((r) => (r[4] as Date).getTime() === first)).toBe(true);
    expect(view(w, t.view).lines.every((l) => (l[1] as Date).getTime() === first)).toBe(true);
  });

  test('a run more than half a period (3.5 days) after the first one fetches every account again, and the view says so', () => {
    const w = world(Date.parse('2026-11-28T10:00:00Z'));
    w.column(accounts(4));
    const t = track(w, { fields: 'followers', ...weekly, cap: 10 });
    w.clock.advance(3.5 * DAY + 60000);
    runNowToEnd(w, t.parts[0].scheduleId);
    expect(credits(w)).toBe(8);
    expect(view(w, t.view).lines.every((l) => (l[1] as Date).getTime() === w.clock.t)).toBe(true);
  });
});
