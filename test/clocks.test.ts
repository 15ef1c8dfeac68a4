/**
 * No test depends on the day it runs (issue 21): every clock a test starts (the stand-in's, a
 * concurrent stand-in's, the sandbox's, the Sheets preview's) starts at an instant the test names,
 * and one started without an instant refuses to under jest (jest.config.cjs sets
 * IGDATA_NAMED_CLOCKS=1), so a forgotten one fails on any weekday, not only on some.
 */
import { CLOCK_START_ENV, clockStart, NAMED_CLOCKS_ENV, parseInstant } from '../scripts/lib/clock-start';
import { Clock, createGasRuntime } from '../scripts/gas-standin/runtime';
import { startSandbox } from '../scripts/sandbox/server';
import { TEST_START } from './support/clock';

const CODE = { name: 'Code.js', code: 'function now() { return new Date().toISOString(); }' };

test('jest runs with named clocks required, and every process a suite starts inherits it', () => {
  expect(process.env[NAMED_CLOCKS_ENV]).toBe('1');
});

test('a stand-in runtime given no instant refuses to start, saying how to name one', () => {
  expect(() => createGasRuntime({ files: [CODE] })).toThrow(
    "the Apps Script stand-in's clock would start at the real time, and a test must not depend on the day it runs: name the instant it starts at (startAt, or IGDATA_CLOCK_START=2026-11-25T10:00:00Z for a command).",
  );
});

test("a stand-in runtime started at a named instant reads it, in the script's Date too", async () => {
  const rt = createGasRuntime({ files: [CODE], startAt: '2026-11-29T23:30:00Z' });
  try {
    expect(rt.now() - Date.parse('2026-11-29T23:30:00Z')).toBeGreaterThanOrEqual(0);
    expect(rt.now() - Date.parse('2026-11-29T23:30:00Z')).toBeLessThan(60_000);
    expect(String(rt.run('now', [])).slice(0, 16)).toBe('2026-11-29T23:30');
  } finally {
    await rt.close();
  }
});

test('clocks that must agree start from one pair (instant, real time)', () => {
  const realAt = 1_000_000;
  const a = new Clock('2026-11-25T10:00:00Z', realAt);
  const b = new Clock('2026-11-25T10:00:00Z', realAt);
  expect(Math.abs(a.now() - b.now())).toBeLessThanOrEqual(1);
});

test('the sandbox given no instant refuses to start; given one, its stories and clock follow it', async () => {
  await expect(startSandbox({ env: { [NAMED_CLOCKS_ENV]: '1' } })).rejects.toThrow(
    /^the sandbox's clock would start at the real time/,
  );
  const sb = await startSandbox({ env: { [NAMED_CLOCKS_ENV]: '1', [CLOCK_START_ENV]: TEST_START } });
  try {
    expect(sb.startedAt).toBe(Date.parse(TEST_START));
    const before = sb.clock.now();
    sb.clock.advance(25 * 3600_000);
    expect(sb.clock.now() - before).toBeGreaterThanOrEqual(25 * 3600_000);
    const res = await fetch(`${sb.url}/_sandbox/clock`);
    expect(Date.parse(((await res.json()) as { now: string }).now) - Date.parse(TEST_START)).toBeGreaterThanOrEqual(
      25 * 3600_000,
    );
  } finally {
    await sb.close();
  }
});

test('an instant is a number or ISO 8601 with its zone; anything else is refused by name', () => {
  expect(parseInstant('2026-11-25T10:00:00Z', 'start')).toBe(Date.UTC(2026, 10, 25, 10));
  expect(parseInstant('2026-11-25T10:00:00+01:00', 'start')).toBe(Date.UTC(2026, 10, 25, 9));
  for (const bad of ['2026-11-25', 'next monday', '2026-11-25T10:00:00', 'NaN']) {
    expect(() => parseInstant(bad, "the sandbox's clock's start")).toThrow(
      `the sandbox's clock's start must be an instant: ms since 1970 or an ISO 8601 time with its zone, like 2026-11-25T10:00:00Z; got ${JSON.stringify(bad)}`,
    );
  }
  // Without the test flag (a person's `npm start`), a clock starts at the real time.
  const t = clockStart(undefined, 'x', {});
  expect(Math.abs(t - Date.now())).toBeLessThan(5_000);
});
