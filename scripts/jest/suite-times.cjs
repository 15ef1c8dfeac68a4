'use strict';
// A jest reporter that prints every suite's time at the end of a run, slowest first, one line per
// suite ("suite-time <seconds> s <project> <path>"), so the log of a run is the record of where
// its time went: `npm run bench:test-run` keeps the 10 slowest in bench/records/npm-test.json, and
// two logs compared line by line show which suite grew. jest itself prints a suite's time only
// when it is slow, and not sorted.
const path = require('node:path');

/** The 120 s budget of one suite (CONTRIBUTING.md, "The tests, in tiers"): a longer one is flagged. */
const SUITE_BUDGET_S = 120;

class SuiteTimes {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const rows = results.testResults
      .map((r) => ({
        s: (r.perfStats.end - r.perfStats.start) / 1000,
        project: r.displayName?.name ?? r.displayName ?? '-',
        file: path.relative(this.rootDir, r.testFilePath),
      }))
      .sort((a, b) => b.s - a.s);
    if (rows.length < 2) return;
    const lines = rows.map(
      (r) =>
        `suite-time ${r.s.toFixed(1)} s ${r.project} ${r.file}${r.s > SUITE_BUDGET_S ? ' (over the 120 s budget)' : ''}`,
    );
    process.stderr.write(`\nSuite times, slowest first (${rows.length} suites):\n${lines.join('\n')}\n`);
  }
}

module.exports = SuiteTimes;
