#!/usr/bin/env node
// `npm run bench:n8n`: our node against n8n's own HTTP Request node, inside the same real n8n
// 2.8.4 (headless `n8n execute`), against the sandbox with 100 ms latency per request.
//  1. Lookup: 200 input handles (120 unique) -> profile. HTTP Request as a user configures it
//     (GET with query + header, no batching: all requests at once) vs our node at its default
//     concurrency and at 200.
//  2. Paging: 2,000 posts of #veganrecipes (67 pages of 30). HTTP Request's built-in pagination
//     (update the cursor parameter from $response, stop when next_cursor is empty, 67 pages)
//     vs our node's Limit 2000 (same pages).
// Wall time is the node's executionTime as n8n records it in the run (median of RUNS); requests,
// credits and the most requests in flight come from the sandbox's counters.
//   node scripts/bench/n8n.mjs [--runs=3] [--json]
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build as buildN8n } from '../build/n8n.mjs';
import { parseFlags } from '../lib/cli.mjs';
import { createN8nHome, ensureN8n, nodeOutput, removeN8nHome, runWorkflow } from '../n8n-harness/index.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const usage = 'usage: npm run bench:n8n [-- --runs=N] [--json]   --runs: runs per measurement (median), default 3';
const { values: flags } = parseFlags({ options: { runs: { type: 'string', default: '3' }, json: { type: 'boolean' } }, usage });
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
const key = sb.createKey(10_000_000);
const CRED = { id: 'igBenchCred01', name: 'IG Data bench' };
const home = await createN8nHome({
  packageDir: join(root, 'n8n-node'),
  credentials: [{ ...CRED, type: 'igDataApi', data: { apiKey: key, baseUrl: sb.url, authHeader: 'bearer' } }],
});

// 120 public accounts; 200 inputs = the 120 once + 80 repeats written differently.
const accounts = [...sb.world.byUsername.values()].filter((a) => !a.is_private).map((a) => a.username).slice(0, 120);
if (accounts.length < 120) throw new Error(`the sandbox world has only ${accounts.length} public accounts`);
const handles = [...accounts, ...accounts.slice(0, 80).map((h, i) => (i % 2 ? `@${h}` : h.toUpperCase()))];

const manual = { id: 'm', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
const input = (list) => ({ id: 'c', name: 'Input', type: 'n8n-nodes-base.code', typeVersion: 2, position: [200, 0], parameters: { jsCode: `return ${JSON.stringify(list)}.map((handle) => ({ json: { handle } }));` } });
const wf = (nodes) => ({
  name: 'bench',
  nodes: [manual, ...nodes],
  connections: Object.fromEntries([manual, ...nodes].slice(0, -1).map((n, i) => [n.name, { main: [[{ node: nodes[i].name, type: 'main', index: 0 }]] }])),
});
const httpNode = (parameters) => ({ id: 'h', name: 'Under test', type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, position: [400, 0], parameters });
const igNode = (parameters) => ({ id: 'i', name: 'Under test', type: 'n8n-nodes-igdata.igData', typeVersion: 1, position: [400, 0], parameters, credentials: { igDataApi: CRED } });
const auth = { sendHeaders: true, headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${key}` }] } };

const CASES = {
  lookup: {
    'HTTP Request node': wf([input(handles), httpNode({ url: `${sb.url}/v1/profile`, sendQuery: true, queryParameters: { parameters: [{ name: 'handle', value: '={{ $json.handle }}' }] }, ...auth, options: {} })]),
    'IG Data node (default concurrency)': wf([input(handles), igNode({ resource: 'profile', operation: 'profile', handle: '={{ $json.handle }}' })]),
    'IG Data node (concurrency 200)': wf([input(handles), igNode({ resource: 'profile', operation: 'profile', handle: '={{ $json.handle }}', options: { concurrency: 200 } })]),
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
              parameters: { parameters: [{ type: 'qs', name: 'cursor', value: '={{ $response.body.data.next_cursor }}' }] },
              paginationCompleteWhen: 'other',
              completeExpression: '={{ !$response.body.data.next_cursor }}',
              limitPagesFetched: true,
              maxRequests: 67,
            },
          },
        },
      }),
    ]),
    'IG Data node (Limit 2000)': wf([igNode({ resource: 'hashtag', operation: 'hashtag/recent', tag: 'veganrecipes', returnAll: false, limit: 2000 })]),
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = [];
try {
  for (const [bench, cases] of Object.entries(CASES)) {
    for (const [name, workflow] of Object.entries(cases)) {
      const samples = [];
      for (let i = 0; i < RUNS; i++) {
        sb.resetStats();
        const r = await runWorkflow(home, workflow, { timeoutMs: 300_000 });
        if (!r.ok) throw new Error(`${name}: run failed: ${JSON.stringify(r.error).slice(0, 500)}`);
        const task = r.run.data.resultData.runData['Under test'][0];
        const items = nodeOutput(r.run, 'Under test');
        const posts = bench === 'paging' ? (name.startsWith('HTTP') ? items.reduce((n, it) => n + (it.data?.items?.length ?? 0), 0) : items.length) : items.length;
        const s = sb.stats();
        samples.push({ ms: task.executionTime, requests: s.total, credits: s.creditsBilled, maxInFlight: s.maxInFlight, items: items.length, posts });
      }
      const ms = median(samples.map((x) => x.ms));
      const row = { bench, name, ms, samples: samples.map((x) => x.ms), ...samples[samples.length - 1] };
      row.ms = ms;
      results.push(row);
      log(`${bench.padEnd(7)} ${name.padEnd(36)} ${String(ms).padStart(6)} ms  requests ${row.requests}  credits ${row.credits}  max in flight ${row.maxInFlight}  items ${row.items}${bench === 'paging' ? `  posts ${row.posts}` : ''}`);
    }
  }
} finally {
  removeN8nHome(home);
  await sb.close();
}

const get = (bench, prefix) => results.find((r) => r.bench === bench && r.name.startsWith(prefix));
const http = get('lookup', 'HTTP');
const def = get('lookup', 'IG Data node (default');
const c200 = get('lookup', 'IG Data node (concurrency 200');
const hp = get('paging', 'HTTP');
const ip = get('paging', 'IG Data');
const pages = ip.requests;
const checks = [
  ['lookup: credits exactly 120', def.credits === 120 && c200.credits === 120, `${def.credits} / ${c200.credits} (HTTP Request: ${http.credits})`],
  ['lookup: in flight <= concurrency (default 50)', def.maxInFlight <= 50 && c200.maxInFlight <= 200, `${def.maxInFlight} / ${c200.maxInFlight}`],
  ['lookup: default within 1.5x of HTTP Request', def.ms <= 1.5 * http.ms, `${def.ms} ms vs ${http.ms} ms (${(def.ms / http.ms).toFixed(2)}x)`],
  ['lookup: concurrency 200 no slower than HTTP Request', c200.ms <= http.ms, `${c200.ms} ms vs ${http.ms} ms (${(c200.ms / http.ms).toFixed(2)}x)`],
  ['paging: no slower than HTTP Request', ip.ms <= hp.ms, `${ip.ms} ms vs ${hp.ms} ms`],
  ['paging: within 1.1x of pages x latency', ip.ms <= 1.1 * pages * LATENCY, `${ip.ms} ms vs ${pages} x ${LATENCY} ms = ${pages * LATENCY} ms (${(ip.ms / (pages * LATENCY)).toFixed(3)}x)`],
];
for (const [what, ok, detail] of checks) log(`${ok ? 'PASS' : 'FAIL'}  ${what}: ${detail}`);
if (flags.json) process.stdout.write(JSON.stringify({ latencyMs: LATENCY, runs: RUNS, results, checks }, null, 2) + '\n');
process.exitCode = checks.every((c) => c[1]) ? 0 : 1;
