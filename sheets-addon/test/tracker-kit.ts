/**
 * What the tracker suites (tracker*.test.ts) share: the runs a tracker gets (its first, stepped as the
 * sidebar does; the next weekly one, by the hourly trigger) and its view read back as Sheets shows it.
 */
import { OWNERS } from '../src/owners';
import { background } from '../src/schedule/background';
import { loadSchedules } from '../src/schedule/schedules';
import { createTracker, stepTracker } from '../src/tracker/trackers';
import type { World } from './context-fakes';
// The evaluator of the preview page: the trend's numbers, as Sheets would draw them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sparklinePoints } = require('../../scripts/sheets-preview/sparkline.js') as {
  sparklinePoints: (f: string, rowsOf: (s: string) => unknown[][]) => number[] | null;
};

export const accounts = (n: number) => Array.from({ length: n }, (_, i) => `acct_${i}`);
export const weekly = { every: 'weekly', weekday: 1, hour: 7 };

/** The first run, stepped as the sidebar does after the confirmation. */
export function track(w: World, req: Record<string, unknown>) {
  const { tracker } = createTracker(w.execution(), req);
  for (let i = 0; i < 50 && !stepTracker(w.execution(), tracker.id).done; i++);
  return tracker;
}

/** The next weekly run, done by the hourly trigger. */
export function nextWeek(w: World) {
  const next = Math.min(...loadSchedules(w.execution().props).map((s) => s.nextAt));
  w.clock.t = next + 10 * 60000;
  background(w.execution(), OWNERS);
}

export function view(w: World, name: string) {
  const sheet = w.sheet(name);
  const rows = sheet.read(1, 1, sheet.lastRow(), sheet.maxColumns());
  const header = rows[0].map(String).filter(Boolean);
  const trend = (r: number, field: string) =>
    sparklinePoints(sheet.formulas.get(`${r + 1},${header.indexOf(`${field} trend`) + 1}`) ?? '', (s) =>
      w.sheet(s).read(1, 1, w.sheet(s).lastRow(), 12),
    );
  return {
    header,
    lines: rows
      .slice(1)
      .filter((r) => r[0] !== '')
      .map((r) => r.slice(0, header.length)),
    trend,
    formats: sheet.formats,
  };
}
