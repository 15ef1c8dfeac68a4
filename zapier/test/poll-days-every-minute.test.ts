/**
 * Three simulated days of Zapier's polls every minute (the fastest plan), the default "Check at most every" 15
 * minutes: 4,320 checks (poll-days-support.ts says what it checks). Its own suite: it is the longest case.
 */
import { pollDays, pollDaysSuite } from './poll-days-support';

pollDaysSuite();

test(
  'Zapier every 1 min, "check at most every" undefined min: each new post once, credits = pages',
  () => pollDays(1, undefined),
  300_000,
);
