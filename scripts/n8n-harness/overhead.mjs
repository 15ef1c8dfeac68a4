#!/usr/bin/env node
// Measures what real n8n costs per call, so benchmarks can subtract it:
//   node scripts/n8n-harness/overhead.mjs [runs]     runs: default 5 (IGDATA_N8N_VERSION picks the n8n)
// Prints the median and min of: a home (template copy), import:workflow, execute of a
// Manual Trigger + Set workflow, `n8n start` to /healthz/readiness, and one pollOnce.
import { cpus, loadavg } from 'node:os';
import { parseFlags } from '../lib/cli.mjs';
import * as rt from './index.cjs';

const usage = 'usage: node scripts/n8n-harness/overhead.mjs [runs]   runs: a whole number from 1, default 5';
const { positionals } = parseFlags({ allowPositionals: true, usage });
const runs = Number(positionals[0] ?? 5);
if (positionals.length > 1 || !Number.isInteger(runs) || runs < 1) {
  console.error(`runs must be one whole number from 1; got ${positionals.join(' ')}\n${usage}`);
  process.exit(2);
}
const stats = {};
const rec = (k, ms) => (stats[k] ??= []).push(ms);
const time = async (k, fn) => {
  const t0 = performance.now();
  const v = await fn();
  rec(k, performance.now() - t0);
  return v;
};

await rt.ensureN8n();
const wf = {
  nodes: [
    { id: 'a', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      id: 'b',
      name: 'Set',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [200, 0],
      parameters: {
        assignments: { assignments: [{ id: 'x', name: 'ok', value: true, type: 'boolean' }] },
        options: {},
      },
    },
  ],
  connections: { Start: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
};
const poll = {
  id: 'wfOverheadPoll',
  name: 'poll',
  nodes: [
    {
      id: 'p',
      name: 'Poll',
      type: 'n8n-nodes-igdata-fixture.fixtureTrigger',
      typeVersion: 1,
      position: [0, 0],
      parameters: {},
    },
  ],
  connections: {},
};
const pkg = new URL('./fixture-package', import.meta.url).pathname;
for (let i = 0; i < runs; i++) {
  const h = await time('createN8nHome (copy template + package)', () => rt.createN8nHome({ packageDir: pkg }));
  const id = await time('import:workflow', () => rt.importWorkflowCli(h, wf));
  const r = await time('execute --rawOutput', () => rt.runWorkflowCli(h, id));
  if (!r.ok) throw new Error(r.error?.message ?? r.stdout);
  const srv = await time('n8n start -> readiness', () => rt.startN8n(h));
  await srv.stop();
  await rt.publishWorkflowCli(h, poll, { pollTimes: rt.POLL_NEVER });
  const p = await time('pollOnce (start, 1 poll, stop)', () => rt.pollOnceCli(h, poll.id));
  if (!p.activated) throw new Error(p.output);
  rt.removeN8nHome(h);
}
const fmt = (ms) => `${(ms / 1000).toFixed(2)}s`;
console.log(
  `n8n ${rt.runtime().version} on Node ${rt.runtime().nodeVersion}, ${runs} runs, ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const [k, v] of Object.entries(stats)) {
  v.sort((a, b) => a - b);
  console.log(`${k.padEnd(42)} median ${fmt(v[Math.floor(v.length / 2)])}  min ${fmt(v[0])}`);
}
