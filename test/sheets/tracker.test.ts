/**
 * "Track these accounts" (issue 17) with the *built* add-on in the Apps Script stand-in against the
 * sandbox: from a column of 40 accounts, one confirmation in the sidebar's calls gives a tracker;
 * the hourly trigger does the weekly runs (the stand-in's clock moved by rt.advance). Credits are
 * counted at the sandbox; the trends are the SPARKLINE formulas evaluated as the preview does.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { getWorld } from '../../scripts/sandbox/world/build';
import { sandboxedAddon } from './harness';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sparklinePoints } = require('../../scripts/sheets-preview/sparkline.js') as {
  sparklinePoints: (f: string, rowsOf: (s: string) => unknown[][] | undefined) => number[] | null;
};

const HOUR = 3600000;
const env = sandboxedAddon();
const weekly = { every: 'weekly', weekday: 1, hour: 7 };
/** 40 public accounts of the sandbox's world (seed 42, the one the tests' sandbox serves). */
const ACCOUNTS = [...getWorld(42).byUsername.values()]
  .filter((a) => !a.is_private)
  .slice(0, 40)
  .map((a) => a.username);

function sheetWith(handles: string[]): GasRuntime {
  const rt = env.runtime();
  const sheet = rt.spreadsheet.sheet('Sheet1');
  sheet.setValues('A1', [['account'], ...handles.map((h) => [h])]);
  rt.spreadsheet.select(`Sheet1!A2:A${handles.length + 1}`);
  rt.call('igSidebarState'); // installs the hourly trigger
  return rt;
}

/** Moves the clock past the tracker's next run and an hour more: the hourly trigger did it. */
function passNextRun(rt: GasRuntime) {
  const [t] = rt.call('igTrackers') as { nextLabel: string }[];
  const next = Math.min(
    ...(JSON.parse(rt.properties.document.get('IGDATA_SCHEDULES') as string) as { nextAt: number }[]).map(
      (s) => s.nextAt,
    ),
  );
  expect(t.nextLabel).not.toBe('');
  rt.advance(next - rt.now() + HOUR);
}

test('40 accounts: one confirmation, then three weekly runs; each line has the latest value, the change since last week and a 3-point trend, at 40 credits a run', async () => {
  const rt = sheetWith(ACCOUNTS);
  const preview = rt.call('igTrackerPreview', { fields: 'followers', ...weekly, cap: 100 });
  expect(preview).toMatchObject({
    accounts: 40,
    creditsEach: 1,
    perRun: 40,
    firstRun: 'now',
    functions: ['IGPROFILE'],
  });
  expect(preview.balance).toBeGreaterThan(0);
  const { tracker } = rt.call('igTrackerCreate', { fields: 'followers', ...weekly, cap: 100, name: 'Creators' });
  let r = rt.call('igTrackerStep', tracker.id);
  while (!r.done) r = rt.call('igTrackerStep', tracker.id);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 40 });
  passNextRun(rt);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 80 });
  passNextRun(rt);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 120 });

  const view = rt.spreadsheet.sheet(tracker.view);
  const values = view.getValues();
  const header = values[0].filter((h) => h !== '');
  expect(header).toEqual([
    'account',
    'fetched',
    'followers',
    'followers change',
    'followers change %',
    'followers trend',
    'note',
  ]);
  const lines = values.slice(1).filter((l) => l[0] !== '');
  expect(lines.map((l) => l[0]).sort()).toEqual([...ACCOUNTS].sort());
  lines.forEach((line, i) => {
    const formula = view.formulas.get(`${i + 2},6`) as string;
    const points = sparklinePoints(formula, (name) => rt.spreadsheet.findSheet(name)?.getValues())!;
    expect(points).toHaveLength(3);
    expect(line[2]).toBe(points[2]);
    expect(line[3]).toBe(points[2] - points[1]); // the sandbox's counts do not move between weeks: 0
    expect(line[1]).toBeInstanceOf(Date);
  });
  // Largest first by the field.
  const latest = lines.map((l) => l[2] as number);
  expect([...latest].sort((a, b) => b - a)).toEqual(latest);
  // Usage under the tracker's name.
  const usage = rt.call('igUsage') as Record<string, Record<string, number>>;
  expect(Object.values(usage).reduce((n, d) => n + (d['Tracker Creators'] ?? 0), 0)).toBe(120);
});

test('a private account shows why once and costs what the service charges; deleting the tracker deletes its schedule, the sheets stay', async () => {
  const rt = sheetWith(['nasa', 'locked_acc']);
  const { tracker } = rt.call('igTrackerCreate', { fields: 'followers,posts', ...weekly, cap: 10 });
  let r = rt.call('igTrackerStep', tracker.id);
  while (!r.done) r = rt.call('igTrackerStep', tracker.id);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: 2 }); // a 404 is billed
  const values = rt.spreadsheet.sheet(tracker.view).getValues();
  const header = values[0];
  const locked = values.find((l) => l[0] === 'locked_acc')!;
  expect(String(locked[header.indexOf('note')])).toMatch(/no public data/i);
  expect(rt.call('igTrackerDelete', tracker.id)).toEqual([]);
  expect(JSON.parse(rt.properties.document.get('IGDATA_SCHEDULES') as string)).toEqual([]);
  expect(rt.spreadsheet.findSheet(tracker.view)).toBeDefined();
  expect(rt.spreadsheet.findSheet(tracker.parts[0].history)).toBeDefined();
});

test("the preview counts the column as the tracker's runs read it: from the selection's first row down to the last account", async () => {
  const rt = sheetWith(ACCOUNTS.slice(0, 10));
  rt.spreadsheet.select('Sheet1!A2:A4');
  const preview = rt.call('igTrackerPreview', { fields: 'followers', ...weekly, cap: 100 });
  expect(preview).toMatchObject({ accounts: 10, perRun: 10 });
  const { tracker } = rt.call('igTrackerCreate', { fields: 'followers', ...weekly, cap: 100, range: preview.range });
  let r = rt.call('igTrackerStep', tracker.id);
  while (!r.done) r = rt.call('igTrackerStep', tracker.id);
  await expect(env.sandbox.stats()).resolves.toMatchObject({ creditsBilled: preview.perRun });
});
