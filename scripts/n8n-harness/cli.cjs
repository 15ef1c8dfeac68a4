'use strict';
// One n8n CLI command at a time (import, execute, publish...): spawned with the version's node,
// its own task-broker port, killed with its task runner on timeout; and reading what
// `execute --rawOutput` prints.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { baseEnv, ensureN8n, freePort, newId, runtime, unwrapHome } = require('./env.cjs');
const { withCredentialAliases } = require('./aliases.cjs');

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal); // the n8n process and its task runner
  } catch {
    try {
      child.kill(signal);
    } catch {}
  }
}

/**
 * Runs one n8n CLI command to completion. Each call gets its own task-broker port (every
 * command that loads nodes starts a broker); on a port race it retries with a new one.
 */
async function runN8n(home, args, { env = {}, timeoutMs = 180_000, retries = 2 } = {}) {
  const h = unwrapHome(home);
  const bin = await ensureN8n();
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const fullEnv = { ...process.env, ...baseEnv(h.home), ...h.env, N8N_RUNNERS_BROKER_PORT: String(port), ...env };
    const t0 = performance.now();
    const res = await new Promise((resolve) => {
      const child = spawn(runtime().nodeBin, [bin, ...args], {
        env: fullEnv,
        cwd: h.home,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => {
        stderr += `\n[n8n-harness] n8n ${args[0]} timed out after ${timeoutMs} ms; killed\n`;
        killGroup(child, 'SIGKILL');
      }, timeoutMs);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, ms: Math.round(performance.now() - t0) });
      });
    });
    if (attempt < retries && /port \d+ is already in use/.test(res.stdout + res.stderr)) continue;
    return res;
  }
}

function n8nFailed(what, r) {
  const tail = (r.stdout + '\n' + r.stderr).trim().split('\n').slice(-25).join('\n');
  return new Error(`n8n ${what} failed (exit ${r.code}):\n${tail}`);
}

/**
 * Imports one workflow, or an array in one n8n process, and returns its id (ids); any without an id gets one. Re-importing an
 * id replaces nodes/connections, keeps the stored static data (unless the JSON carries
 * `staticData`) and UNPUBLISHES it (active=false, activeVersionId=null).
 */
async function importWorkflowCli(home, workflow, { env } = {}) {
  const h = unwrapHome(home);
  // An array is imported by one n8n process (~3 s saved per extra workflow); returns the ids.
  const wfs = (Array.isArray(workflow) ? workflow : [workflow]).map((w) => ({
    name: 'test',
    settings: {},
    connections: {},
    ...withCredentialAliases(h, w),
    id: w.id ?? newId('wf'),
  }));
  const file = path.join(h.home, `workflow-${wfs[0].id}-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify(wfs));
  const r = await runN8n(h, ['import:workflow', `--input=${file}`], { env });
  fs.rmSync(file, { force: true });
  if (r.code !== 0 || !/Successfully imported/.test(r.stdout)) throw n8nFailed('import:workflow', r);
  return Array.isArray(workflow) ? wfs.map((w) => w.id) : wfs[0].id;
}

/**
 * `execute --rawOutput` prints log lines (task broker, python runner warning) and then the
 * run as pretty-printed JSON (2-space indent, so its closing brace is the first line that is
 * exactly "}"). On failure the same JSON follows "Execution error:" and more lines follow it.
 */
function parseRawOutput(stdout) {
  const lines = stdout.split('\n');
  const start = lines.indexOf('{');
  if (start < 0) return undefined;
  for (let end = start + 1; end < lines.length; end++) {
    if (lines[end] !== '}') continue;
    try {
      return JSON.parse(lines.slice(start, end + 1).join('\n'));
    } catch {}
  }
  return undefined;
}

/**
 * When execute fails before running (unknown node type, no start node, bad workflow) it
 * prints no JSON, only "Execution error:\n====...\n<message>\n<stack>". Same shape as a run error.
 */
function cliError(r) {
  const text = (r.stdout + '\n' + r.stderr).trim();
  const after = text.split('====================================\n').at(-1);
  return {
    message: after.split('\n')[0] || `n8n exited with ${r.code}`,
    output: text.split('\n').slice(-15).join('\n'),
  };
}

/** Items (json only) a node output in a run: runData[node][runIndex].data.main[output]. */
function nodeOutput(run, nodeName, { output = 0, runIndex = -1, full = false } = {}) {
  const runs = run?.data?.resultData?.runData?.[nodeName];
  if (!runs?.length) return undefined;
  const items = runs.at(runIndex)?.data?.main?.[output] ?? [];
  return full ? items : items.map((i) => i.json);
}

/**
 * Imports (when given a workflow object; pass an id string to reuse one) and runs a workflow
 * with `n8n execute --id=ID --rawOutput`. The start node must be a Manual Trigger (or an
 * Execute Workflow Trigger): that is all `execute` can start from.
 * Returns { ok, id, data, run, error, stdout, stderr, ms, importMs }:
 *   run  - the whole IRun n8n printed ({ data: { resultData: { runData, lastNodeExecuted, error? } }, status, ... })
 *   data - json of the items the last executed node output on its first output
 *   ms   - wall time of the execute command (the import is importMs)
 */
async function runWorkflowCli(home, workflow, { env, timeoutMs } = {}) {
  const h = unwrapHome(home);
  let importMs = 0;
  let id = workflow;
  if (typeof workflow !== 'string') {
    const t0 = performance.now();
    id = await importWorkflowCli(h, workflow, { env });
    importMs = Math.round(performance.now() - t0);
  }
  const r = await runN8n(h, ['execute', `--id=${id}`, '--rawOutput'], { env, timeoutMs });
  const run = parseRawOutput(r.stdout);
  const last = run?.data?.resultData?.lastNodeExecuted;
  return {
    ok: r.code === 0 && run?.status === 'success',
    id,
    data: last ? nodeOutput(run, last) : undefined,
    run,
    error: run?.data?.resultData?.error ?? (run ? undefined : cliError(r)),
    exitCode: r.code,
    stdout: r.stdout,
    stderr: r.stderr,
    ms: r.ms,
    importMs,
  };
}

module.exports = { killGroup, runN8n, n8nFailed, importWorkflowCli, parseRawOutput, nodeOutput, runWorkflowCli };
