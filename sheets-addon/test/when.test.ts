/** When scheduled lookups run, in-process: next run times in a zone given by its UTC offset. */
import { describeRepeat, nextRunAt, readRepeat, reuseLimitMs, runsPerMonth } from '../src/schedule/when';

const utc = () => 0;
const at = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString();

test('daily: the next time the hour comes, strictly after now', () => {
  const r = readRepeat({ every: 'daily', hour: 7 });
  expect(iso(nextRunAt(r, at('2026-11-23T19:00:00Z'), utc))).toBe('2026-11-24T07:00:00.000Z');
  expect(iso(nextRunAt(r, at('2026-11-23T06:59:00Z'), utc))).toBe('2026-11-23T07:00:00.000Z');
  expect(iso(nextRunAt(r, at('2026-11-23T07:00:00Z'), utc))).toBe('2026-11-24T07:00:00.000Z');
});

test('weekly: on its weekday (2026-11-23 is a Monday)', () => {
  const monday = readRepeat({ every: 'weekly', weekday: 1, hour: 7 });
  expect(iso(nextRunAt(monday, at('2026-11-23T06:00:00Z'), utc))).toBe('2026-11-23T07:00:00.000Z');
  expect(iso(nextRunAt(monday, at('2026-11-23T07:30:00Z'), utc))).toBe('2026-11-30T07:00:00.000Z');
  const sunday = readRepeat({ every: 'weekly', weekday: 0, hour: 23 });
  expect(iso(nextRunAt(sunday, at('2026-11-23T07:30:00Z'), utc))).toBe('2026-11-29T23:00:00.000Z');
});

test("the hour is the spreadsheet's: a half-hour zone, and a daylight-saving change", () => {
  const daily7 = readRepeat({ every: 'daily', hour: 7 });
  // India, +05:30: 07:00 local is 01:30 UTC.
  expect(iso(nextRunAt(daily7, at('2026-11-23T19:00:00Z'), () => 330))).toBe('2026-11-24T01:30:00.000Z');
  // New York: EST (-5 h) until 2026-03-08 07:00 UTC, then EDT (-4 h). Saturday 08:00 EST -> Sunday 07:00 EDT.
  const ny = (t: number) => (t < at('2026-03-08T07:00:00Z') ? -300 : -240);
  expect(iso(nextRunAt(daily7, at('2026-03-07T13:00:00Z'), ny))).toBe('2026-03-08T11:00:00.000Z');
  // Late in the local day, the next run is tomorrow's even though UTC already says tomorrow.
  expect(iso(nextRunAt(daily7, at('2026-11-24T02:00:00Z'), () => -300))).toBe('2026-11-24T12:00:00.000Z');
});

test('bad input names the field, what it takes and what came', () => {
  expect(() => readRepeat({ every: 'hourly', hour: 1 })).toThrow('Repeat: choose "daily" or "weekly" (got "hourly").');
  expect(() => readRepeat({ every: 'daily', hour: 7.5 })).toThrow('Hour: a whole number from 0 to 23 (got 7.5).');
  expect(() => readRepeat({ every: 'weekly', weekday: 7, hour: 7 })).toThrow('Day: 0 (Sunday) to 6 (Saturday) (got 7).');
});

test('runs a month, reuse limit and the words the sidebar shows', () => {
  expect(runsPerMonth(readRepeat({ every: 'daily', hour: 0 }))).toBe(30);
  expect(runsPerMonth(readRepeat({ every: 'weekly', weekday: 3, hour: 0 }))).toBe(4.35);
  expect(reuseLimitMs(readRepeat({ every: 'daily', hour: 0 }))).toBe(12 * 3600000);
  expect(describeRepeat(readRepeat({ every: 'weekly', weekday: 5, hour: 9 }))).toBe('weekly on Friday at 09:00');
});
