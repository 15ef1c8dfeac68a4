'use strict';
// One long-running `n8n start` per home, started on the first call that needs it and reused by
// every later one: workflows are imported and run through the editor's own REST endpoints with the
// owner's session, polls are triggered by (re)activating a published workflow. Booting n8n costs
// 6 to 9 s on this machine; a cold `n8n execute` or `n8n start` per workflow run or poll paid it
// every time (issue 31).
//
// A home's live server keeps the environment it was started with: a call that asks for other values
// (e.g. N8N_RESTRICT_FILE_ACCESS_TO for a folder of its own) restarts it with that environment, as a
// new n8n process would have had; a call that asks for none is served by whichever is up.
// Queue-mode homes (EXECUTIONS_MODE=queue) have their workflows imported, published and run by the
// CLI helpers (their main and workers are the test's, queue.cjs); only their polls use a live main.
const { createRequire } = require('node:module');
const path = require('node:path');
const { killGroup } = require('./cli.cjs');
const { runtime, unwrapHome } = require('./env.cjs');
const { startN8n, DEFAULT_OWNER, setupOwner } = require('./server.cjs');

const BROWSER_ID = 'igdata-harness';
/** Homes with a live server in this process: home path -> Promise<Live>; and those up: -> Live. */
const lives = new Map();
const up = new Map();

/** Whether the harness runs this home's workflows on a live server (not a queue-mode home). */
const servesLive = (home) => unwrapHome(home).env.EXECUTIONS_MODE !== 'queue';

async function login(url, owner) {
  const res = await fetch(`${url}/rest/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
    body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
  });
  if (!res.ok) throw new Error(`n8n login failed: ${res.status} ${await res.text()}`);
  return (res.headers.get('set-cookie') ?? '').split(';')[0];
}

async function boot(h, env) {
  // Debug level: the moment a poll hands items to a run is logged only there (runs.cjs, runActive).
  const srv = await startN8n(h, { env: { ...env, N8N_LOG_LEVEL: 'debug' } });
  // The server and its task runner must not keep jest's process alive, nor outlive it.
  srv.child.unref();
  srv.child.stdout.unref?.();
  srv.child.stderr.unref?.();
  const killOnExit = () => killGroup(srv.child, 'SIGKILL');
  process.once('exit', killOnExit);
  try {
    await setupOwner(srv.url, DEFAULT_OWNER);
    const cookie = await login(srv.url, DEFAULT_OWNER);
    const l = { srv, env: { ...env }, headers: { cookie, 'browser-id': BROWSER_ID }, killOnExit };
    up.set(h.home, l);
    return l;
  } catch (e) {
    await srv.stop();
    throw e;
  }
}

/**
 * The home's live server, started if there is none (or restarted if it runs with other `env`).
 * Returns { srv: { url, output(), stop() }, headers }.
 */
async function liveServer(home, { env } = {}) {
  const h = unwrapHome(home);
  let p = lives.get(h.home);
  if (p) {
    const l = await p.catch(() => undefined);
    if (l && (await liveState(h, { env })) === 'up') return l;
    // Another environment: a new n8n, which must not poll what the old one had published (as
    // `n8n execute`, which the helpers replace, never did): unpublished first.
    if (l) await unpublishAll(l);
    await stopLiveServer(h);
  }
  p = boot(h, env);
  lives.set(h.home, p);
  p.catch(() => lives.delete(h.home));
  return p;
}

/** 'up' (a live server with this environment), 'other' (one with another) or 'down' (none). */
async function liveState(home, { env } = {}) {
  const l = await lives.get(unwrapHome(home).home)?.catch(() => undefined);
  if (!l || l.srv.child.exitCode !== null || l.srv.child.signalCode !== null) return 'down';
  // A call that asks for no more than the server has (no environment at all, or the same values)
  // is served by it: the suites' only such variable gives a run a folder it may write to
  // (N8N_RESTRICT_FILE_ACCESS_TO), and a run that writes no file does not care which.
  return Object.entries(env ?? {}).every(([k, v]) => l.env[k] === v) ? 'up' : 'other';
}

async function unpublishAll(l) {
  const list = await rest(l, 'GET', '/workflows');
  for (const w of Array.isArray(list) ? list : (list?.data ?? []))
    if (w.activeVersionId || w.active) await rest(l, 'POST', `/workflows/${w.id}/deactivate`, {});
}

/** Stops the home's live server, if it has one (the next call that needs one starts another). */
async function stopLiveServer(home) {
  const h = unwrapHome(home);
  const p = lives.get(h.home);
  lives.delete(h.home);
  const l = await p?.catch(() => undefined);
  if (!l) return;
  up.delete(h.home);
  process.removeListener('exit', l.killOnExit);
  await l.srv.stop();
}

/** Kills the home's live server at once (for synchronous clean-up: removeN8nHome). */
function killLiveServer(home) {
  const h = unwrapHome(home);
  const p = lives.get(h.home);
  lives.delete(h.home);
  const l = up.get(h.home);
  up.delete(h.home);
  if (l) killGroup(l.srv.child, 'SIGKILL');
  else p?.then((started) => killGroup(started.srv.child, 'SIGKILL')).catch(() => {});
}

/** One REST call with the owner's session; resolves to the body's `data` or throws n8n's message. */
async function rest(l, method, route, body) {
  const res = await fetch(`${l.srv.url}/rest${route}`, {
    method,
    headers: { ...l.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {}
  if (!res.ok) {
    const err = new Error(json?.message ?? `${method} /rest${route}: ${res.status} ${text.slice(0, 500)}`);
    err.status = res.status;
    throw err;
  }
  return json?.data;
}

const flatted = () => createRequire(path.join(runtime().dir, 'node_modules', 'n8n', 'package.json'))('flatted');

/** An execution read over REST, with its run data parsed: the shape db.cjs's getExecutions gives. */
async function getExecution(l, executionId) {
  const e = await rest(l, 'GET', `/executions/${executionId}`);
  const data = typeof e.data === 'string' ? flatted().parse(e.data) : e.data;
  return { ...e, data };
}

module.exports = {
  servesLive,
  liveServer,
  liveState,
  stopLiveServer,
  killLiveServer,
  rest,
  getExecution,
};
