'use strict';
// Long-running n8n processes: `n8n start` (the editor and the trigger/poll scheduler), ready
// when its REST API is mounted and published workflows are activated; the editor for a person.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { baseEnv, ensureN8n, freePort, runtime, unwrapHome } = require('./env.cjs');
const { killGroup } = require('./cli.cjs');

/** Whether a process is alive (signal 0 checks without sending anything). */
function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * What a server logged to `file` from byte `from` on, as one growing string: each call reads only
 * the bytes written since the last (a whole test run's debug log would be megabytes).
 */
function fileOutput(file, from = 0) {
  let text = '';
  let pos = from;
  const buf = Buffer.alloc(1 << 20);
  return () => {
    let fd;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      return text;
    }
    try {
      for (let n; (n = fs.readSync(fd, buf, 0, buf.length, pos)) > 0; pos += n) text += buf.toString('utf8', 0, n);
    } finally {
      fs.closeSync(fd);
    }
    return text;
  };
}

/**
 * Starts `n8n start` on 127.0.0.1 and resolves once it is fully up (published workflows
 * activated, REST API mounted, /healthz/readiness 200).
 * `logFile`: n8n writes its output there instead of to a pipe, so the server can outlive this
 * process and another can read what it logs (a test run's shared server, live.cjs).
 * `detached` (default true): n8n and its task runner in a process group of their own, which stop()
 * ends at once and which may outlive this process (a test run's shared server). `npm start`'s editor
 * is not detached: it stays in the group of the terminal's command, so nothing outlives that.
 * Returns { url, port, pid, child, output(), alive(), stop() }.
 */
async function startN8n(home, { port, env = {}, timeoutMs = 90_000, logFile, detached = true } = {}) {
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
  const logFd = logFile ? fs.openSync(logFile, 'a') : undefined;
  const child = spawn(runtime().nodeBin, [bin, 'start'], {
    env: fullEnv,
    cwd: h.home,
    detached,
    stdio: ['ignore', logFd ?? 'pipe', logFd ?? 'pipe'],
  });
  if (logFd !== undefined) fs.closeSync(logFd);
  let piped = '';
  child.stdout?.on('data', (d) => (piped += d));
  child.stderr?.on('data', (d) => (piped += d));
  const output = logFile ? fileOutput(logFile) : () => piped;
  let exited = null;
  let out;
  const exitPromise = new Promise((resolve) =>
    child.on('exit', (code, signal) => resolve((exited = { code, signal }))),
  );
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
    out = output();
    if (exited)
      throw new Error(`n8n start exited (${JSON.stringify(exited)}) before it was ready:\n${out.slice(-3000)}`);
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
  return { url, port, pid: child.pid, child, output, alive: () => !exited, stop };
}

/**
 * A server another process started with a `logFile` (startN8n), taken over: its output from now
 * on, whether it is alive, and a stop that kills it and its task runner (its process group).
 */
function attachN8n({ url, port, pid, logFile }) {
  let from = 0;
  try {
    from = fs.statSync(logFile).size;
  } catch {}
  const alive = () => pidAlive(pid);
  const stop = async (graceMs = 15_000) => {
    const group = (signal) => {
      try {
        process.kill(-pid, signal);
      } catch {}
    };
    group('SIGTERM');
    for (const deadline = Date.now() + graceMs; alive() && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 100));
    group('SIGKILL');
  };
  return { url, port, pid, child: undefined, output: fileOutput(logFile, from), alive, stop };
}

/** The owner account the harness creates (the editor's login for a person, the live server's session). */
const DEFAULT_OWNER = Object.freeze({
  email: 'owner@example.com',
  password: 'IgData-local-1',
  firstName: 'Local',
  lastName: 'Owner',
});

/**
 * n8n 2.8.4 has no env var to skip owner setup; POST /rest/owner/setup (no auth while the instance
 * has no owner) creates it. Resolves to whether it was created now (false: it existed already).
 */
async function setupOwner(url, owner) {
  const res = await fetch(`${url}/rest/owner/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(owner),
  });
  const body = await res.text();
  // 400 "Instance owner already setup" on a reused home is fine: the account exists.
  if (!res.ok && !/already setup/i.test(body)) throw new Error(`owner setup failed: ${res.status} ${body}`);
  return res.ok;
}

/**
 * The editor for a person (`npm start`): `n8n start` plus, by default, an owner account so
 * the first screen is the login, not the owner-setup form.
 * Returns { url, port, owner, stop(), output() }.
 */
async function startEditor({ home, port, env, owner = {}, timeoutMs, detached } = {}) {
  const srv = await startN8n(home, { port, env, timeoutMs, detached });
  let ownerInfo = null;
  if (owner) {
    ownerInfo = { ...DEFAULT_OWNER, ...owner };
    try {
      ownerInfo.created = await setupOwner(srv.url, ownerInfo);
    } catch (e) {
      await srv.stop();
      throw e;
    }
  }
  return { ...srv, url: `http://localhost:${srv.port}`, owner: ownerInfo };
}

module.exports = { startN8n, attachN8n, pidAlive, startEditor, DEFAULT_OWNER, setupOwner };
