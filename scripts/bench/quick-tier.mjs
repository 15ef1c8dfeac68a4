#!/usr/bin/env node
// The quick tier's time on this machine, wall clock, as a person gets it: `npm run test:quick`
// (lint beside the quick jest project) run --runs times after one run that fills the caches
// (warm), then, with --cold, as many runs with jest's cache bypassed (`--no-cache`: every file
// transformed again, as on a fresh checkout). Each run must pass; the load average before and
// after each is kept in the record's conditions, since other work on the machine lengthens it.
// Records npm-test.quick-warm.s (and npm-test.quick.s with --cold): the median, with the IQR.
//   node scripts/bench/quick-tier.mjs [--runs N] [--cold] [--json]
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFlags } from '../lib/cli.mjs';
import { fromRounds, saveRecords } from './records.mjs';
import { spread } from './rounds.mjs';

const usage = 'usage: node scripts/bench/quick-tier.mjs [--runs N] [--cold] [--json]';
const { values: flags } = parseFlags({
  options: { runs: { type: 'string' }, cold: { type: 'boolean' }, json: { type: 'boolean' } },
  usage,
});
const runs = Number(flags.runs ?? 3);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a whole number >= 1; got ${flags.runs}\n${usage}`);
  process.exit(2);
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts['test:quick'];
// The cold run is the same two commands with jest's cache bypassed: read them from the script, so
// the bench measures what `npm run test:quick` runs, not a copy of it.
const parts = /^node scripts\/side-by-side\.mjs "([^"]+)" "(jest [^"]+)"$/.exec(script);
if (!parts) throw new Error(`test:quick is no longer \`node scripts/side-by-side.mjs "<lint>" "jest ..."\`: ${script}`);
const [, lint, jest] = parts;

const load = () => loadavg()[0].toFixed(1);

/** One run: wall seconds, and the suites and tests jest counted (all must pass). */
function once(args) {
  const before = load();
  const t0 = performance.now();
  // node_modules/.bin on the PATH, as npm gives it to a script (the cold run is not one)
  const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH}` };
  const r = spawnSync(args[0], args.slice(1), { cwd: root, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const s = (performance.now() - t0) / 1000;
  const out = `${r.stdout}${r.stderr}`;
  const tests = /^Tests:\s+(.*)$/m.exec(out)?.[1] ?? '';
  if (r.status !== 0 || / failed/.test(tests)) {
    process.stderr.write(out);
    throw new Error(`${args.join(' ')} failed (exit ${r.status}; ${tests || 'no jest summary'})`);
  }
  const suites = /^Test Suites:\s+(.*)$/m.exec(out)?.[1] ?? '';
  const run = { s, load: `${before}->${load()}`, suites, tests };
  console.error(`[quick-tier] ${s.toFixed(1)} s, load ${run.load}; ${suites}; ${tests}`);
  return run;
}

const warmArgs = ['npm', 'run', 'test:quick'];
const coldArgs = [process.execPath, 'scripts/side-by-side.mjs', lint, `${jest} --no-cache`];

once(warmArgs); // fills jest's, Prettier's and ESLint's caches
const warm = Array.from({ length: runs }, () => once(warmArgs));
const cold = flags.cold ? Array.from({ length: runs }, () => once(coldArgs)) : [];

const runsOf = (list) => list.map((r) => `${r.s.toFixed(1)} s at load ${r.load}`).join(', ');
const figures = {
  'npm-test.quick-warm.s': fromRounds(
    spread(warm.map((r) => r.s)),
    's',
    0,
    `the quick tier, warm: \`npm run test:quick\`, wall clock, median of ${warm.length} runs (${warm[0].suites}; ${warm[0].tests})`,
  ),
};
if (cold.length)
  figures['npm-test.quick.s'] = fromRounds(
    spread(cold.map((r) => r.s)),
    's',
    0,
    `the quick tier with jest's cache bypassed (\`npm run test:quick\`'s commands, jest with --no-cache), wall clock, median of ${cold.length} runs`,
  );
if (flags.json) console.log(JSON.stringify(figures, null, 2));
saveRecords(
  'npm-test',
  figures,
  `scripts/bench/quick-tier.mjs (${script}); 1-minute load average before->after each run, warm: ${runsOf(warm)}${cold.length ? `; cold: ${runsOf(cold)}` : ''} (the machine is shared: a run at a higher load is slower)`,
);
