#!/usr/bin/env node
// Records the figures of a whole test run from its log (jest's summary at the end of `npm test`,
// as `.ci/run` prints it on a fresh clone): suites, tests, jest's time. The run is not repeated
// here (it takes half an hour); the log is the measurement.
//   node scripts/bench/npm-test-record.mjs <log> --commit <sha> --conditions "<how it ran>" [--date YYYY-MM-DD]
import { readFileSync, statSync } from 'node:fs';
import { parseFlags } from '../lib/cli.mjs';
import { saveRecords } from './records.mjs';

const usage =
  'usage: node scripts/bench/npm-test-record.mjs <log> --commit <sha> --conditions "<how it ran>" [--date YYYY-MM-DD]';
const { values: flags, positionals } = parseFlags({
  options: { commit: { type: 'string' }, conditions: { type: 'string' }, date: { type: 'string' } },
  allowPositionals: true,
  usage,
});
if (positionals.length !== 1 || !flags.commit || !flags.conditions) {
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
saveRecords(
  'npm-test',
  {
    'npm-test.suites': { value: total(suites), unit: 'suites', what: 'test suites in the whole run (all passed)' },
    'npm-test.tests': { value: total(tests), unit: 'tests', what: `tests in the whole run (${tests})` },
    'npm-test.jest.s': {
      value: Math.round(seconds),
      unit: 's',
      what: "jest's own time (its summary's Time), the build and gates before it not counted",
    },
  },
  flags.conditions,
  { commit: flags.commit, date: flags.date ?? statSync(positionals[0]).mtime.toISOString().slice(0, 10) },
);
