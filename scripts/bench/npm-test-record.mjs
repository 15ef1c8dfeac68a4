#!/usr/bin/env node
// Records the figures of a whole test run from its log (jest's summary at the end of `npm test`,
// as `.ci/run` prints it on a fresh clone): suites, tests, jest's time. The run is not repeated
// here; the log is the measurement. Every suite's time is in it too (the reporter
// scripts/jest/suite-times.cjs prints "suite-time <s> s <project> <path>", slowest first): the 10
// slowest are recorded as npm-test.slowest-<rank>.s, so the next run's log shows which suite grew.
// With --wall <s> and --cache warm|cold, the whole run's wall time too (`npm ci && npm test`, timed
// by whoever ran it: the log does not hold it), as npm-test.wall-warm.s or npm-test.wall-cold.s. A
// cold run (.cache empty) records its wall time only: its suites are the warm run's, timed beside
// the installs' tail, and the documents quote the suites of a run with nothing installing.
//   node scripts/bench/npm-test-record.mjs <log> --commit <sha> --conditions "<how it ran>" [--date YYYY-MM-DD]
//     [--wall <s> --cache warm|cold]
import { readFileSync, statSync } from 'node:fs';
import { parseFlags } from '../lib/cli.mjs';
import { saveRecords } from './records.mjs';

const usage =
  'usage: node scripts/bench/npm-test-record.mjs <log> --commit <sha> --conditions "<how it ran>" [--date YYYY-MM-DD] [--wall <s> --cache warm|cold]';
const { values: flags, positionals } = parseFlags({
  options: {
    commit: { type: 'string' },
    conditions: { type: 'string' },
    date: { type: 'string' },
    wall: { type: 'string' },
    cache: { type: 'string' },
  },
  allowPositionals: true,
  usage,
});
const wall = flags.wall === undefined ? undefined : Number(flags.wall);
if (
  positionals.length !== 1 ||
  !flags.commit ||
  !flags.conditions ||
  (wall !== undefined && !(wall > 0 && ['warm', 'cold'].includes(flags.cache)))
) {
  console.error(usage);
  process.exit(2);
}
const log = readFileSync(positionals[0], 'utf8');
const summary = (label) => {
  const m = log.match(new RegExp(`^${label}:\\s+(.*)$`, 'm'));
  if (!m) throw new Error(`${positionals[0]}: no "${label}:" line (is it the log of a whole jest run?)`);
  return m[1];
};
const total = (line) => Number(line.match(/(\d+) total/)[1]);
const failed = (line) => Number(line.match(/(\d+) failed/)?.[1] ?? 0);
const suites = summary('Test Suites');
const tests = summary('Tests');
if (failed(suites) || failed(tests)) throw new Error(`the run failed (${suites}; ${tests}): record a passing run`);
const seconds = Number(summary('Time').match(/([\d.]+) s/)[1]);
const suiteTimes = [...log.matchAll(/^suite-time ([\d.]+) s (\S+) (\S+)/gm)]
  .map((m) => ({ s: Number(m[1]), project: m[2], file: m[3] }))
  .sort((a, b) => b.s - a.s);
if (!suiteTimes.length)
  console.warn(`${positionals[0]}: no suite-time lines (a log from before scripts/jest/suite-times.cjs)`);
const slowest = Object.fromEntries(
  suiteTimes.slice(0, 10).map((t, i) => [
    `npm-test.slowest-${i + 1}.s`,
    {
      value: Math.round(t.s),
      unit: 's',
      what: `suite ${i + 1} by time in the run: ${t.file} (jest project ${t.project})`,
    },
  ]),
);
const cold = flags.cache === 'cold';
saveRecords(
  'npm-test',
  {
    ...(cold
      ? {}
      : {
          ...slowest,
          'npm-test.suites': {
            value: total(suites),
            unit: 'suites',
            what: 'test suites in the whole run (all passed)',
          },
          'npm-test.tests': { value: total(tests), unit: 'tests', what: `tests in the whole run (${tests})` },
          'npm-test.jest.s': {
            value: Math.round(seconds),
            unit: 's',
            what: "jest's own time (its summary's Time), the build and gates before it not counted",
          },
        }),
    ...(wall === undefined
      ? {}
      : {
          [`npm-test.wall-${flags.cache}.s`]: {
            value: Math.round(wall),
            unit: 's',
            what: `the whole \`npm ci && npm test\` (.ci/run) on a fresh clone with .cache ${flags.cache === 'warm' ? 'already filled' : 'empty'}, wall time`,
          },
        }),
  },
  flags.conditions,
  { commit: flags.commit, date: flags.date ?? statSync(positionals[0]).mtime.toISOString().slice(0, 10) },
);
