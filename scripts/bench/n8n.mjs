#!/usr/bin/env node
// `npm run bench:n8n`: our node against n8n's own HTTP Request node, inside the same real n8n
// 2.8.4 (one long-running `n8n start`, each execution started by its webhook: n8n-server.mjs),
// against the sandbox with 100 ms latency per request.
//  1. Lookup: 200 input handles (120 unique) -> profile. HTTP Request as a user configures it
//     (GET with query + header, no batching: all requests at once) vs our node at its default
//     concurrency and at 200.
//  2. Paging: 2,000 posts of #veganrecipes (67 pages of 30). HTTP Request's built-in pagination
//     (update the cursor parameter from $response, stop when next_cursor is empty, 67 pages)
//     vs our node's Limit 2000 (same pages).
//  3. Rate limit: the lookup at the default settings against a sandbox that admits 20 requests in
//     flight (429 + Retry-After beyond), twice in the same n8n (n8n-rate-limit.mjs).
// Interleaved rounds: each round runs every workflow of a measurement once (A, B, C, A, B, C, ...,
// the order turned by one each round), after one warm-up execution. Wall time is the node's
// executionTime as n8n records it: the median of the rounds with their interquartile range and
// range; each ratio to the HTTP Request node is taken within a round (same moment of the machine),
// then summarised the same way. Requests, credits and the most requests in flight come from the
// sandbox's counters; our node's free balance read (GET /v1/credits, made when the known work is
// over 10 credits) is counted apart from the requests that do the work, and a page is a request
// to the list's endpoint. The machine's load average is printed with the figures.
//   node scripts/bench/n8n.mjs [--runs=5] [--json]
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build as buildN8n } from '../build/n8n.mjs';
import { parseFlags } from '../lib/cli.mjs';
import { machineLoad, pairedRatio, show, spread } from './rounds.mjs';
import { saveRecords } from './records.mjs';
import { n8nFigures } from './n8n-records.mjs';
import { createN8nHome, ensureN8n, nodeOutput, removeN8nHome } from '../n8n-harness/index.cjs';
import { serveWorkflows } from './n8n-server.mjs';
import { RATE, rateLimitRuns } from './n8n-rate-limit.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const usage =
  'usage: npm run bench:n8n [-- --runs=N] [--json]   --runs: interleaved rounds (each workflow once a round; median and spread), default 5';
const { values: flags } = parseFlags({
  options: { runs: { type: 'string', default: '5' }, json: { type: 'boolean' } },
  usage,
});
const RUNS = Number(flags.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`--runs must be a whole number from 1; got ${JSON.stringify(flags.runs)}\n${usage}`);
  process.exit(2);
}
const LATENCY = 100;
const log = (s) => process.stderr.write(`[bench:n8n] ${s}\n`);

await buildN8n();
if (!existsSync(join(root, 'dist/sandbox-lib.mjs'))) await (await import('../build/sandbox.mjs')).build();
const { startSandbox } = await import(pathToFileURL(join(root, 'dist/sandbox-lib.mjs')).href);
await ensureN8n();

const sb = await startSandbox({ port: 0, seed: 42, latencyMs: LATENCY });
const limited = await startSandbox({ port: 0, seed: 42, latencyMs: LATENCY, rateLimitInFlight: RATE.inFlight });
const key = sb.createKey(10_000_000);
const CRED = { id: 'igBenchCred01', name: 'IG Data bench' };
const LIMITED = { id: 'igBenchCred02', name: 'IG Data bench, rate-limited' };
// The default case has a credential of its own: the pace it starts at in a round is what its own
// earlier rounds found, not the width the Concurrency 200 case ran at (which it would otherwise share).
const DEFAULT = { id: 'igBenchCred03', name: 'IG Data bench, default settings' };
const home = await createN8nHome({
  packageDir: join(root, 'n8n-node'),
  credentials: [
    { ...CRED, type: 'igDataApi', data: { apiKey: key, baseUrl: sb.url } },
    { ...LIMITED, type: 'igDataApi', data: { apiKey: limited.createKey(10_000_000), baseUrl: limited.url } },
    { ...DEFAULT, type: 'igDataApi', data: { apiKey: key, baseUrl: sb.url } },
  ],
});

// 120 public accounts; 200 inputs = the 120 once + 80 repeats written differently.
const accounts = [...sb.world.byUsername.values()]
  .filter((a) => !a.is_private)
  .map((a) => a.username)
  .slice(0, 120);
if (accounts.length < 120) throw new Error(`the sandbox world has only ${accounts.length} public accounts`);
const handles = [...accounts, ...accounts.slice(0, 80).map((h, i) => (i % 2 ? `@${h}` : h.toUpperCase()))];

const manual = {
  id: 'm',
  name: 'Start',
  type: 'n8n-nodes-base.manualTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};
const input = (list) => ({
  id: 'c',
  name: 'Input',
  type: 'n8n-nodes-base.code',
  typeVersion: 2,
  position: [200, 0],
  parameters: { jsCode: `return ${JSON.stringify(list)}.map((handle) => ({ json: { handle } }));` },
});
const wf = (nodes) => ({
  name: 'bench',
  nodes: [manual, ...nodes],
  connections: Object.fromEntries(
    [manual, ...nodes]
      .slice(0, -1)
      .map((n, i) => [n.name, { main: [[{ node: nodes[i].name, type: 'main', index: 0 }]] }]),
  ),
});
const httpNode = (parameters) => ({
  id: 'h',
  name: 'Under test',
  type: 'n8n-nodes-base.httpRequest',
  typeVersion: 4.2,
  position: [400, 0],
  parameters,
});
const igNode = (parameters, credential = CRED) => ({
  id: 'i',
  name: 'Under test',
  type: 'n8n-nodes-igdata.igData',
  typeVersion: 1,
  position: [400, 0],
  parameters,
  credentials: { igDataApi: credential },
});
const auth = {
  sendHeaders: true,
  headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${key}` }] },
};

const CASES = {
  lookup: {
    'HTTP Request node': wf([
      input(handles),
      httpNode({
        url: `${sb.url}/v1/profile`,
        sendQuery: true,
        queryParameters: { parameters: [{ name: 'handle', value: '={{ $json.handle }}' }] },
        ...auth,
        options: {},
      }),
    ]),
    'IG Data node (default concurrency)': wf([
      input(handles),
      igNode({ resource: 'profile', operation: 'profile', handle: '={{ $json.handle }}' }, DEFAULT),
    ]),
    'IG Data node (concurrency 200)': wf([
      input(handles),
      igNode({
        resource: 'profile',
        operation: 'profile',
        handle: '={{ $json.handle }}',
        options: { concurrency: 200 },
      }),
    ]),
  },
  paging: {
    'HTTP Request node (pagination)': wf([
      httpNode({
        url: `${sb.url}/v1/hashtag/recent`,
        sendQuery: true,
        queryParameters: { parameters: [{ name: 'tag', value: 'veganrecipes' }] },
        ...auth,
        options: {
          pagination: {
            pagination: {
              paginationMode: 'updateAParameterInEachRequest',
              parameters: {
                parameters: [{ type: 'qs', name: 'cursor', value: '={{ $response.body.data.next_cursor }}' }],
              },
              paginationCompleteWhen: 'other',
              completeExpression: '={{ !$response.body.data.next_cursor }}',
              limitPagesFetched: true,
              maxRequests: 67,
            },
          },
        },
      }),
    ]),
    'IG Data node (Limit 2000)': wf([
      igNode({ resource: 'hashtag', operation: 'hashtag/recent', tag: 'veganrecipes', returnAll: false, limit: 2000 }),
    ]),
  },
};

const RATE_LIMITED = wf([
  input(handles),
  igNode({ resource: 'profile', operation: 'profile', handle: '={{ $json.handle }}' }, LIMITED),
]);
const server = await serveWorkflows(home, {
  ...Object.fromEntries(Object.values(CASES).flatMap((cases) => Object.entries(cases))),
  'rate-limited': RATE_LIMITED,
});

const BALANCE_READ = 'credits'; // the free endpoint our node reads before work over 10 credits
const LIST = 'hashtag/recent';
/** One execution: the node's time and what the sandbox saw. */
async function measure(bench, name) {
  sb.resetStats();
  const r = await server.run(name === 'warm-up' ? Object.keys(CASES.lookup)[0] : name);
  if (!r.ok) throw new Error(`${name}: run failed: ${JSON.stringify(r.error).slice(0, 500)}`);
  const task = r.run.data.resultData.runData['Under test'][0];
  const items = nodeOutput(r.run, 'Under test');
  const s = sb.stats();
  const balanceReads = s.byEndpoint[BALANCE_READ] ?? 0;
  return {
    ms: task.executionTime,
    requests: s.total - balanceReads,
    balanceReads,
    pages: bench === 'paging' ? (s.byEndpoint[LIST] ?? 0) : undefined,
    credits: s.creditsBilled,
    maxInFlight: s.maxInFlight,
    items: items.length,
    posts:
      bench === 'paging'
        ? name.startsWith('HTTP')
          ? items.reduce((n, it) => n + (it.data?.items?.length ?? 0), 0)
          : items.length
        : undefined,
  };
}

const loadBefore = machineLoad();
const rounds = Object.fromEntries(
  Object.entries(CASES).map(([bench, cases]) => [
    bench,
    Object.fromEntries(Object.keys(cases).map((name) => [name, []])),
  ]),
);
let limit;
try {
  log(`warm-up: one execution (not counted); ${loadBefore}`);
  await measure('lookup', 'warm-up');
  for (let r = 0; r < RUNS; r++) {
    for (const [bench, cases] of Object.entries(CASES)) {
      const names = Object.keys(cases);
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + r) % names.length];
        const m = await measure(bench, name);
        rounds[bench][name].push(m);
        log(
          `round ${r + 1}/${RUNS}  ${bench.padEnd(7)} ${name.padEnd(36)} ${String(m.ms).padStart(6)} ms  requests ${m.requests} (+${m.balanceReads} balance read)  credits ${m.credits}  max in flight ${m.maxInFlight}`,
        );
      }
    }
  }
  log(`rate limit: ${RATE.inFlight} in flight; the first execution, then the second 10 s later`);
  limit = await rateLimitRuns(server, limited, 'rate-limited', { latencyMs: LATENCY, inputs: 200, pauseMs: 10_000 });
} finally {
  await server.stop();
  removeN8nHome(home);
  await sb.close();
  await limited.close();
}
const loadAfter = machineLoad();

/**
 * The latency floor of a run: its round trips (balance reads, then the requests in waves of the
 * most in flight) times the sandbox's latency. What a workflow takes beyond it is n8n's and the
 * node's own time.
 */
const floorOf = (run) => (run.balanceReads + Math.ceil(run.requests / Math.max(1, run.maxInFlight))) * LATENCY;

/** A row: the rounds of one workflow summarised; `ratio` against its measurement's first workflow (the HTTP Request node), round by round. */
const results = Object.entries(rounds).flatMap(([bench, byName]) => {
  const baseline = Object.values(byName)[0];
  return Object.entries(byName).map(([name, runs], k) => {
    const last = runs[runs.length - 1];
    const same = (key) =>
      runs.every((x) => x[key] === last[key])
        ? last[key]
        : `${Math.min(...runs.map((x) => x[key]))}-${Math.max(...runs.map((x) => x[key]))}`;
    return {
      bench,
      name,
      ms: spread(runs.map((x) => x.ms)),
      ratio:
        k === 0
          ? undefined
          : pairedRatio(
              baseline.map((x) => x.ms),
              runs.map((x) => x.ms),
            ),
      floorMs: spread(runs.map(floorOf)),
      beyondFloorMs: spread(runs.map((x) => x.ms - floorOf(x))),
      maxInFlight: spread(runs.map((x) => x.maxInFlight)),
      requests: same('requests'),
      balanceReads: same('balanceReads'),
      pages: bench === 'paging' ? same('pages') : undefined,
      credits: same('credits'),
      items: same('items'),
      posts: bench === 'paging' ? same('posts') : undefined,
      runs,
    };
  });
});

const get = (bench, prefix) => results.find((r) => r.bench === bench && r.name.startsWith(prefix));
const http = get('lookup', 'HTTP');
const def = get('lookup', 'IG Data node (default');
const c200 = get('lookup', 'IG Data node (concurrency 200');
const hp = get('paging', 'HTTP');
const ip = get('paging', 'IG Data');
const UNIQUE = 120;
const FIRST_WAVE = 50; // core/src/pace.ts
const PAGES = 67;
const all = (row, ok) => row.runs.every(ok);
const x = (s) => show(s, { digits: 2, unit: 'x' });
const ms = (s, rounds = true) => show(s, { unit: 'ms', rounds });
const c200Beyond = pairedRatio(
  http.runs.map((r) => r.ms - floorOf(r)),
  c200.runs.map((r) => r.ms - floorOf(r)),
);
// The default case's first execution in the process (round 1: its balance read and the first wave
// of 50) apart from the later ones, which start at the width the earlier ones learned.
const defFirst = pairedRatio([http.runs[0].ms], [def.runs[0].ms]);
const defLater = pairedRatio(
  http.runs.slice(1).map((r) => r.ms),
  def.runs.slice(1).map((r) => r.ms),
);
const balanceReads = [def, c200, ip].reduce((n, row) => n + row.runs.reduce((m, r) => m + r.balanceReads, 0), 0);
const checks = [
  [
    'lookup: credits exactly 120, every round',
    all(def, (r) => r.credits === UNIQUE) && all(c200, (r) => r.credits === UNIQUE),
    `${def.credits} / ${c200.credits} (HTTP Request: ${http.credits})`,
  ],
  [
    'lookup and paging: the balance read at most once a credential in the process (then an answer has told it)',
    balanceReads <= 2,
    `${balanceReads} in ${RUNS * 3} executions`,
  ],
  [
    `lookup: the default starts at ${FIRST_WAVE} in flight and grows past it, every round`,
    all(def, (r) => r.maxInFlight > FIRST_WAVE),
    show(def.maxInFlight),
  ],
  [
    `lookup: concurrency 200 has all ${UNIQUE} unique requests in flight at once, every round`,
    all(c200, (r) => r.maxInFlight === UNIQUE),
    show(c200.maxInFlight),
  ],
  [
    `lookup: the default after its first execution has all ${UNIQUE} unique requests in flight at once, every round`,
    RUNS < 2 || def.runs.slice(1).every((r) => r.maxInFlight === UNIQUE),
    show(spread(def.runs.slice(1).map((r) => r.maxInFlight))),
  ],
  [
    'lookup: the default <= 1.0x of HTTP Request (median of paired rounds)',
    def.ratio.median <= 1,
    `${x(def.ratio)}; its first execution in the process ${x(defFirst)}, the later ones ${RUNS < 2 ? '-' : x(defLater)}`,
  ],
  [
    'lookup: concurrency 200 <= 0.8x of HTTP Request (median of paired rounds)',
    c200.ratio.median <= 0.8,
    x(c200.ratio),
  ],
  [
    `paging: ${PAGES} pages and 2,000 posts, every round`,
    all(ip, (r) => r.pages === PAGES && r.posts === 2000) && all(hp, (r) => r.pages === PAGES),
    `${ip.pages} pages, ${ip.posts} posts (HTTP Request: ${hp.pages} pages)`,
  ],
  ['paging: Limit 2000 <= 1.0x of HTTP Request (median of paired rounds)', ip.ratio.median <= 1, x(ip.ratio)],
  [
    'paging: within 1.1x of its latency floor, pages (+ a balance read) (median of rounds)',
    spread(ip.runs.map((r) => r.ms / floorOf(r))).median <= 1.1,
    `${x(spread(ip.runs.map((r) => r.ms / floorOf(r))))}; floor ${ip.floorMs.median.toLocaleString('en-US')} ms`,
  ],
  ...limit.checks,
];

const table = [
  `\n## n8n benchmark (n8n 2.8.4, sandbox latency ${LATENCY} ms; ${RUNS} interleaved rounds; median (IQR, range) of the rounds)\n`,
  `Before: ${loadBefore}. After: ${loadAfter}.\n`,
  '| workflow | wall time | vs HTTP Request, paired rounds | latency floor (round trips x latency) | beyond the floor | requests (+ balance reads) | credits | most in flight |',
  '|---|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.bench}: ${r.name} | ${ms(r.ms)} | ${r.ratio ? x(r.ratio) : 'baseline'} | ${r.floorMs.min === r.floorMs.max ? `${r.floorMs.median.toLocaleString('en-US')} ms` : ms(r.floorMs, false)} | ${ms(r.beyondFloorMs, false)} | ` +
      `${r.bench === 'paging' ? `${r.pages} pages` : r.requests}${r.balanceReads ? ` (+${r.balanceReads})` : ''} | ${r.credits} | ${show(r.maxInFlight, { rounds: false })} |`,
  ),
];
process.stderr.write(`${table.join('\n')}\n\n`);
for (const [what, ok, detail] of checks) log(`${ok ? 'PASS' : 'FAIL'}  ${what}: ${detail}`);
if (flags.json)
  process.stdout.write(
    JSON.stringify({ latencyMs: LATENCY, runs: RUNS, loadBefore, loadAfter, results, limit, checks }, null, 2) + '\n',
  );
saveRecords(
  'n8n',
  n8nFigures({ http, c200, c200Beyond, def, defFirst, defLater, hp, ip, limit, floorOf }),
  `real n8n 2.8.4 (one long-running n8n start, executions by webhook), sandbox latency ${LATENCY} ms a request, ${RUNS} interleaved rounds after a warm-up; before: ${loadBefore}; after: ${loadAfter}`,
);
process.exitCode = checks.every((c) => c[1]) ? 0 : 1;
