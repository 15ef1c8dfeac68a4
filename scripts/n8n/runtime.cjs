'use strict';
// Helpers that run real workflows in a real, headless n8n 2.8.4 (installed by install.mjs).
// CommonJS on purpose: jest (ts-jest, CommonJS) can require it without ESM flags;
// ESM scripts and benchmarks import it too (Node reads its named exports).
//
// Every helper spawns the real `n8n` CLI with its own N8N_USER_FOLDER (SQLite db, config,
// community packages) and its own free ports, so parallel jest workers never collide.
// Calls on ONE home must not overlap (SQLite, one writer): await each before the next.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { createRequire } = require('node:module');

const N8N_VERSION = '2.8.4';
const RUNTIME_DIR = path.resolve(process.env.IGDATA_N8N_RUNTIME_DIR || path.join(__dirname, '../../.cache/n8n-runtime')); // as install.mjs
const N8N_BIN = path.join(RUNTIME_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const INSTALLER = path.join(__dirname, 'install.mjs');
// Fixed so a home's credentials stay readable by every run; test data only, not a secret.
const DEFAULT_ENCRYPTION_KEY = 'igdata-tests-fixed-key-not-a-secret';

// ---------------------------------------------------------------------------- install

let ensured;
/** Installs n8n if needed (once per process) and returns the path of its bin. */
function ensureN8n({ quiet = false } = {}) {
  ensured ??= new Promise((resolve, reject) => {
    // A child process: install.mjs is ESM (jest cannot require it) and npm output stays out of ours.
    const child = spawn(process.execPath, [INSTALLER], { stdio: ['ignore', quiet ? 'ignore' : 'inherit', quiet ? 'ignore' : 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(N8N_BIN) : reject(new Error(`n8n install failed (exit ${code}); run: node scripts/n8n/install.mjs`))));
  });
  return ensured;
}

// ---------------------------------------------------------------------------- env & ports

/** A port that was free a moment ago on 127.0.0.1 (callers retry if n8n still finds it taken). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The environment every n8n process gets: isolated, quiet, offline. */
function baseEnv(home, encryptionKey = DEFAULT_ENCRYPTION_KEY) {
  return {
    N8N_USER_FOLDER: home, // n8n keeps everything in <home>/.n8n
    N8N_ENCRYPTION_KEY: encryptionKey,
    // jest sets NODE_ENV=test, and n8n 2.8.4 then refuses to load nodes ("Not available in tests").
    NODE_ENV: 'production',
    // Nothing may try the network (CI has none): telemetry, version checks, banners,
    // templates, the community-node catalogue, license renewal, AI assistant.
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
    N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
    N8N_DYNAMIC_BANNERS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_VERIFIED_PACKAGES_ENABLED: 'false',
    N8N_REINSTALL_MISSING_PACKAGES: 'false',
    N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
    N8N_AI_ENABLED: 'false',
    EXTERNAL_FRONTEND_HOOKS_URLS: '',
    N8N_SENTRY_DSN: '',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    // `execute --rawOutput` prints its JSON through logger.info: below "info" it prints nothing.
    N8N_LOG_LEVEL: 'info',
    N8N_LOG_OUTPUT: 'console',
    NO_COLOR: '1',
    GENERIC_TIMEZONE: 'UTC',
    TZ: 'UTC',
    N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
    N8N_LISTEN_ADDRESS: '127.0.0.1',
  };
}

function unwrapHome(home) {
  return typeof home === 'string' ? { home, env: {} } : { home: home.home, env: home.env ?? {} };
}

// ---------------------------------------------------------------------------- processes

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
      const child = spawn(process.execPath, [bin, ...args], { env: fullEnv, cwd: h.home, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const timer = setTimeout(() => {
        stderr += `\n[runtime] n8n ${args[0]} timed out after ${timeoutMs} ms; killed\n`;
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

// ---------------------------------------------------------------------------- homes

/**
 * A migrated, empty n8n database, made once per install and copied into each new home:
 * the first command on an empty folder spends ~1.2 s on ~150 migrations.
 */
async function templateDir(encryptionKey) {
  const key = Buffer.from(encryptionKey).toString('hex').slice(0, 16);
  const dir = path.join(RUNTIME_DIR, `template-home-${N8N_VERSION}-${key}`);
  if (fs.existsSync(path.join(dir, '.n8n', 'database.sqlite'))) return dir;
  await ensureN8n();
  const tmp = fs.mkdtempSync(path.join(RUNTIME_DIR, 'template-tmp-'));
  const r = await runN8n(tmp, ['list:workflow'], { env: { N8N_ENCRYPTION_KEY: encryptionKey } });
  if (r.code !== 0) throw n8nFailed('database migration (list:workflow)', r);
  try {
    fs.renameSync(tmp, dir); // atomic: a parallel worker that lost the race keeps the winner's copy
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

/** Generates an n8n-style id (workflow ids must be 1-21 chars for static data to be saved). */
function newId(prefix = '') {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = prefix;
  while (s.length < 16) s += abc[Math.floor(Math.random() * abc.length)];
  return s;
}

/**
 * Makes an n8n user folder with our community package installed and credentials imported.
 *  - packageDir: a folder with the package.json of an n8n community package (its `n8n.nodes`
 *    and `n8n.credentials` are loaded). Copied by default into
 *    <home>/.n8n/nodes/node_modules/<name>, where n8n 2.8.4 loads community packages from at
 *    start, so node types are "<package name>.<node name>" exactly as for a user. A symlink
 *    (link: true) works too, but then `require('n8n-workflow')` in the package resolves from
 *    the monorepo's node_modules first: a second copy of n8n-workflow inside n8n.
 *  - credentials: [{ id, name, type, data }] with plain `data`; `n8n import:credentials`
 *    encrypts it with the home's key.
 *  - dir: a fixed folder (e.g. for `npm start`) instead of a fresh temp one; its database is kept.
 * Returns { home, env }: pass either that object or `home` to the other helpers.
 */
async function createN8nHome({ packageDir, credentials = [], dir, link = false, encryptionKey = DEFAULT_ENCRYPTION_KEY, env = {} } = {}) {
  const home = dir ? path.resolve(dir) : fs.mkdtempSync(path.join(os.tmpdir(), 'igdata-n8n-'));
  const dotN8n = path.join(home, '.n8n');
  if (!fs.existsSync(path.join(dotN8n, 'database.sqlite'))) {
    fs.cpSync(path.join(await templateDir(encryptionKey), '.n8n'), dotN8n, { recursive: true });
  }
  if (packageDir) {
    const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
    const dest = path.join(dotN8n, 'nodes', 'node_modules', pkg.name);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    if (link) fs.symlinkSync(path.resolve(packageDir), dest, 'dir');
    else {
      const top = path.resolve(packageDir);
      const skip = new Set(['node_modules', '.git', 'coverage']); // top-level only
      fs.cpSync(top, dest, { recursive: true, dereference: true, filter: (src) => path.dirname(src) !== top || !skip.has(path.basename(src)) });
    }
  }
  const h = { home, env: { N8N_ENCRYPTION_KEY: encryptionKey, ...env } };
  if (credentials.length) await importCredentials(h, credentials);
  return h;
}

/** Imports credentials given as plain objects; data is encrypted by n8n on import. */
async function importCredentials(home, credentials) {
  const h = unwrapHome(home);
  const list = credentials.map((c) => ({ id: c.id ?? newId('cred'), name: c.name ?? c.type, type: c.type, data: c.data ?? {} }));
  const file = path.join(h.home, `credentials-${process.pid}-${Date.now()}.json`);
  fs.writeFileSync(file, JSON.stringify(list));
  const r = await runN8n(h, ['import:credentials', `--input=${file}`]);
  fs.rmSync(file, { force: true });
  if (r.code !== 0 || !/Successfully imported/.test(r.stdout)) throw n8nFailed('import:credentials', r);
  return list.map((c) => c.id);
}

/** Deletes a temp home. */
function removeN8nHome(home) {
  fs.rmSync(unwrapHome(home).home, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------- workflows

/**
 * Imports one workflow, or an array in one n8n process, and returns its id (ids); any without an id gets one. Re-importing an
 * id replaces nodes/connections, keeps the stored static data (unless the JSON carries
 * `staticData`) and UNPUBLISHES it (active=false, activeVersionId=null).
 */
async function importWorkflow(home, workflow, { env } = {}) {
  const h = unwrapHome(home);
  // An array is imported by one n8n process (~3 s saved per extra workflow); returns the ids.
  const wfs = (Array.isArray(workflow) ? workflow : [workflow]).map((w) => ({ name: 'test', settings: {}, connections: {}, ...w, id: w.id ?? newId('wf') }));
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
  return { message: after.split('\n')[0] || `n8n exited with ${r.code}`, output: text.split('\n').slice(-15).join('\n') };
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
async function runWorkflow(home, workflow, { env, timeoutMs } = {}) {
  const h = unwrapHome(home);
  let importMs = 0;
  let id = workflow;
  if (typeof workflow !== 'string') {
    const t0 = performance.now();
    id = await importWorkflow(h, workflow, { env });
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

// ---------------------------------------------------------------------------- database

let sqliteMod;
/** Reads the home's SQLite db with the sqlite3 module n8n itself uses (built by install.mjs). */
function query(home, sql, params = []) {
  const h = unwrapHome(home);
  const req = createRequire(path.join(RUNTIME_DIR, 'package.json'));
  sqliteMod ??= req('sqlite3');
  return new Promise((resolve, reject) => {
    const db = new sqliteMod.Database(path.join(h.home, '.n8n', 'database.sqlite'), sqliteMod.OPEN_READONLY, (e) => e && reject(e));
    db.configure('busyTimeout', 5000);
    db.all(sql, params, (e, rows) => {
      db.close();
      e ? reject(e) : resolve(rows);
    });
  });
}

/** Static data of a workflow as saved in the db ({"node:<name>": {...}, "global": {...}}). */
async function getStaticData(home, workflowId) {
  const [row] = await query(home, 'select staticData from workflow_entity where id = ?', [workflowId]);
  return row?.staticData ? JSON.parse(row.staticData) : {};
}

/**
 * Executions of a workflow, oldest first, with their run data. n8n stores each run in
 * execution_data as `flatted` text; the result has the same shape as `execute --rawOutput`'s
 * `data` field.
 */
async function getExecutions(home, workflowId, { afterId = 0 } = {}) {
  const flatted = createRequire(path.join(RUNTIME_DIR, 'node_modules', 'n8n', 'package.json'))('flatted');
  const rows = await query(
    home,
    `select e.id, e.mode, e.status, e.finished, e.startedAt, e.stoppedAt, d.data
       from execution_entity e left join execution_data d on d.executionId = e.id
      where e.workflowId = ? and e.id > ? order by e.id`,
    [workflowId, afterId],
  );
  return rows.map((r) => {
    const data = r.data ? flatted.parse(r.data) : undefined;
    const run = { data, mode: r.mode, status: r.status };
    const last = data?.resultData?.lastNodeExecuted;
    return { id: r.id, mode: r.mode, status: r.status, finished: !!r.finished, startedAt: r.startedAt, stoppedAt: r.stoppedAt, run, items: last ? nodeOutput(run, last) : undefined };
  });
}

// ---------------------------------------------------------------------------- n8n start

/**
 * Starts `n8n start` on 127.0.0.1 and resolves once it is fully up (published workflows
 * activated, REST API mounted, /healthz/readiness 200).
 * Returns { url, port, child, output(), stop() }.
 */
async function startN8n(home, { port, env = {}, timeoutMs = 90_000 } = {}) {
  const h = unwrapHome(home);
  const bin = await ensureN8n();
  port ??= await freePort();
  const brokerPort = await freePort();
  const fullEnv = {
    ...process.env,
    ...baseEnv(h.home),
    ...h.env,
    N8N_PORT: String(port),
    N8N_HOST: 'localhost',
    N8N_PROTOCOL: 'http',
    N8N_EDITOR_BASE_URL: `http://localhost:${port}/`,
    WEBHOOK_URL: `http://localhost:${port}/`,
    N8N_SECURE_COOKIE: 'false', // plain http on loopback: a Secure cookie would never be sent back
    N8N_RUNNERS_BROKER_PORT: String(brokerPort),
    ...env,
  };
  const child = spawn(process.execPath, [bin, 'start'], { env: fullEnv, cwd: h.home, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  let exited = null;
  const exitPromise = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (graceMs = 15_000) => {
    if (exited) return exited;
    killGroup(child, 'SIGTERM');
    const t = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
    const r = await exitPromise;
    clearTimeout(t);
    return r;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited) throw new Error(`n8n start exited (${JSON.stringify(exited)}) before it was ready:\n${out.slice(-3000)}`);
    // /healthz/readiness turns 200 before the REST controllers are mounted and before active
    // workflows are activated; "Editor is now accessible via" is logged after both.
    if (out.includes('Editor is now accessible via')) {
      try {
        const res = await fetch(`${url}/healthz/readiness`, { signal: AbortSignal.timeout(1000) });
        if (res.ok) break;
      } catch {}
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`n8n start not ready after ${timeoutMs} ms:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, child, output: () => out, stop };
}

/**
 * The editor for a person (`npm start`): `n8n start` plus, by default, an owner account so
 * the first screen is the login, not the owner-setup form. n8n 2.8.4 has no env var to skip
 * owner setup; POST /rest/owner/setup (no auth while the instance has no owner) creates it.
 * Returns { url, port, owner, stop(), output() }.
 */
async function startEditor({ home, port, env, owner = {}, timeoutMs } = {}) {
  const srv = await startN8n(home, { port, env, timeoutMs });
  let ownerInfo = null;
  if (owner) {
    ownerInfo = { email: 'owner@example.com', password: 'IgData-local-1', firstName: 'Local', lastName: 'Owner', ...owner };
    const res = await fetch(`${srv.url}/rest/owner/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ownerInfo),
    });
    const body = await res.text();
    // 400 "Instance owner already setup" on a reused home is fine: the account exists.
    if (!res.ok && !/already setup/i.test(body)) {
      await srv.stop();
      throw new Error(`owner setup failed: ${res.status} ${body}`);
    }
    ownerInfo.created = res.ok;
  }
  return { ...srv, url: `http://localhost:${srv.port}`, owner: ownerInfo };
}

// ---------------------------------------------------------------------------- polling triggers

/**
 * `pollTimes` for a polling node: every `seconds` (divisor of 60). n8n rejects a cron whose
 * seconds field contains "*" ("at least a minute"), but accepts a list/range like
 * "0-59/5", so tests need not wait a minute between polls.
 */
function pollTimesEverySeconds(seconds) {
  if (!(seconds >= 1 && 60 % seconds === 0)) throw new Error('seconds must divide 60');
  return { item: [{ mode: 'custom', cronExpression: `0-59/${seconds} * * * * *` }] };
}
// A cron that does not fire while a test runs (1 January, 00:00:00), for "exactly one poll".
const POLL_NEVER = { item: [{ mode: 'custom', cronExpression: '0 0 0 1 1 *' }] };

function rootNodeNames(workflow) {
  const targets = new Set();
  for (const outs of Object.values(workflow.connections ?? {})) for (const conns of Object.values(outs)) for (const c of conns.flat()) c && targets.add(c.node);
  return workflow.nodes.filter((n) => !targets.has(n.name)).map((n) => n.name);
}

/**
 * Imports a workflow whose start node is a polling trigger and publishes it (the 2.x word for
 * activating; `n8n update:workflow --active=true` is deprecated). pollTimes, when given, is set
 * on every root node (harmless on non-polling ones).
 */
async function publishWorkflow(home, workflow, { pollTimes, env } = {}) {
  let wf = workflow;
  if (pollTimes) {
    const roots = new Set(rootNodeNames(workflow));
    wf = { ...workflow, nodes: workflow.nodes.map((n) => (roots.has(n.name) ? { ...n, parameters: { ...n.parameters, pollTimes } } : n)) };
  }
  const id = await importWorkflow(home, wf, { env });
  const r = await runN8n(home, ['publish:workflow', `--id=${id}`], { env });
  if (r.code !== 0 || /Error|GOT ERROR/.test(r.stdout.split('Publishing workflow')[1] ?? '')) throw n8nFailed('publish:workflow', r);
  return id;
}

/**
 * Runs published workflows the way production does: `n8n start`, which activates them. On
 * activation n8n 2.8.4 polls each polling trigger ONCE at once (mode "trigger", activation
 * "init"), then on its cron. Waits until `until(state)` is true (default: the workflow
 * activated and every execution finished), stops n8n (SIGTERM) and returns what happened:
 *   { executions (new ones, oldest first, see getExecutions), staticData, activated,
 *     activationError, output, ms }
 * state = { activated, activationError, executions, elapsedMs }.
 */
async function runActive(home, workflowId, { until, env, timeoutMs = 60_000, settleMs = 300 } = {}) {
  const [{ maxId } = { maxId: 0 }] = await query(home, 'select max(id) as maxId from execution_entity');
  const afterId = maxId ?? 0;
  const t0 = performance.now();
  const srv = await startN8n(home, { env, timeoutMs });
  let state;
  let failedAt;
  try {
    const deadline = Date.now() + timeoutMs;
    const done = new Set(['success', 'error', 'canceled', 'crashed']);
    until ??= (s) => s.activated && s.executions.every((e) => e.finished || done.has(e.status));
    for (;;) {
      const out = srv.output();
      const executions = await getExecutions(home, workflowId, { afterId });
      // When the activation poll throws, n8n logs "Issue on initial workflow activation try"
      // (no message), then retries with backoff, logging `did fail with error: "<message>"`.
      const failed = out.includes('Issue on initial workflow activation try of ') && out.includes(`(ID: ${workflowId}) (startup)`);
      const reason = new RegExp(`Activation of workflow .* \\(${workflowId}\\) did fail with error: "(.*)" \\| retry`).exec(out)?.[1];
      state = {
        activated: new RegExp(`Activated workflow .*\\(ID: ${workflowId}\\)`).test(out),
        activationError: failed ? (reason ?? 'activation failed (waiting for the error message)') : undefined,
        executions,
        elapsedMs: Math.round(performance.now() - t0),
      };
      if ((failed && (reason || Date.now() - failedAt > 5000)) || until(state)) break;
      if (failed) failedAt ??= Date.now();
      if (Date.now() > deadline) throw new Error(`runActive: condition not met after ${timeoutMs} ms:\n${out.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, settleMs));
    }
    // An execution that was still being written when we looked: give it a moment.
    await new Promise((r) => setTimeout(r, settleMs));
  } finally {
    await srv.stop();
  }
  return {
    ...state,
    executions: await getExecutions(home, workflowId, { afterId }),
    staticData: await getStaticData(home, workflowId),
    output: srv.output(),
    ms: Math.round(performance.now() - t0),
  };
}

/**
 * Exactly one real poll of a published workflow's polling trigger(s), as production's first
 * poll after a start: start n8n, wait for the activation poll and its execution, stop.
 * Static data persists in the home's db between calls, so call it N times for N polls
 * (~4-5 s each). Pass a workflow object to (re)import and publish it first, with a cron that
 * will not fire during the run.
 */
async function pollOnce(home, workflow, opts = {}) {
  const id = typeof workflow === 'string' ? workflow : await publishWorkflow(home, workflow, { pollTimes: POLL_NEVER, env: opts.env });
  return { id, ...(await runActive(home, id, opts)) };
}

module.exports = {
  N8N_VERSION,
  N8N_BIN,
  RUNTIME_DIR,
  DEFAULT_ENCRYPTION_KEY,
  POLL_NEVER,
  ensureN8n,
  freePort,
  baseEnv,
  runN8n,
  createN8nHome,
  importCredentials,
  removeN8nHome,
  importWorkflow,
  parseRawOutput,
  nodeOutput,
  runWorkflow,
  query,
  getStaticData,
  getExecutions,
  startN8n,
  startEditor,
  pollTimesEverySeconds,
  publishWorkflow,
  runActive,
  pollOnce,
};
