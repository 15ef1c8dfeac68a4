#!/usr/bin/env node
// `npm run bench`: what the core costs per request, next to the obvious alternative (a bare
// fetch + JSON.parse of the same sandbox endpoint) in the same run, and the sandbox's throughput
// under a load generator (autocannon). Prints a table of figures and ratios.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), 'sandbox'], { stdio: 'inherit' });
const core = await import(join(root, 'dist/core.mjs'));
const { startSandbox } = await import(join(root, 'dist/sandbox-lib.mjs'));

const sandbox = await startSandbox({ port: 0, quiet: true });
const config = { apiKey: sandbox.demoKey, baseUrl: sandbox.url };
const handles = ['nasa', 'natgeo'];
const N = Number(process.env.BENCH_N ?? 2000);

const now = () => performance.now();
async function timeAsync(label, n, fn) {
  for (let i = 0; i < 50; i++) await fn(i); // warm-up
  const t0 = now();
  for (let i = 0; i < n; i++) await fn(i);
  const ms = now() - t0;
  return { label, n, totalMs: ms, perOpUs: (ms * 1000) / n };
}
function timeSync(label, n, fn) {
  for (let i = 0; i < 1000; i++) fn(i);
  const t0 = now();
  for (let i = 0; i < n; i++) fn(i);
  const ms = now() - t0;
  return { label, n, totalMs: ms, perOpUs: (ms * 1000) / n };
}

// 1. End to end over loopback HTTP: bare fetch + JSON.parse vs the core client (+ flatten).
// Interleaved rounds (A, B, A, B, ...) and the median round, so warm-up and drift hit both alike.
const headers = { authorization: `Bearer ${sandbox.demoKey}` };
const client = core.createClient(config);
const bareOp = async (i) => {
  const res = await fetch(`${sandbox.url}/v1/profile?handle=${handles[i % 2]}`, { headers });
  JSON.parse(await res.text());
};
const oursOp = async (i) => {
  const r = await client.call('profile', { handle: handles[i % 2] });
  core.flatten(r.data);
};
const ROUNDS = 7;
const rounds = { bare: [], ours: [] };
for (let r = 0; r < ROUNDS; r++) {
  rounds.bare.push(await timeAsync('bare', Math.ceil(N / ROUNDS), bareOp));
  rounds.ours.push(await timeAsync('ours', Math.ceil(N / ROUNDS), oursOp));
}
const median = (list) => [...list].sort((a, b) => a.perOpUs - b.perOpUs)[Math.floor(list.length / 2)];
const bare = { ...median(rounds.bare), label: 'bare fetch + JSON.parse (median of 7 rounds)', n: N };
const ours = { ...median(rounds.ours), label: 'core client (validate, build, retry policy, parse, schema) + flatten (median of 7 rounds)', n: N };

// 2. The core's own CPU cost with the network taken out: the same recorded response body.
const body = await (await fetch(`${sandbox.url}/v1/profile?handle=nasa`, { headers })).text();
const postsBody = await (await fetch(`${sandbox.url}/v1/profile/posts?handle=nasa`, { headers })).text();
const canned = (b) => ({ fetch: () => ({ status: 200, headers: {}, body: b }), fetchAll: (rs) => rs.map(() => ({ status: 200, headers: {}, body: b })), sleep() {} });
const M = N * 20;
const parseOnly = timeSync('JSON.parse only (profile)', M, () => JSON.parse(body));
const coreOnly = timeSync('core: resolve + build + parse + validate + flatten (profile)', M, (i) => {
  const r = core.runSync(core.request(config, 'profile', { handle: i % 2 ? '@NASA' : 'https://www.instagram.com/nasa/' }), canned(body));
  core.flatten(r.data);
});
const parseList = timeSync('JSON.parse only (page of posts)', M / 10, () => JSON.parse(postsBody));
const coreList = timeSync('core: same, page of posts + toRows', M / 10, () => {
  const r = core.runSync(core.request(config, 'profile/posts', { handle: 'nasa' }), canned(postsBody));
  core.toRows(r.items, ['shortcode', 'like_count', 'author.username', 'location.name']);
});

// 3. Sandbox throughput under load (autocannon, 50 connections, keep-alive).
const load = await autocannon({
  url: `${sandbox.url}/v1/profile?handle=nasa`,
  headers,
  connections: 50,
  duration: Number(process.env.BENCH_SECONDS ?? 5),
});
await sandbox.close();

const row = (r) => `| ${r.label} | ${r.n} | ${r.perOpUs.toFixed(1)} µs |`;
console.log('\n## Core benchmark\n');
console.log('| measurement | ops | per op |\n|---|---|---|');
for (const r of [bare, ours, parseOnly, coreOnly, parseList, coreList]) console.log(row(r));
console.log('\n| ratio | value |\n|---|---|');
console.log(`| core client / bare fetch, end to end over loopback | ${(ours.perOpUs / bare.perOpUs).toFixed(2)}x |`);
console.log(`| core CPU overhead per request (profile), beyond JSON.parse | ${(coreOnly.perOpUs - parseOnly.perOpUs).toFixed(1)} µs (${(coreOnly.perOpUs / parseOnly.perOpUs).toFixed(1)}x of JSON.parse alone) |`);
console.log(`| core CPU overhead per page of posts, beyond JSON.parse | ${(coreList.perOpUs - parseList.perOpUs).toFixed(1)} µs (${(coreList.perOpUs / parseList.perOpUs).toFixed(1)}x) |`);
console.log(`\n## Sandbox throughput (autocannon, 50 connections, ${load.duration}s)\n`);
console.log(`| requests/s (mean) | latency p50 | latency p99 | errors | non-2xx |\n|---|---|---|---|---|`);
console.log(`| ${Math.round(load.requests.average)} | ${load.latency.p50} ms | ${load.latency.p99} ms | ${load.errors} | ${load.non2xx} |`);
