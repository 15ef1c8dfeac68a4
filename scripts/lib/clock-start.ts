/**
 * The one rule for where the tools' clocks start (the Apps Script stand-in's, the Sheets preview's,
 * the sandbox's). A person running `npm start` or `npm run sandbox` gets the real time. Under tests
 * (jest.config.cjs sets IGDATA_NAMED_CLOCKS=1, which child processes inherit) a clock that is not
 * told where to start refuses to: a test that starts at the real time passes or fails with the
 * weekday and hour it runs at (a weekly schedule's next Monday, a day's usage at midnight), so
 * every test names its instant, and one it forgot fails at once, whatever the day.
 */
export const NAMED_CLOCKS_ENV = 'IGDATA_NAMED_CLOCKS';
/** The environment variable the sandbox's and the preview's command lines read their start from. */
export const CLOCK_START_ENV = 'IGDATA_CLOCK_START';

/** An instant as ms since the epoch: a number, or an ISO 8601 text with its zone ('2026-11-25T10:00:00Z'). */
export function parseInstant(value: number | string, what: string): number {
  const ms =
    typeof value === 'number'
      ? value
      : /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(value)
        ? Date.parse(value)
        : NaN;
  if (!Number.isFinite(ms)) {
    throw new Error(
      `${what} must be an instant: ms since 1970 or an ISO 8601 time with its zone, like 2026-11-25T10:00:00Z; got ${JSON.stringify(value)}`,
    );
  }
  return ms;
}

/**
 * Where a clock starts: `given` when there is one, else the real time, which under tests is refused.
 * `who` names the clock in the message ("the sandbox's clock").
 */
export function clockStart(
  given: number | string | undefined,
  who: string,
  env: Record<string, string | undefined> = process.env,
): number {
  if (given !== undefined && given !== '') return parseInstant(given, `${who}'s start`);
  if (env[NAMED_CLOCKS_ENV] === '1') {
    throw new Error(
      `${who} would start at the real time, and a test must not depend on the day it runs: ` +
        `name the instant it starts at (startAt, or ${CLOCK_START_ENV}=2026-11-25T10:00:00Z for a command).`,
    );
  }
  return Date.now();
}
