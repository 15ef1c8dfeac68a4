#!/usr/bin/env node
// `npm run bench:background`: a sidebar bulk run that the hourly trigger finishes (sheets-addon/README.md,
// "Background bulk runs"), with fetches that take time. N profile targets in a column (the sandbox's
// accounts first, then unknown handles, billed 404s: every target is one credit), the BUILT add-on in
// the Apps Script stand-in against the sandbox (a child process). The sidebar starts the run and
// steps it once, then closes (nobody steps it any more, as in test/sheets/schedules.test.ts); the
// clock is moved one hour at a time and the add-on's hourly trigger continues the run. The stand-in's
// clock is real time plus an offset, so the sandbox's latency counts against each trigger
// execution's time, as Google's fetch times would. Printed: the rows each hourly run finished, how
// many hourly runs the job took, the credits billed at the sandbox (must equal N), and the same job
// with no added latency in the same run (what the jest test sees).
//
//   npm run bench:background                                   # 3,000 targets, 6,000 ms a request
//   npm run bench:background -- --targets 20000 --latency-ms 6000
//
// Requests of one batch (UrlFetchApp.fetchAll, 50 requests) run concurrently, so a latency of L ms
// per request is about L ms a batch. It takes real time: 3,000 targets at 6,000 ms are 60 batches,
// about 6 minutes.
import { columnRuntime } from './addon-runtime.mjs';
import { loadGasRuntime } from '../gas-standin/load.mjs';
import { startSandboxChild } from './sandbox-child.mjs';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { load1, saveRecords } from './records.mjs';

const USAGE = `usage: npm run bench:background -- [--targets N] [--latency-ms L]
  --targets N      profile targets in the column, 1-200000 (default 3000)
  --latency-ms L   latency the sandbox adds to every request, 0-600000 ms (default 6000);
                   the comparison run is the same job at 0 ms (skipped when L is 0)`;

function flags(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        targets: { type: 'string', default: '3000' },
        'latency-ms': { type: 'string', default: '6000' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    console.error(`${e.message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (name, min, max) => {
    const text = values[name];
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max) {
      console.error(`--${name} must be a whole number from ${min} to ${max}; got ${JSON.stringify(text)}.\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  return { targets: int('targets', 1, 200000), latencyMs: int('latency-ms', 0, 600000) };
}

const { targets: N, latencyMs: LATENCY } = flags(process.argv.slice(2));
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'sheets-addon', 'dist');
const HOUR = 3600000;
const BATCH = 50;
const KEY = 'sk_bench_background_0123456789';

if (!existsSync(join(dist, 'bundle.js')) || !existsSync(join(root, 'dist', 'sandbox.mjs'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}
// The production address, from core (built by npm run build): the stand-in's requests to it go to the sandbox.
const { DEFAULT_BASE_URL: PROD } = await import(pathToFileURL(join(root, 'dist', 'core.mjs')).href);
const { createGasRuntime } = await loadGasRuntime();
const cache = join(root, 'node_modules', '.cache', 'igdata-bench');
mkdirSync(cache, { recursive: true });

// ---- the sandbox, in a child process (UrlFetchApp blocks this thread): sandbox-child.mjs
const startSandbox = () => startSandboxChild(root, { key: KEY });

// ---- the column: the sandbox's accounts, then unknown handles (each a billed 404): N distinct targets
const { startSandbox: inProcess } = await import(pathToFileURL(join(root, 'dist', 'sandbox-lib.mjs')).href);
const tmp = await inProcess({ port: 0, quiet: true });
const known = tmp.world.accounts.map((a) => a.username);
await tmp.close();
const column = [
  ...known.slice(0, N),
  ...Array.from({ length: Math.max(0, N - known.length) }, (_, i) => `nohandle_${i}`),
];
const knownInColumn = Math.min(N, known.length);

const sb = await startSandbox();

/** Sheet1: the column from A2, selected, the sidebar opened (addon-runtime.mjs). */
const sheetRuntime = () => columnRuntime({ createGasRuntime, sb, key: KEY, dist, prod: PROD }, column);

const fmt = (n) => n.toLocaleString('en-US');

/** One whole job at `latencyMs` a request: the sidebar's one step, then hourly trigger runs until it is done. */
async function job(latencyMs) {
  await sb.setLatency(latencyMs);
  await sb.reset();
  const rt = sheetRuntime();
  const trigger = rt.triggers.installed[0];
  if (!trigger) throw new Error('the sidebar installed no hourly trigger');
  console.log(`\n${fmt(N)} targets, sandbox latency ${fmt(latencyMs)} ms a request`);

  let j = rt.call('igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'beside' });
  let t0 = performance.now();
  let fetchAlls = rt.stats.fetchAllCalls;
  j = rt.call('igBulkStep', j.id);
  const sidebar = { rows: j.next, ms: Math.round(performance.now() - t0), batches: rt.stats.fetchAllCalls - fetchAlls };
  console.log(
    `  sidebar step (then the sidebar closes): ${fmt(sidebar.rows)} rows, ${fmt(sidebar.ms)} ms, ${sidebar.batches} batches`,
  );

  const hourly = [];
  // Every hourly run does at least one batch; a run that does nothing three hours in a row is a failure.
  let idle = 0;
  while (j.status === 'running' && idle < 3) {
    const before = {
      next: j.next,
      credits: (await sb.stats()).creditsBilled,
      runs: trigger.runs.length,
      execs: rt.executions.length,
      batches: rt.stats.fetchAllCalls,
    };
    t0 = performance.now();
    rt.advance(HOUR);
    const wall = performance.now() - t0;
    j = rt.call('igBulkStatus');
    const after = (await sb.stats()).creditsBilled;
    const runs = trigger.runs.slice(before.runs);
    const execs = rt.executions.slice(before.execs).filter((e) => e.fnName === trigger.handler);
    const h = {
      hour: hourly.length + 1,
      rows: j.next - before.next,
      credits: after - before.credits,
      batches: rt.stats.fetchAllCalls - before.batches,
      triggerRuns: runs.length,
      ok: runs.every((r) => r.ok),
      errors: runs.filter((r) => !r.ok).map((r) => r.error),
      executionMs: Math.round(execs.reduce((a, e) => a + e.ms, 0)),
      wallMs: Math.round(wall),
      doneAfter: j.next,
    };
    hourly.push(h);
    idle = h.rows === 0 ? idle + 1 : 0;
    console.log(
      `  hourly run ${h.hour}: ${fmt(h.rows).padStart(6)} rows (${fmt(h.doneAfter)} of ${fmt(N)} done), ${fmt(h.credits)} credits, ${h.batches} batches, trigger execution ${fmt(h.executionMs)} ms${h.ok ? '' : `, FAILED: ${h.errors.join('; ')}`}`,
    );
  }

  const values = rt.spreadsheet
    .sheet('Sheet1')
    .getValues(`B2:B${N + 1}`)
    .map((r) => r[0]);
  const written = values.filter((v) => v !== '' && v !== null && v !== undefined).length;
  const credits = (await sb.stats()).creditsBilled;
  await rt.close();
  const full = hourly.filter((h) => h.doneAfter < N); // hourly runs that used their whole budget
  const result = {
    latencyMs,
    sidebar,
    hourly,
    hourlyRuns: hourly.length,
    status: j.status,
    message: j.message ?? null,
    jobCredits: j.credits,
    credits,
    cellsWritten: written,
    rowsPerFullHourlyRun: full.length ? Math.round(full.reduce((a, h) => a + h.rows, 0) / full.length) : null,
  };
  console.log(
    `  => ${j.status}: ${result.hourlyRuns} hourly run(s) after the sidebar's step; ${fmt(credits)} credits billed at the sandbox; ${fmt(written)} cells written`,
  );
  return result;
}

const loadBefore = load1();
const measured = await job(LATENCY);
const baseline = LATENCY === 0 ? null : await job(0);
sb.close();

const derived = (r) => {
  if (!r.rowsPerFullHourlyRun) return null;
  return {
    rowsPerHourlyRun: r.rowsPerFullHourlyRun,
    hourlyRunsFor20000: Math.ceil(Math.max(0, 20000 - r.sidebar.rows) / r.rowsPerFullHourlyRun),
  };
};
const d = derived(measured);
console.log('\nsummary');
for (const r of [measured, baseline].filter(Boolean)) {
  const then = r.hourlyRuns
    ? `then ${r.hourly.map((h) => fmt(h.rows)).join(' + ')} rows in ${r.hourlyRuns} hourly run(s)`
    : 'no hourly run needed';
  console.log(
    `  ${fmt(r.latencyMs).padStart(6)} ms a request: sidebar step ${fmt(r.sidebar.rows)} rows, ${then}; ${fmt(r.credits)} credits`,
  );
}
if (d)
  console.log(
    `  derived (not measured): at ${fmt(LATENCY)} ms a batch a full hourly run does about ${fmt(d.rowsPerHourlyRun)} rows, so 20,000 targets would take about ${d.hourlyRunsFor20000} hourly runs`,
  );

const checks = [
  [
    `credits = targets (${fmt(N)}), ${fmt(LATENCY)} ms`,
    measured.credits === N && measured.jobCredits === N,
    `${measured.credits} billed, job says ${measured.jobCredits}`,
  ],
  [
    `every row written once, ${fmt(LATENCY)} ms`,
    measured.status === 'done' && measured.cellsWritten === N,
    `${measured.status}, ${measured.cellsWritten} cells`,
  ],
  [
    `every hourly run within its limits, ${fmt(LATENCY)} ms`,
    measured.hourly.every((h) => h.ok),
    measured.hourly.map((h) => `${h.executionMs} ms`).join(', ') || 'none ran',
  ],
];
if (baseline) {
  checks.push(
    ['credits = targets, 0 ms', baseline.credits === N && baseline.jobCredits === N, `${baseline.credits} billed`],
    [
      'every row written once, 0 ms',
      baseline.status === 'done' && baseline.cellsWritten === N,
      `${baseline.status}, ${baseline.cellsWritten} cells`,
    ],
  );
}
for (const [name, ok, v] of checks) console.log(`${ok ? 'PASS' : 'FAIL'}  ${name}: ${v}`);
const file = join(cache, 'sheets-background.json');
writeFileSync(
  file,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      targets: N,
      knownAccounts: knownInColumn,
      batch: BATCH,
      measured,
      baseline,
      derived: d,
      checks,
    },
    null,
    2,
  ),
);
console.log(`\nresults: ${file}`);
/** A job's figures, keyed by its targets and latency (`background.3000-6000.hourly1.s`): each configuration keeps its own. */
const figuresOf = (r) => {
  const k = `background.${N}-${r.latencyMs}`;
  const at = `${fmt(N)} targets, ${fmt(r.latencyMs)} ms a request`;
  const out = {
    [`${k}.step.rows`]: { value: r.sidebar.rows, unit: 'rows', what: `the sidebar's one step, rows written (${at})` },
    [`${k}.step.s`]: {
      value: Number((r.sidebar.ms / 1000).toFixed(1)),
      unit: 's',
      decimals: 1,
      what: `the sidebar's one step, wall time (${at})`,
    },
    [`${k}.runs`]: {
      value: r.hourlyRuns,
      unit: 'hourly runs',
      what: `hourly runs the trigger took to finish the job (${at})`,
    },
  };
  r.hourly.forEach((h) => {
    out[`${k}.hourly${h.hour}.rows`] = {
      value: h.rows,
      unit: 'rows',
      what: `hourly run ${h.hour}, rows written (${at})`,
    };
    out[`${k}.hourly${h.hour}.s`] = {
      value: Number((h.executionMs / 1000).toFixed(1)),
      unit: 's',
      decimals: h.executionMs < 10000 ? 1 : 0,
      what: `hourly run ${h.hour}, its trigger execution (${at})`,
    };
  });
  const batches = r.hourly.reduce((a, h) => a + h.batches, 0);
  if (batches && r.latencyMs) {
    const ms = r.hourly.reduce((a, h) => a + h.executionMs, 0) / batches;
    out[`${k}.batch.s`] = {
      value: Number((ms / 1000).toFixed(1)),
      unit: 's',
      decimals: 1,
      what: `a batch of 50 in the hourly runs, on average (${at})`,
    };
  }
  return out;
};
saveRecords(
  'background',
  { ...figuresOf(measured), ...(baseline ? figuresOf(baseline) : {}) },
  `the built add-on in the Apps Script stand-in (its clock real time plus an offset), ${fmt(N)} profile targets; load average ${loadBefore} at the start, ${load1()} at the end`,
);
process.exit(checks.every((c) => c[1]) ? 0 : 1);
