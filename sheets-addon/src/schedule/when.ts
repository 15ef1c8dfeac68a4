/**
 * When a scheduled lookup runs: daily or weekly at an hour of the spreadsheet's time zone. Pure:
 * the zone comes in as a function giving its UTC offset at an instant (Apps Script's formatDate
 * 'Z'), so a run stays at 07:00 local across a daylight-saving change.
 */
export interface Repeat {
  /**
   * Hourly: every hourly trigger run (a watch's; schedules and trackers take daily or weekly). Never: the first run
   * only (a benchmark not refreshed); its next run is NEVER.
   */
  every: 'hourly' | 'daily' | 'weekly' | 'never';
  /** 0 = Sunday ... 6 = Saturday (weekly only). */
  weekday: number;
  /** 0-23, local. */
  hour: number;
}

const HOUR = 3600000;
const DAY = 24 * HOUR;
/** The next run of a repeat that never comes: a valid instant (year 275760), so it stays a number in JSON. */
export const NEVER = 8.64e15;
export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Runs in an average month. */
export const runsPerMonth = (r: Repeat): number => ({ hourly: 720, daily: 30, weekly: 4.35, never: 0 })[r.every];

/**
 * A scheduled run reuses answers younger than half its period (and the freshness setting): so each
 * run fetches what the previous run fetched, even if the hourly trigger fired it a little late,
 * while answers a formula fetched shortly before are still free.
 */
export const reuseLimitMs = (r: Repeat): number =>
  ({ hourly: HOUR, daily: DAY, weekly: 7 * DAY, never: 7 * DAY })[r.every] / 2;

/** A whole number from `min` to `max` typed in the sidebar; else `rule` and what was typed. */
export function wholeNumber(v: unknown, min: number, max: number, rule: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${rule} (got ${JSON.stringify(v)}).`);
  return n;
}

/** Reads and checks a schedule's timing from the sidebar (clear messages, nothing saved on a bad value). */
export function readRepeat(
  input: { every?: unknown; weekday?: unknown; hour?: unknown },
  kinds: Repeat['every'][] = ['daily', 'weekly'],
): Repeat {
  const every = String(input.every ?? '') as Repeat['every'];
  if (!kinds.includes(every))
    throw new Error(`Repeat: choose ${kinds.map((k) => `"${k}"`).join(' or ')} (got ${JSON.stringify(every)}).`);
  const hour =
    every === 'hourly' || every === 'never' ? 0 : wholeNumber(input.hour, 0, 23, 'Hour: a whole number from 0 to 23');
  const weekday = every === 'weekly' ? wholeNumber(input.weekday, 0, 6, 'Day: 0 (Sunday) to 6 (Saturday)') : 1;
  return { every, weekday, hour };
}

/**
 * The instant a local wall time (`local`: epoch ms as if the zone were UTC) happens. A time skipped
 * by a daylight-saving change happens later by the size of the gap, never before (02:00 on the night
 * New York jumps from 02:00 to 03:00 runs at 03:00; in a zone whose gap is longer than an hour or
 * not whole, at the skipped time moved by the gap: Temporal's "compatible" choice). A time that
 * happens twice (clocks going back) is its first occurrence, so a run happens once.
 */
export function instantOf(local: number, offsetMin: (t: number) => number): number {
  // Offsets a day either side cover every change (they happen at most once a day).
  const before = offsetMin(local - DAY) * 60000;
  const after = offsetMin(local + DAY) * 60000;
  const valid = [local - before, local - after].filter((t) => offsetMin(t) * 60000 === local - t);
  return valid.length ? Math.min(...valid) : local - before;
}

/** The first run strictly after `after` (epoch ms); `offsetMin(t)`: the zone's offset from UTC in minutes at t. */
export function nextRunAt(r: Repeat, after: number, offsetMin: (t: number) => number): number {
  if (r.every === 'never') return NEVER;
  if (r.every === 'hourly') return (Math.floor(after / HOUR) + 1) * HOUR;
  const today = Math.floor((after + offsetMin(after) * 60000) / DAY) * DAY; // local midnight, as if it were UTC
  for (let d = 0; d <= 8; d++) {
    const localDay = today + d * DAY;
    if (r.every === 'weekly' && new Date(localDay).getUTCDay() !== r.weekday) continue;
    // One instant per local day: a repeated hour's second occurrence never counts as another run.
    const at = instantOf(localDay + r.hour * HOUR, offsetMin);
    if (at > after) return at;
  }
  throw new Error('No next run found'); // unreachable: a week always holds the weekday
}

/** "weekly on Monday at 07:00" */
export const describeRepeat = (r: Repeat): string =>
  r.every === 'hourly' || r.every === 'never'
    ? { hourly: 'hourly', never: 'not refreshed' }[r.every]
    : `${r.every === 'daily' ? 'daily' : `weekly on ${WEEKDAYS[r.weekday]}`} at ${String(r.hour).padStart(2, '0')}:00`;
