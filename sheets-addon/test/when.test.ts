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

test("hourly (a watch's): the next whole hour, in any zone; schedules and trackers do not take it", () => {
  const r = readRepeat({ every: 'hourly' }, ['hourly', 'daily']);
  expect(iso(nextRunAt(r, at('2026-11-23T19:00:00Z'), () => 330))).toBe('2026-11-23T20:00:00.000Z');
  expect(iso(nextRunAt(r, at('2026-11-23T19:59:59Z'), utc))).toBe('2026-11-23T20:00:00.000Z');
  expect([runsPerMonth(r), reuseLimitMs(r), describeRepeat(r)]).toEqual([720, 30 * 60000, 'hourly']);
  expect(() => readRepeat({ every: 'weekly', weekday: 1, hour: 7 }, ['hourly', 'daily'])).toThrow(
    'Repeat: choose "hourly" or "daily" (got "weekly").',
  );
});

test('bad input names the field, what it takes and what came', () => {
  expect(() => readRepeat({ every: 'hourly', hour: 1 })).toThrow('Repeat: choose "daily" or "weekly" (got "hourly").');
  expect(() => readRepeat({ every: 'daily', hour: 7.5 })).toThrow('Hour: a whole number from 0 to 23 (got 7.5).');
  expect(() => readRepeat({ every: 'weekly', weekday: 7, hour: 7 })).toThrow(
    'Day: 0 (Sunday) to 6 (Saturday) (got 7).',
  );
});

test('runs a month, reuse limit and the words the sidebar shows', () => {
  expect(runsPerMonth(readRepeat({ every: 'daily', hour: 0 }))).toBe(30);
  expect(runsPerMonth(readRepeat({ every: 'weekly', weekday: 3, hour: 0 }))).toBe(4.35);
  expect(reuseLimitMs(readRepeat({ every: 'daily', hour: 0 }))).toBe(12 * 3600000);
  expect(describeRepeat(readRepeat({ every: 'weekly', weekday: 5, hour: 9 }))).toBe('weekly on Friday at 09:00');
});

/** A real zone's offset in minutes at an instant, from the tz database Node ships (as Apps Script's formatDate 'Z'). */
const zone = (timeZone: string) => {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  });
  return (t: number): number => {
    const p = Object.fromEntries(fmt.formatToParts(new Date(t)).map((x) => [x.type, Number(x.value)]));
    return Math.round((Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(t / 60000) * 60000) / 60000);
  };
};
/** The runs of a schedule from `from`, one after another, as the hourly trigger would find them. */
const runs = (r: ReturnType<typeof readRepeat>, from: string, n: number, off: (t: number) => number): string[] => {
  const out: string[] = [];
  for (let t = at(from); out.length < n;) out.push(iso((t = nextRunAt(r, t, off))));
  return out;
};

describe('daylight-saving changes of 2026 in America/New_York', () => {
  const ny = zone('America/New_York');
  test('spring forward (2026-03-08, 02:00 does not exist): a 02:00 run happens at 03:00 EDT, never at 01:00', () => {
    const daily2 = readRepeat({ every: 'daily', hour: 2 });
    expect(runs(daily2, '2026-03-06T12:00:00Z', 4, ny)).toEqual([
      '2026-03-07T07:00:00.000Z', // 02:00 EST
      '2026-03-08T07:00:00.000Z', // 03:00 EDT: the first valid time after the skipped 02:00
      '2026-03-09T06:00:00.000Z', // 02:00 EDT
      '2026-03-10T06:00:00.000Z',
    ]);
    // The hours around the gap are untouched.
    expect(runs(readRepeat({ every: 'daily', hour: 1 }), '2026-03-07T12:00:00Z', 2, ny)).toEqual([
      '2026-03-08T06:00:00.000Z',
      '2026-03-09T05:00:00.000Z',
    ]);
    expect(runs(readRepeat({ every: 'daily', hour: 3 }), '2026-03-07T12:00:00Z', 2, ny)).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T07:00:00.000Z',
    ]);
  });
  test('fall back (2026-11-01, 01:00 happens twice): a 01:00 run happens once, at the first 01:00', () => {
    const daily1 = readRepeat({ every: 'daily', hour: 1 });
    expect(runs(daily1, '2026-10-31T12:00:00Z', 3, ny)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT; not again at 01:00 EST (06:00Z)
      '2026-11-02T06:00:00.000Z', // 01:00 EST
      '2026-11-03T06:00:00.000Z',
    ]);
    // Weekly on Sunday at 01:00: once that Sunday, then the next.
    expect(runs(readRepeat({ every: 'weekly', weekday: 0, hour: 1 }), '2026-10-30T12:00:00Z', 2, ny)).toEqual([
      '2026-11-01T05:00:00.000Z',
      '2026-11-08T06:00:00.000Z',
    ]);
    // Asked from between the two 01:00s (the trigger ran late), the next run is the next day's.
    expect(iso(nextRunAt(daily1, at('2026-11-01T05:30:00Z'), ny))).toBe('2026-11-02T06:00:00.000Z');
  });
});

test('a zone without daylight saving (Asia/Tokyo, +09:00): every run 24 hours after the last, all year', () => {
  const tokyo = zone('Asia/Tokyo');
  const daily2 = readRepeat({ every: 'daily', hour: 2 });
  for (const from of ['2026-03-06T12:00:00Z', '2026-10-30T12:00:00Z']) {
    const list = runs(daily2, from, 4, tokyo).map(at);
    expect(list.map((t) => new Date(t).getUTCHours())).toEqual([17, 17, 17, 17]); // 02:00 JST
    for (let i = 1; i < list.length; i++) expect(list[i] - list[i - 1]).toBe(24 * 3600000);
  }
});
