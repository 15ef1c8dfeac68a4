#!/usr/bin/env node
// `npm run bench`: what the core costs per request, next to the obvious alternative (a bare
// fetch + JSON.parse of the same sandbox endpoint) in the same run, and the sandbox's throughput
// under a load generator (autocannon). Prints a table of figures and ratios.
//
// Every row is measured in interleaved rounds: a round alternates small timed blocks of A and B
// (A, B, A, B, ...; B first in every other round: one request per block over loopback, 20 or 2
// calls for the CPU rows), so both sides of a round meet the same moments of a shared machine.
// Per side and round: "typical", the median block (a block the machine paused, by GC or by
// giving the CPU to another process, left out), and "mean", all the round's time. A figure is
// the median of its rounds with their interquartile range and range; a ratio (or difference) is
// taken within each round from the round's own pair, then summarised the same way. The machine's
// load average is printed with the figures.
//   node scripts/bench/core.mjs [--rounds=21] [--requests=2100] [--seconds=5] [--json]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import { parseFlags } from '../lib/cli.mjs';
import { machineLoad, pairedDifference, pairedRatio, show, spread } from './rounds.mjs';
import { fromRounds as fig, saveRecords } from './records.mjs';

const usage =
  'usage: npm run bench [-- --rounds=N] [--requests=N] [--seconds=N] [--json]\n' +
  '  --rounds: interleaved rounds per row (default 21); --requests: loopback requests per side, over all rounds (default 2100);\n' +
  '  --seconds: autocannon rounds of 1 s (default 5); --json: the rounds and summaries on stdout';
const { values: flags } = parseFlags({
  options: {
    rounds: { type: 'string', default: '21' },
    requests: { type: 'string', default: '2100' },
    seconds: { type: 'string', default: '5' },
    json: { type: 'boolean' },
  },
  usage,
});
const whole = (name, min) => {
  const n = Number(flags[name]);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number from ${min}; got ${JSON.stringify(flags[name])}\n${usage}`);
    process.exit(2);
  }
  return n;
};
const ROUNDS = whole('rounds', 1);
const N = whole('requests', ROUNDS);
const SECONDS = whole('seconds', 1);

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), 'sandbox'], { stdio: 'inherit' });
const core = await import(join(root, 'dist/core.mjs'));
const { startSandbox } = await import(join(root, 'dist/sandbox-lib.mjs'));

const loadBefore = machineLoad();
const sandbox = await startSandbox({ port: 0, quiet: true });
const config = { apiKey: sandbox.demoKey, baseUrl: sandbox.url };
const handles = ['nasa', 'natgeo'];

const now = () => performance.now();
/**
 * ROUNDS rounds of a pair. A round alternates `blocks` timed blocks of `ops` operations per side
 * (A, B, A, B, ...; B first in every other round), so both sides meet the same moments of the
 * machine within a millisecond or so. A side's figure for the round is µs per operation over the
 * round (all its blocks: what a GC pause or a moment without the CPU cost, it pays); `typical` is
 * the median block's instead (those moments left out). Returns both, by round.
 */
async function pairRounds(a, b, ops, blocks) {
  const out = { a: [], b: [], typicalA: [], typicalB: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const times = { a: [], b: [] };
    for (let k = 0; k < 2 * blocks; k++) {
      const side = (k + r) % 2 === 0 ? 'a' : 'b';
      const fn = side === 'a' ? a : b;
      const t0 = now();
      for (let i = 0; i < ops; i++) {
        const p = fn(i);
        if (p) await p;
      }
      times[side].push(((now() - t0) * 1000) / ops);
    }
    out.a.push(times.a.reduce((x, y) => x + y, 0) / blocks);
    out.b.push(times.b.reduce((x, y) => x + y, 0) / blocks);
    out.typicalA.push(spread(times.a).median);
    out.typicalB.push(spread(times.b).median);
  }
  return out;
}

// 1. End to end over loopback HTTP: bare fetch + JSON.parse vs the core client (+ flatten).
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
const perRound = Math.ceil(N / ROUNDS);
for (let i = 0; i < 200; i++) await bareOp(i); // first connections, JIT
for (let i = 0; i < 200; i++) await oursOp(i);
const loopback = await pairRounds(bareOp, oursOp, 1, perRound);

// 2. The core's own CPU cost with the network taken out: the same recorded response body.
const body = await (await fetch(`${sandbox.url}/v1/profile?handle=nasa`, { headers })).text();
const postsBody = await (await fetch(`${sandbox.url}/v1/profile/posts?handle=nasa`, { headers })).text();
const canned = (b) => ({
  fetch: () => ({ status: 200, headers: {}, body: b }),
  fetchAll: (rs) => rs.map(() => ({ status: 200, headers: {}, body: b })),
  sleep() {},
});
const M = perRound * 20; // operations per round and side (a tenth for pages)
const parseOnly = () => {
  JSON.parse(body);
};
const coreOnly = (i) => {
  const r = core.driveSync(
    core.request(config, 'profile', { handle: i % 2 ? '@NASA' : 'https://www.instagram.com/nasa/' }),
    canned(body),
  );
  core.flatten(r.data);
};
const parseList = () => {
  JSON.parse(postsBody);
};
const coreList = () => {
  const r = core.driveSync(core.request(config, 'profile/posts', { handle: 'nasa' }), canned(postsBody));
  core.toRows(r.items, ['shortcode', 'like_count', 'author.username', 'location.name']);
};
for (let i = 0; i < 2000; i++) {
  parseOnly(i);
  coreOnly(i);
}
for (let i = 0; i < 200; i++) {
  parseList(i);
  coreList(i);
}
const cpuProfile = await pairRounds(parseOnly, coreOnly, 20, M / 20);
const cpuList = await pairRounds(parseList, coreList, 2, M / 20);

// 3. Sandbox throughput under load (autocannon, 50 connections, keep-alive), in rounds of 1 s.
const load = [];
for (let r = 0; r < SECONDS; r++) {
  const res = await autocannon({ url: `${sandbox.url}/v1/profile?handle=nasa`, headers, connections: 50, duration: 1 });
  load.push({
    rps: res.requests.average,
    p50: res.latency.p50,
    p99: res.latency.p99,
    errors: res.errors,
    non2xx: res.non2xx,
  });
}
await sandbox.close();
const loadAfter = machineLoad();

// Each row: [label, ops per round, the pair it belongs to, side].
const pairs = { loopback, cpuProfile, cpuList };
const rows = [
  ['bare fetch + JSON.parse, `GET /v1/profile` over loopback', perRound, 'loopback', 'a'],
  ['core client (validate, build, retry policy, parse, schema) + flatten, same', perRound, 'loopback', 'b'],
  ['JSON.parse only (profile)', M, 'cpuProfile', 'a'],
  ['core: resolve + build + parse + validate + flatten (profile)', M, 'cpuProfile', 'b'],
  ['JSON.parse only (page of 12 posts)', M / 10, 'cpuList', 'a'],
  ['core: same, page of posts + toRows', M / 10, 'cpuList', 'b'],
].map(([label, ops, pair, side]) => ({
  label,
  opsPerRound: ops,
  typical: spread(pairs[pair][side === 'a' ? 'typicalA' : 'typicalB']),
  mean: spread(pairs[pair][side]),
}));
const ratio = (label, pair, digits) => ({
  label,
  typical: pairedRatio(pairs[pair].typicalA, pairs[pair].typicalB),
  mean: pairedRatio(pairs[pair].a, pairs[pair].b),
  how: { digits, unit: 'x', rounds: false },
});
const beyond = (label, pair) => ({
  label,
  typical: pairedDifference(pairs[pair].typicalA, pairs[pair].typicalB),
  mean: pairedDifference(pairs[pair].a, pairs[pair].b),
  how: { digits: 1, unit: 'µs', rounds: false },
});
const ratios = [
  ratio('core client / bare fetch, end to end over loopback', 'loopback', 2),
  beyond('core CPU per request (profile), beyond JSON.parse', 'cpuProfile'),
  ratio('core CPU per request (profile) / JSON.parse alone', 'cpuProfile', 1),
  beyond('core CPU per page of posts, beyond JSON.parse', 'cpuList'),
  ratio('core CPU per page of posts / JSON.parse alone', 'cpuList', 1),
];
const throughput = {
  rps: spread(load.map((l) => l.rps)),
  p50: spread(load.map((l) => l.p50)),
  p99: spread(load.map((l) => l.p99)),
};

const us = { digits: 1, unit: 'µs', rounds: false };
console.log(
  `\n## Core benchmark\n\n${ROUNDS} rounds per row, each alternating blocks of its two sides. Figures: median of the rounds (IQR, range of the rounds); ` +
    'a ratio or difference is taken within each round, then summarised. "typical": the round\'s median block (pauses left out); ' +
    `"mean": all the round's time (GC pauses and time without the CPU counted).\nBefore: ${loadBefore}. After: ${loadAfter}.\n`,
);
console.log('| measurement | ops per round | per op, typical | per op, mean |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.label} | ${r.opsPerRound} | ${show(r.typical, us)} | ${show(r.mean, us)} |`);
console.log('\n| from paired rounds | typical | mean |\n|---|---|---|');
for (const r of ratios) console.log(`| ${r.label} | ${show(r.typical, r.how)} | ${show(r.mean, r.how)} |`);
console.log(`\n## Sandbox throughput (autocannon, 50 connections, ${SECONDS} rounds of 1 s)\n`);
console.log('| requests/s | latency p50 | latency p99 | errors | non-2xx |\n|---|---|---|---|---|');
console.log(
  `| ${show(throughput.rps, { rounds: false })} | ${show(throughput.p50, { unit: 'ms', rounds: false })} | ${show(throughput.p99, { unit: 'ms', rounds: false })} | ` +
    `${load.reduce((n, l) => n + l.errors, 0)} | ${load.reduce((n, l) => n + l.non2xx, 0)} |`,
);
if (flags.json) {
  const out = {
    rounds: ROUNDS,
    loadBefore,
    loadAfter,
    rows,
    ratios: ratios.map(({ how: _, ...r }) => r),
    throughput,
    rawRounds: { ...pairs, load },
  };
  console.log(JSON.stringify(out, null, 2));
}

saveRecords(
  'core',
  {
    'core.bare.us': fig(rows[0].typical, 'µs', 1, '`GET /v1/profile` over loopback, bare fetch + JSON.parse, typical'),
    'core.client.us': fig(
      rows[1].typical,
      'µs',
      1,
      'the same through the core client (validate, build, retry policy, parse, schema-check) + flatten, typical',
    ),
    'core.client.x': fig(ratios[0].typical, 'x', 2, 'core client / bare, paired rounds, typical'),
    'core.client.mean.x': fig(ratios[0].mean, 'x', 2, 'core client / bare, paired rounds, mean'),
    'core.cpu.profile.us': fig(
      rows[3].typical,
      'µs',
      1,
      'core CPU alone for a profile, network taken out (resolve, build, parse, validate, flatten), typical',
    ),
    'core.cpu.profile.beyond.us': fig(ratios[1].typical, 'µs', 1, 'the same beyond JSON.parse, paired rounds'),
    'core.cpu.profile.x': fig(ratios[2].typical, 'x', 1, 'the same over JSON.parse alone, paired rounds'),
    'core.cpu.page.us': fig(rows[5].typical, 'µs', 1, 'core CPU for a page of 12 posts + toRows, typical'),
    'core.cpu.page.beyond.us': fig(ratios[3].typical, 'µs', 1, 'the same beyond JSON.parse, paired rounds'),
    'core.cpu.page.x': fig(ratios[4].typical, 'x', 1, 'the same over JSON.parse alone, paired rounds'),
    'core.sandbox.rps': fig(
      throughput.rps,
      'requests/s',
      0,
      `sandbox throughput, 50 keep-alive connections, \`profile\`, ${SECONDS} rounds of 1 s`,
    ),
    'core.sandbox.p99.ms': fig(throughput.p99, 'ms', 0, 'the same, latency p99'),
  },
  `${ROUNDS} interleaved rounds a row (scripts/bench/rounds.mjs); before: ${loadBefore}; after: ${loadAfter}`,
);
