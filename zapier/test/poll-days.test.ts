/**
 * Three simulated days of Zapier's polls at every 5 and 15 minutes, and every 15 with "Check at most every" 1
 * (poll-days-support.ts says what each case checks; the every-minute case is poll-days-every-minute.test.ts).
 */
import { pollDays, pollDaysSuite } from './poll-days-support';

pollDaysSuite();

test.each([
  [5, undefined],
  [15, undefined],
  [15, 1],
])(
  'Zapier every %i min, "check at most every" %s min: each new post once, credits = pages',
  (interval, every) => pollDays(interval, every),
  300_000,
);
