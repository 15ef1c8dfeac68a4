/**
 * "Track these accounts" in-process (context-fakes.ts: no build, no stand-in): one call sets up the
 * history schedule, runs it once, and builds the tracker view; three weekly runs give each account
 * its latest value, the change since last week and a trend of three points, at credits = distinct
 * accounts per run. The list can change: added accounts join, removed ones stop, a renamed one
 * (same id) keeps its line, a deleted one says why once.
 */

import { deleteSchedule, loadSchedules } from '../src/schedule/schedules';
import { createTracker, deleteTracker, loadTrackers, previewTracker } from '../src/tracker/trackers';

import { world } from './context-fakes';
import { accounts, nextWeek, track, view, weekly } from './tracker-kit';

test('from a column of 40 accounts, one confirmation gives a tracker; after three weekly runs each line has the latest value, the change and a trend of three points', () => {
  const w = world();
  w.column(accounts(40));
  const preview = previewTracker(w.execution(), { fields: 'followers', ...weekly, cap: 100 });
  expect(preview).toMatchObject({
    accounts: 40,
    creditsEach: 1,
    perRun: 40,
    perMonth: 174,
    runsForAll: 1,
    firstRun: 'now',
    functions: ['IGPROFILE'],
  });
  const t = track(w, { fields: 'followers', ...weekly, cap: 100, name: 'Creators' });
  expect(w.svc.credits).toBe(40);
  nextWeek(w);
  expect(w.svc.credits).toBe(80);
  nextWeek(w);
  expect(w.svc.credits).toBe(120); // credits = distinct accounts per run
  const v = view(w, t.view);
  expect(v.header).toEqual([
    'account',
    'fetched',
    'followers',
    'followers change',
    'followers change %',
    'followers trend',
    'note',
  ]);
  expect(v.lines).toHaveLength(40);
  for (let r = 0; r < 40; r++) {
    const [account, fetched, latest, change, pct] = v.lines[r];
    const points = v.trend(r + 1, 'followers')!;
    expect(points).toHaveLength(3);
    expect(latest).toBe(points[2]);
    expect(change).toBe(points[2] - points[1]);
    expect(pct).toBeCloseTo((points[2] - points[1]) / points[1]);
    expect(fetched).toBeInstanceOf(Date);
    expect(String(account)).toMatch(/^acct_\d+$/);
  }
  // Sorted by the field, largest first; the change in % formatted as one.
  const latest = v.lines.map((l) => l[2] as number);
  expect([...latest].sort((a, b) => b - a)).toEqual(latest);
  expect(v.formats.get('2,5')).toBe('0.0%');
  expect(JSON.parse(w.props.get('IGDATA_USAGE')!)).toEqual(expect.objectContaining({}));
  expect(
    Object.values(JSON.parse(w.props.get('IGDATA_USAGE')!) as Record<string, Record<string, number>>).reduce(
      (n, day) => n + (day['Tracker Creators'] ?? 0),
      0,
    ),
  ).toBe(120);
});

test('the default fields (followers, posts, engagement rate) cost 3 credits an account: a profile and an engagement insight', () => {
  const w = world();
  w.column(accounts(5));
  expect(previewTracker(w.execution(), { ...weekly, cap: 100 })).toMatchObject({
    fields: ['followers', 'posts', 'engagement_rate_pct'],
    creditsEach: 3,
    perRun: 15,
    functions: ['IGPROFILE', 'IGENGAGEMENT'],
  });
});

test('the list changes: an added account joins the next run, a removed one stops being fetched and keeps its history, a renamed one keeps its line, a deleted one says why once', () => {
  const w = world();
  w.column(['acct_1', 'acct_2', 'acct_3']);
  const t = track(w, { fields: 'followers,posts', ...weekly, cap: 100 });
  const src = w.sheet('Sheet1');
  // acct_2 renames to acct_22 (same id); acct_3 is removed; acct_4 is added; gone_1 (no public data) is added.
  w.svc.ids = { acct_22: 'id_acct_2' };
  src.write(3, 1, [['acct_22'], ['acct_4'], ['gone_1']]);
  w.svc.sent.length = 0;
  nextWeek(w);
  expect(w.svc.sent.map((p) => /handle=(\w+)/.exec(p)![1]).sort()).toEqual(['acct_1', 'acct_22', 'acct_4', 'gone_1']);
  const v = view(w, t.view);
  const line = (a: string) => v.lines.find((l) => l[0] === a)!;
  expect(v.lines.map((l) => l[0]).sort()).toEqual(['acct_1', 'acct_22', 'acct_4', 'gone_1']);
  const at = v.lines.indexOf(line('acct_22'));
  expect(v.trend(at + 1, 'followers')).toHaveLength(2); // its rows under the old name count
  expect(line('acct_22')[3]).not.toBe('');
  expect(line('acct_4')[3]).toBe(''); // no previous snapshot yet
  expect(line('gone_1').at(-1)).toMatch(/no public data/i);
  // A line with no value says why in view too: in its first value cell; the others blank.
  expect(line('gone_1')[2]).toBe(line('gone_1').at(-1));
  expect(
    line('gone_1')
      .slice(3, -1)
      .every((c) => c === ''),
  ).toBe(true);
  // acct_3's history stays in the history sheet.
  const history = w.sheet(t.parts[0].history);
  expect(history.read(2, 2, history.lastRow() - 1, 1).flat()).toContain('acct_3');
  // Deleting the tracker deletes its schedule; the history and view sheets stay.
  deleteTracker(w.execution(), t.id);
  expect(loadSchedules(w.execution().props)).toEqual([]);
  expect(loadTrackers(w.execution())).toEqual([]);
  expect(w.sheets.has(t.parts[0].history) && w.sheets.has(t.view)).toBe(true);
});

test('bad input names the field and what to choose; nothing is saved', () => {
  const w = world();
  w.column(accounts(3));
  expect(() => createTracker(w.execution(), { fields: 'followers,likes', ...weekly, cap: 10 })).toThrow(
    'Fields: "likes" is not a field of a profile or its insights. Choose from: ',
  );
  expect(() => createTracker(w.execution(), { fields: 'followers,engagement_rate_pct', ...weekly, cap: 2 })).toThrow(
    'Credit cap per run: at least 3, what one account costs with these fields (got 2).',
  );
  expect(() => createTracker(w.execution(), { fields: 'followers', ...weekly, cap: 10, sortBy: 'posts' })).toThrow(
    'Sort by: one of the chosen fields (followers); got "posts".',
  );
  expect(w.props.size).toBe(0);
});

describe('review findings, each a test that failed before its fix', () => {
  test('two trackers of the same fields keep their own history sheets: neither writes over the other nor takes its rows for its snapshots', () => {
    const w = world();
    w.column(['acct_1', 'acct_2']);
    const a = track(w, { fields: 'followers', ...weekly, cap: 10, name: 'A' });
    const b = track(w, { fields: 'followers', ...weekly, cap: 10, name: 'B' });
    expect(a.parts[0].history).not.toBe(b.parts[0].history);
    nextWeek(w); // both due in the same trigger
    for (const t of [a, b]) {
      const h = w.sheet(t.parts[0].history);
      expect(h.read(2, 2, h.lastRow() - 1, 1).flat()).toEqual(['acct_1', 'acct_2', 'acct_1', 'acct_2']);
    }
    expect(w.svc.credits).toBe(4); // B reuses what A fetched minutes before: each account paid once a week
  });

  test('a capped tracker whose column grows every week still reaches every account in turn', () => {
    const w = world();
    w.column(accounts(12));
    track(w, { fields: 'followers', ...weekly, cap: 5 });
    const asked = new Set<string>();
    for (let week = 0; week < 4; week++) {
      w.sheet('Sheet1').write(14 + week, 1, [[`acct_${100 + week}`]]); // one more account a week
      w.svc.sent.length = 0;
      nextWeek(w);
      for (const p of w.svc.sent) asked.add(/handle=(\w+)/.exec(p)![1]);
    }
    expect([...asked].sort()).toEqual(expect.arrayContaining(accounts(12).slice(5)));
  });

  test('a tracker of many fields (wider than 26 columns) is made whole; nothing is saved when its sheet cannot be written', () => {
    const w = world();
    w.column(['acct_1']);
    const t = track(w, {
      fields: 'followers,following,posts,engagement_rate_pct,avg_likes,avg_comments,avg_engagement',
      ...weekly,
      cap: 10,
    });
    expect(view(w, t.view).header).toHaveLength(2 + 7 * 4 + 1);
  });

  test("a tracker's schedule is deleted with its tracker, not alone; a text first field is not taken for a message", () => {
    const w = world();
    w.column(['acct_1', 'gone_1']);
    const t = track(w, { fields: 'full_name,followers', ...weekly, cap: 10 });
    const [s] = loadSchedules(w.execution().props);
    expect(() => deleteSchedule(w.execution(), s.id)).toThrow(
      `This schedule is part of the tracker "${t.name}": delete the tracker instead. Nothing was deleted.`,
    );
    const v = view(w, t.view);
    const note = v.header.indexOf('note');
    expect(v.lines.find((l) => l[0] === 'acct_1')![note]).toBe('');
    expect(v.lines.find((l) => l[0] === 'gone_1')![note]).toMatch(/no public data/);
  });
});

describe('a tracker keeps its identity (issue 22)', () => {
  test('default names stay unique after a delete: no "Tracker N" collision, and none named like the sheets a deleted one left', () => {
    const w = world();
    w.column(accounts(2));
    const one = track(w, { fields: 'followers', ...weekly, cap: 10 });
    const two = track(w, { fields: 'followers', ...weekly, cap: 10 });
    expect([one.name, two.name]).toEqual(['Tracker 1', 'Tracker 2']);
    deleteTracker(w.execution(), one.id);
    // Before: "Tracker 2" again (trackers + 1), refused as taken.
    const three = track(w, { fields: 'followers', ...weekly, cap: 10 });
    expect(three.name).toBe('Tracker 3');
    expect(three.view).toBe('IG Data tracker 3');
    expect(loadTrackers(w.execution()).map((t) => t.name)).toEqual(['Tracker 2', 'Tracker 3']);
  });

  test('a new tracker named like a deleted one starts its own history: the old snapshots never enter its trends', () => {
    const w = world();
    w.column(accounts(3));
    const old = track(w, { fields: 'followers', ...weekly, cap: 10, name: 'Creators' });
    nextWeek(w);
    nextWeek(w);
    expect(view(w, old.view).trend(1, 'followers')).toHaveLength(3);
    deleteTracker(w.execution(), old.id);
    const fresh = track(w, { fields: 'followers', ...weekly, cap: 10, name: 'Creators' });
    expect(fresh.parts[0].history).not.toBe(old.parts[0].history);
    const v = view(w, fresh.view);
    for (let r = 1; r <= 3; r++) expect(v.trend(r, 'followers')).toHaveLength(1);
    expect(v.lines.every((l) => l[3] === '')).toBe(true); // no "change since" taken from the deleted tracker's rows
    // Its rows stay where they were, untouched.
    const h = w.sheet(old.parts[0].history);
    expect(h.lastRow()).toBe(1 + 3 * 3);
  });

  test('the fetched column shows when each answer was fetched, not when the run started', () => {
    const w = world(Date.parse('2026-11-23T06:00:00Z'));
    w.column(['acct_1', 'acct_2']);
    const a = track(w, { fields: 'followers', ...weekly, cap: 10, name: 'A' });
    const fetchedByA = w.clock.t;
    w.clock.advance(24 * 3600000);
    // A second tracker of the same accounts a day later reuses A's answers (free).
    const before = w.svc.credits;
    const b = track(w, { fields: 'followers', ...weekly, cap: 10, name: 'B' });
    expect(w.svc.credits).toBe(before);
    for (const line of view(w, b.view).lines) expect((line[1] as Date).getTime()).toBe(fetchedByA);
    expect(view(w, a.view).lines[0][1]).toEqual(new Date(fetchedByA));
  });
});
