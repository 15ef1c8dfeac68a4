'use strict';
// Long-running n8n processes: `n8n start` (the editor and the trigger/poll scheduler), ready
// when its REST API is mounted and published workflows are activated; the editor for a person.
const { spawn } = require('node:child_process');
const { baseEnv, ensureN8n, freePort, runtime, unwrapHome } = require('./env.cjs');
const { killGroup } = require('./cli.cjs');

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
  const child = spawn(runtime().nodeBin, [bin, 'start'], {
    env: fullEnv,
    cwd: h.home,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  let exited = null;
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
  return { url, port, child, output: () => out, stop };
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
async function startEditor({ home, port, env, owner = {}, timeoutMs } = {}) {
  const srv = await startN8n(home, { port, env, timeoutMs });
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

module.exports = { startN8n, startEditor, DEFAULT_OWNER, setupOwner };
