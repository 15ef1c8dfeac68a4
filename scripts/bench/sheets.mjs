#!/usr/bin/env node
// `npm run bench:sheets`: a 1,000-row column with 600 unique handles against the sandbox at 150 ms
// latency per request, in the Apps Script stand-in (scripts/gas-standin/runtime.ts) loading the BUILT add-on:
//   (a) our range formula  =IGPROFILE(A2:A1001,"followers")  (one execution)
//   (b) our sidebar bulk run  (igBulkStart + igBulkStep executions, as the sidebar drives them)
//   the floor: the same 600 requests as bare fetchAll batches of 50 (sheets-floor.mjs), what the
//       stand-in and the sandbox cost with no add-on at all; (a), (b) and the floor are each the median
//       of 5 fresh runtimes, each runtime's HTTP thread started before its execution is timed
//   (c) one naive custom function per cell, no cache (the ImportJSON way): each cell its own
//       execution in a fresh context, at most 30 at once (30 worker threads, each its own runtime)
// then a second recalculation of each; plus the bundle's minified size and its eval time; plus
// concurrent recalculation (sheets-concurrency.mjs): credits, wall time and longest wait of a cell
// with claims, with a lock around the whole fetch, and without either; plus (d) the next-day
// recalculation of the column from the kept answers (sheets-fresh.mjs); plus (e) a weekly scheduled
// refresh of the column into a history sheet next to the same lookup run by hand (sheets-schedule.mjs).
import { addonRuntime } from './addon-runtime.mjs';
import { BUNDLE_LIMIT_KB } from '../build/sheets.mjs';
import { startSandboxChild } from './sandbox-child.mjs';
import { evalTimes } from './bundle-eval.mjs';
import { loadGasRuntime } from '../gas-standin/load.mjs';
import { concurrencyRows } from './sheets-concurrency.mjs';
import { freshnessRows } from './sheets-fresh.mjs';
import { scheduleRows } from './sheets-schedule.mjs';
import { floorRuntime, runFloor } from './sheets-floor.mjs';
import { startNaivePool } from './sheets-naive.mjs';
import { bundleFigures, load1, saveRecords } from './records.mjs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'sheets-addon', 'dist');
const LATENCY = Number(process.env.BENCH_LATENCY_MS ?? 150);
const ROWS = 1000;
const UNIQUE = 600;
const CONCURRENCY = 30;
const KEY = 'sk_bench_sheets_0123456789';
// The production address, from core (built by npm run build): the stand-in's requests to it go to the sandbox.
const { DEFAULT_BASE_URL: PROD } = await import(pathToFileURL(join(root, 'dist', 'core.mjs')).href);

if (!existsSync(join(dist, 'bundle.js')) || !existsSync(join(root, 'dist', 'sandbox.mjs'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}

const { createGasRuntime, createConcurrentRuntime, runtimeFile } = await loadGasRuntime();
const cache = join(root, 'node_modules', '.cache', 'igdata-bench');
mkdirSync(cache, { recursive: true });

// ---- the sandbox, in a child process (UrlFetchApp blocks this thread): sandbox-child.mjs
const startSandbox = () => startSandboxChild(root, { key: KEY, latencyMs: LATENCY });

// ---- the column: the sandbox's 400 accounts + 200 unknown handles = 600 unique, 400 repeats
const { startSandbox: inProcess } = await import(pathToFileURL(join(root, 'dist', 'sandbox-lib.mjs')).href);
const tmp = await inProcess({ port: 0, quiet: true });
const accounts = tmp.world.accounts;
const known = accounts.map((a) => a.username);
await tmp.close();
const unique = [
  ...known.slice(0, UNIQUE),
  ...Array.from({ length: Math.max(0, UNIQUE - known.length) }, (_, i) => `nohandle_${i}`),
];
let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const rows = [...unique];
while (rows.length < ROWS) rows.push(unique[Math.floor(rand() * unique.length)]);
for (let i = rows.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [rows[i], rows[j]] = [rows[j], rows[i]];
}
// Spell some repeats the way people paste them: '@NASA', profile URLs.
const seen = new Set();
const column = rows.map((h) => {
  const again = seen.has(h);
  seen.add(h);
  if (!again) return h;
  return rand() < 0.5 ? `@${h.toUpperCase()}` : `https://www.instagram.com/${h}/`;
});

const loadBefore = load1();
const sb = await startSandbox();
const addon = () => addonRuntime({ createGasRuntime, sb, key: KEY, dist, prod: PROD });

async function measure(label, fn) {
  await sb.reset();
  const t0 = performance.now();
  const extra = await fn();
  const ms = performance.now() - t0;
  const s = await sb.stats();
  const r = {
    label,
    ms: Math.round(ms),
    requests: s.byEndpoint.profile ?? 0,
    credits: s.creditsBilled,
    maxInFlight: s.maxInFlight,
    ...extra,
  };
  console.log(
    `${label.padEnd(34)} ${String(r.ms).padStart(6)} ms  ${String(r.requests).padStart(5)} requests  ${String(r.credits).padStart(5)} credits`,
  );
  return r;
}

// (a), (b) and the floor: the median of RUNS, each in a fresh runtime (a cold execution, as a user's):
// one run varies by about 5% on the 2-core machine, more than the difference being measured.
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
async function medianOf(label, once) {
  const all = [];
  for (let i = 0; i < RUNS; i++) all.push(await once(`${label}${RUNS > 1 ? ` #${i + 1}` : ''}`));
  const mid = [...all].sort((x, y) => x.ms - y.ms)[Math.floor(all.length / 2)];
  return { ...mid, runs: all.map((r) => r.ms) };
}

// (a) the range formula
const rangeOnce = (rt) => () => {
  const out = rt.custom(
    'IGPROFILE',
    column.map((h) => [h]),
    'followers',
  );
  if (out.length !== ROWS) throw new Error('(a) wrong row count');
  const late = out.filter((r) => String(r[0]).startsWith('Not reached')).length;
  return { late, batches: rt.stats.fetchAllCalls };
};
// A warm-up, not measured: one (a) in its own runtime, so that the measured runs do not pay for
// warming the stand-in's own code (its services, the HTTP thread) and the sandbox's: Apps Script's
// services and the API are warm when a user's formula runs. Each measured runtime still loads the
// add-on into a fresh context, so the add-on's own code starts cold every time, as in Apps Script.
{
  const rt = addon();
  await sb.reset();
  rangeOnce(rt)();
  await rt.close();
}
let rtA;
const a1 = await medianOf('(a) range formula', async (label) => {
  await rtA?.close();
  rtA = addon();
  return measure(label, rangeOnce(rtA));
});
const a2 = await measure('(a) range formula, recalculation', rangeOnce(rtA));
await rtA.close();

// (b) the sidebar bulk run: the same server calls the sidebar makes, one execution each
const bulk = (rt, sheetName) => {
  const sh = rt.spreadsheet.findSheet(sheetName) ?? rt.spreadsheet.addSheet(sheetName);
  column.forEach((h, i) => sh.set(i + 1, 1, h));
  rt.spreadsheet.select(`${sheetName}!A1:A${ROWS}`);
  let job = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'beside' });
  let steps = 0;
  while (job.status === 'running') {
    job = rt.call('igBulkStep', job.id);
    steps++;
  }
  if (job.status !== 'done' || job.next !== ROWS) throw new Error(`(b) ended ${job.status}: ${job.message}`);
  return { steps };
};
let rtB;
const b1 = await medianOf('(b) sidebar bulk run', async (label) => {
  await rtB?.close();
  rtB = addon();
  return measure(label, () => bulk(rtB, 'Sheet1'));
});
const b2 = await measure('(b) sidebar bulk run, again', () => bulk(rtB, 'Copy'));
await rtB.close();

// the floor: the same 600 requests as bare fetchAll batches (sheets-floor.mjs)
const floor = await medianOf('floor: bare fetchAll of 50', async (label) => {
  const rt = floorRuntime({ createGasRuntime, sb, prod: PROD });
  const r = await measure(label, () => runFloor(rt, { key: KEY, prod: PROD, handles: unique }));
  await rt.close();
  return r;
});

// (c) naive: one execution per cell, fresh context, 30 at once (sheets-naive.mjs)
const naive = await startNaivePool({ runtimeFile, key: KEY, prod: PROD, sandboxUrl: sb.url, threads: CONCURRENCY });
const naiveRun = () => naive.run(column);
// Column URLs: the naive function cannot read them; give it plain handles so it makes its 1,000 requests.
column.splice(0, column.length, ...rows);
const c1 = await measure('(c) naive, one execution per cell', naiveRun);
const c2 = await measure('(c) naive, recalculation', naiveRun);
naive.close();
const concurrency = await concurrencyRows({ createConcurrentRuntime, sb, key: KEY, dist, prod: PROD, accounts });
const freshness = await freshnessRows({ createGasRuntime, sb, key: KEY, dist, prod: PROD, column, root });
const schedule = await scheduleRows({ createGasRuntime, sb, key: KEY, dist, prod: PROD, column });
sb.close();

// ---- bundle weight
const bundle = readFileSync(join(dist, 'bundle.js'));
const { medianMs: evalMs, maxMs: evalMaxMs } = evalTimes({ bundle: bundle.toString('utf8') }).bundle;
console.log(
  `bundle.js: ${(bundle.length / 1024).toFixed(1)} KB minified, evaluated in ${evalMs.toFixed(2)} ms (median of 30, fresh V8 context; max ${evalMaxMs.toFixed(2)} ms)`,
);

const bound = (UNIQUE / 50) * LATENCY;
// The target of issue 25: what a range costs beyond its round trips is at most 15% of them.
const BOUND_X = 1.15;
const results = {
  date: new Date().toISOString(),
  latencyMs: LATENCY,
  rows: ROWS,
  unique: UNIQUE,
  concurrency: CONCURRENCY,
  batchingBoundMs: bound,
  a: { first: a1, second: a2 },
  b: { first: b1, second: b2 },
  c: { first: c1, second: c2 },
  floor,
  bundle: {
    bytes: bundle.length,
    gzipBytes: gzipSync(bundle).length,
    evalMsMedian: Number(evalMs.toFixed(2)),
    evalMsMax: Number(evalMaxMs.toFixed(2)),
  },
};
const checks = [
  ['(a) >= 2.5x faster than (c)', c1.ms / a1.ms >= 2.5, `${(c1.ms / a1.ms).toFixed(2)}x`],
  ['(b) >= 2.5x faster than (c)', c1.ms / b1.ms >= 2.5, `${(c1.ms / b1.ms).toFixed(2)}x`],
  [
    `(a) within ${BOUND_X}x of the batching bound`,
    a1.ms <= BOUND_X * bound,
    `${(a1.ms / bound).toFixed(2)}x of ${bound} ms (floor ${(floor.ms / bound).toFixed(2)}x; runs ${a1.runs.join(', ')} ms)`,
  ],
  [
    `(b) within ${BOUND_X}x of the batching bound`,
    b1.ms <= BOUND_X * bound,
    `${(b1.ms / bound).toFixed(2)}x of ${bound} ms (runs ${b1.runs.join(', ')} ms)`,
  ],
  ['(a) credits exactly 600', a1.credits === UNIQUE, a1.credits],
  ['(b) credits exactly 600', b1.credits === UNIQUE, b1.credits],
  ['(c) credits 1,000', c1.credits === ROWS, c1.credits],
  ['(a) recalculation: 0 requests', a2.requests === 0, a2.requests],
  ['(b) second run: 0 requests', b2.requests === 0, b2.requests],
  ['(c) recalculation: 1,000 requests', c2.requests === ROWS, c2.requests],
  [
    `bundle <= ${BUNDLE_LIMIT_KB} KB minified`,
    bundle.length <= BUNDLE_LIMIT_KB * 1024,
    `${(bundle.length / 1024).toFixed(1)} KB`,
  ],
  ['bundle eval <= 1.5 ms (median, fresh context)', evalMs <= 1.5, `${evalMs.toFixed(2)} ms`],
  ...concurrency.checks,
  ...freshness.checks,
  ...schedule.checks,
];
results.concurrency = concurrency.rows;
results.freshness = freshness.rows;
results.schedule = schedule.rows;
console.log(`\nbatching bound: ${UNIQUE} / 50 x ${LATENCY} ms = ${bound} ms`);
for (const [name, ok, v] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}: ${v}`);
writeFileSync(join(cache, 'sheets-bench.json'), JSON.stringify({ ...results, checks }, null, 2));
console.log(`\nresults: ${join(cache, 'sheets-bench.json')}`);
const ratio = (x) => Number(x.toFixed(2));
const side = concurrency.rows.filter((r) => r.label === 'claims');
const claimsRatio = (scenario, base) =>
  ratio(
    side.find((r) => r.scenario.startsWith(scenario)).wallMs /
      concurrency.rows.find((r) => r.scenario.startsWith(scenario) && r.label === base).wallMs,
  );
const fresh = freshness.rows;
// The documents quote the records of the default latency; another latency is an experiment, printed only.
if (LATENCY !== 150) console.log(`records not written: BENCH_LATENCY_MS=${LATENCY} is not the documented 150 ms`);
else
  saveRecords(
    'sheets',
    {
      'sheets.a.ms': {
        value: a1.ms,
        unit: 'ms',
        what: `(a) the range formula over the 1,000-row column, wall time (median of ${RUNS} fresh runtimes)`,
      },
      'sheets.a.batches': { value: a1.batches, unit: 'fetchAll', what: '(a) fetchAll batches' },
      'sheets.a.credits': { value: a1.credits, unit: 'credits', what: '(a) credits billed' },
      'sheets.a.recalc.ms': { value: a2.ms, unit: 'ms', what: '(a) recalculated at once, wall time (0 requests)' },
      'sheets.b.ms': {
        value: b1.ms,
        unit: 'ms',
        what: `(b) the sidebar bulk run, wall time (median of ${RUNS} fresh runtimes)`,
      },
      'sheets.b.credits': { value: b1.credits, unit: 'credits', what: '(b) credits billed' },
      'sheets.b.recalc.ms': { value: b2.ms, unit: 'ms', what: '(b) run again, wall time (0 requests)' },
      'sheets.c.ms': {
        value: c1.ms,
        unit: 'ms',
        what: '(c) one naive custom function per cell, 30 at once, wall time',
      },
      'sheets.c.credits': { value: c1.credits, unit: 'credits', what: '(c) credits billed' },
      'sheets.c.recalc.ms': { value: c2.ms, unit: 'ms', what: '(c) recalculated, wall time (every request again)' },
      'sheets.bound.ms': {
        value: bound,
        unit: 'ms',
        what: 'the batching bound: unique handles / 50 a batch x latency (derived from the settings)',
      },
      'sheets.a.bound.x': { value: ratio(a1.ms / bound), unit: 'x', what: "(a)'s wall time over the batching bound" },
      'sheets.b.bound.x': { value: ratio(b1.ms / bound), unit: 'x', what: "(b)'s wall time over the batching bound" },
      'sheets.floor.ms': {
        value: floor.ms,
        unit: 'ms',
        what: `the floor: the same 600 requests as bare fetchAll batches of 50 from a one-function script (median of ${RUNS})`,
      },
      'sheets.floor.bound.x': {
        value: ratio(floor.ms / bound),
        unit: 'x',
        what: "the floor's wall time over the batching bound (the stand-in's and the sandbox's own share)",
      },
      'sheets.a.floor.x': { value: ratio(a1.ms / floor.ms), unit: 'x', what: "(a)'s wall time over the floor's" },
      'sheets.b.floor.x': { value: ratio(b1.ms / floor.ms), unit: 'x', what: "(b)'s wall time over the floor's" },
      'sheets.a.speedup.x': { value: ratio(c1.ms / a1.ms), unit: 'x', what: "(c)'s wall time over (a)'s" },
      'sheets.b.speedup.x': { value: ratio(c1.ms / b1.ms), unit: 'x', what: "(c)'s wall time over (b)'s" },
      'sheets.claims.side.x': {
        value: claimsRatio('side by side', 'one alone'),
        unit: 'x',
        what: 'three side-by-side 200-row formulas with claims, wall time over one of them alone (median of 3)',
      },
      'sheets.claims.filled.x': {
        value: [
          claimsRatio('filled down by columns', 'off (before)'),
          claimsRatio('filled down by rows', 'off (before)'),
        ].sort((x, y) => x - y),
        unit: 'x',
        what: '120 filled-down cells recalculated by columns and by rows, claims over no claims (median of 3 each)',
      },
      'sheets.d.keep.ms': {
        value: fresh.keepTrigger.firstMs,
        unit: 'ms',
        what: '(d) the first hourly keep trigger run, copying 600 answers',
      },
      'sheets.d.next-day.ms': {
        value: fresh.nextDay.ms,
        unit: 'ms',
        what: '(d) the next-day recalculation of the column, 600 answers kept, 0 credits',
      },
      'sheets.d.next-day-10000.ms': {
        value: fresh.nextDay10000.ms,
        unit: 'ms',
        what: '(d) the same with 10,000 answers kept, 0 credits',
      },
      'sheets.e.by-hand.ms': {
        value: schedule.rows.byHand.ms,
        unit: 'ms',
        what: '(e) the weekly lookup started by hand from the sidebar, start and steps until done',
      },
      'sheets.e.weekly.ms': {
        value: schedule.rows.weekly.map((w) => w.ms).sort((x, y) => x - y),
        unit: 'ms',
        what: "(e) the weekly schedule's two runs, one trigger execution each",
      },
      'sheets.e.ratio.x': {
        value: schedule.rows.ratio,
        unit: 'x',
        what: "(e) the first scheduled run's wall time over the run by hand",
      },
    },
    `sandbox latency ${LATENCY} ms a request; ${ROWS}-row column of ${UNIQUE} unique handles; the built add-on in the Apps Script stand-in; load average ${loadBefore} at the start, ${load1()} at the end`,
  );
saveRecords(
  'bundle',
  bundleFigures(bundle, evalMs),
  `the built sheets-addon/dist/bundle.js; evaluation: median of 30 in a fresh V8 context, during npm run bench:sheets; load average ${load1()}`,
);
process.exit(checks.every((c) => c[1]) ? 0 : 1);
