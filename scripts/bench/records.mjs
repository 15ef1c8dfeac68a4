// Where a bench leaves its figures: bench/records/<bench>.json, under version control, one record
// per figure by a stable key (`sheets.a.ms`), with when, on what and under which conditions it was
// measured. The READMEs quote records through `npm run docs` (scripts/docs/figures.mjs), so a bench
// run followed by `npm run docs` updates every place a figure appears.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const recordsDir = join(root, 'bench', 'records');

/** The commit the measured tree is at, `+changes` when it differs from that commit. */
function commitOf() {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head}+changes` : head;
  } catch {
    return null;
  }
}

/** The machine in words: cores, CPU model, Node version. */
const machine = () => `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}`;

/** The 1-minute load average, to say what else the machine was doing. */
export const load1 = () => Number(loadavg()[0].toFixed(1));

/**
 * Writes this run's figures into bench/records/<bench>.json, keeping the file's other records
 * (figures this run did not measure, and dated history). `figures`: { key: { value, unit, what,
 * iqr?, decimals? } }, every key starting with `<bench>.`; `conditions`: how it was measured
 * (latency, rounds, load average before and after), said with every figure.
 */
export function saveRecords(
  bench,
  figures,
  conditions,
  { date = new Date().toISOString().slice(0, 10), commit = commitOf() } = {},
) {
  const file = join(recordsDir, `${bench}.json`);
  const records = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  for (const [key, f] of Object.entries(figures)) {
    if (!key.startsWith(`${bench}.`)) throw new Error(`record key ${key} must start with "${bench}."`);
    records[key] = { ...f, date, commit, machine: machine(), conditions };
  }
  const sorted = Object.fromEntries(
    Object.keys(records)
      .sort()
      .map((k) => [k, records[k]]),
  );
  mkdirSync(recordsDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(
    `records: ${Object.keys(figures).length} figures written to ${file}; \`npm run docs\` puts them in the READMEs`,
  );
}

/** The Sheets bundle's records: its size and its evaluation time (one fact each, whichever bench measured it). */
export const bundleFigures = (bytes, evalMs) => ({
  'bundle.bytes': { value: bytes.length, unit: 'bytes', what: 'sheets-addon/dist/bundle.js as built, minified' },
  'bundle.kb': {
    value: Number((bytes.length / 1024).toFixed(1)),
    unit: 'KB',
    what: 'the same in KB (1,024 bytes), as the build prints it',
  },
  'bundle.eval.ms': {
    value: Number(evalMs.toFixed(2)),
    unit: 'ms',
    decimals: 2,
    what: 'evaluating bundle.js in a fresh V8 context, median of 30',
  },
});

/** A figure summarised from rounds (scripts/bench/rounds.mjs `spread`) as its record: the median, with the IQR. */
export function fromRounds(s, unit, decimals, what) {
  const r = (v) => Number(v.toFixed(decimals));
  return { value: r(s.median), iqr: [r(s.q1), r(s.q3)], unit, decimals, what };
}
