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
//
// A test run's shared home (shared.cjs) keeps its server across the suites of one jest worker: n8n
// logs to a file in the home and `live.json` says where it is, so the next suite (a new module
// registry, the same process) attaches to it instead of booting another; jest's global teardown
// kills it. Its file access is the system's temp folder (where the suites make theirs), so a run
// asking for a folder inside it is served without a restart.
const fs = require('node:fs');
const { createRequire } = require('node:module');
const os = require('node:os');
const path = require('node:path');
const { killGroup } = require('./cli.cjs');
const { isShared, runtime, unwrapHome } = require('./env.cjs');
const { startN8n, attachN8n, DEFAULT_OWNER, setupOwner } = require('./server.cjs');

const RESTRICT = 'N8N_RESTRICT_FILE_ACCESS_TO';
const stateFile = (h) => path.join(h.home, 'live.json');

const BROWSER_ID = 'igdata-harness';
/** Homes with a live server in this process: home path -> Promise<Live>; and those up: -> Live. */
const lives = new Map();
const up = new Map();

/** Whether the harness runs this home's workflows on a live server (not a queue-mode home). */
const servesLive = (home) => unwrapHome(home).env.EXECUTIONS_MODE !== 'queue';

/**
 * The owner's session cookie. n8n allows 5 logins a minute for one account (its AuthController's keyedRateLimit on
 * emailOrLdapLoginId, in 2.8.4 and 2.41.1 alike), and the suites of a run share one server: so a session is
 * kept with the server's state and reused (`session`), and a login refused for the rate waits the time n8n names
 * (Retry-After, else its one-minute window) and tries again.
 */
async function login(url, owner) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${url}/rest/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
      body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
    });
    if (res.status === 429 && attempt < 3) {
      const after = Number(res.headers.get('retry-after'));
      await new Promise((r) => setTimeout(r, (after > 0 ? Math.min(after, 120) : 60) * 1000 + 250));
      continue;
    }
    if (!res.ok) throw new Error(`n8n login failed: ${res.status} ${await res.text()}`);
    return (res.headers.get('set-cookie') ?? '').split(';')[0];
  }
}

/** Whether a kept session is still signed in (GET /rest/login answers the current user). */
const signedIn = (url, headers) =>
  fetch(`${url}/rest/login`, { headers, signal: AbortSignal.timeout(5000) }).then(
    (r) => r.ok,
    () => false,
  );

async function boot(h, env) {
  const shared = isShared(h);
  if (shared) env = { [RESTRICT]: fs.realpathSync(os.tmpdir()), ...env };
  const logFile = shared ? path.join(h.home, `live-${Date.now()}.log`) : undefined;
  // Debug level: the moment a poll hands items to a run is logged only there (runs.cjs, runActive).
  const srv = await startN8n(h, { env: { ...env, N8N_LOG_LEVEL: 'debug' }, logFile });
  // The server and its task runner must not keep jest's process alive; a home's own must not
  // outlive it either (a shared one lives until the run's teardown).
  srv.child.unref();
  srv.child.stdout?.unref?.();
  srv.child.stderr?.unref?.();
  const killOnExit = () => killGroup({ pid: srv.pid }, 'SIGKILL');
  // A shared one outlives the suite, not the worker: when jest ends a worker without its global
  // teardown (interrupted), the server goes with it.
  process.once('exit', killOnExit);
  try {
    await setupOwner(srv.url, DEFAULT_OWNER);
    const l = await session(srv, env, shared ? undefined : killOnExit);
    if (shared)
      fs.writeFileSync(
        stateFile(h),
        JSON.stringify({ url: srv.url, port: srv.port, pid: srv.pid, logFile, env, headers: l.headers }),
      );
    up.set(h.home, l);
    return l;
  } catch (e) {
    await srv.stop();
    throw e;
  }
}

/** The owner's session on `srv`: the one kept with a shared server (`known`) while it is signed in, else a login. */
async function session(srv, env, killOnExit, known) {
  const headers =
    known && (await signedIn(srv.url, known))
      ? known
      : { cookie: await login(srv.url, DEFAULT_OWNER), 'browser-id': BROWSER_ID };
  return { srv, env: { ...env }, headers, killOnExit };
}

/** A shared home's server that an earlier suite of this run started and left up, if there is one. */
async function attach(h) {
  if (!isShared(h) || !fs.existsSync(stateFile(h))) return undefined;
  const state = JSON.parse(fs.readFileSync(stateFile(h), 'utf8'));
  const srv = attachN8n(state);
  try {
    if (srv.alive() && (await fetch(`${srv.url}/healthz/readiness`, { signal: AbortSignal.timeout(2000) })).ok) {
      const l = await session(srv, state.env, undefined, state.headers);
      up.set(h.home, l);
      return l;
    }
  } catch {}
  await srv.stop(0);
  fs.rmSync(stateFile(h), { force: true });
  return undefined;
}

/**
 * The home's live server, started if there is none (or restarted if it runs with other `env`).
 * Returns { srv: { url, output(), stop() }, headers }.
 */
async function liveServer(home, { env } = {}) {
  const h = unwrapHome(home);
  let p = lives.get(h.home);
  if (!p) {
    const attached = await attach(h);
    if (attached) lives.set(h.home, (p = Promise.resolve(attached)));
  }
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
  const h = unwrapHome(home);
  if (!lives.has(h.home)) {
    const attached = await attach(h);
    if (attached) lives.set(h.home, Promise.resolve(attached));
  }
  const l = await lives.get(h.home)?.catch(() => undefined);
  if (!l || !l.srv.alive()) return 'down';
  // A call that asks for no more than the server has (no environment at all, or the same values)
  // is served by it: the suites' only such variable gives a run a folder it may write to
  // (N8N_RESTRICT_FILE_ACCESS_TO), and a run that writes no file does not care which; a folder
  // inside one the server may write to is served too.
  return Object.entries(env ?? {}).every(([k, v]) => l.env[k] === v || (k === RESTRICT && within(v, l.env[k])))
    ? 'up'
    : 'other';
}

/** Whether every folder of a RESTRICT value lies inside one of another's (n8n separates them with `;`). */
function within(asked, allowed) {
  if (!allowed) return false;
  const roots = allowed.split(';').map((r) => path.resolve(r));
  return asked
    .split(';')
    .map((a) => (fs.existsSync(a) ? fs.realpathSync(a) : path.resolve(a)))
    .every((a) => roots.some((r) => a === r || a.startsWith(r + path.sep)));
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
  if (l.killOnExit) process.removeListener('exit', l.killOnExit);
  await l.srv.stop();
  fs.rmSync(stateFile(h), { force: true });
}

/** Kills the home's live server at once (for synchronous clean-up: removeN8nHome). */
function killLiveServer(home) {
  const h = unwrapHome(home);
  const p = lives.get(h.home);
  lives.delete(h.home);
  const l = up.get(h.home);
  up.delete(h.home);
  if (l) killGroup({ pid: l.srv.pid }, 'SIGKILL');
  else p?.then((started) => killGroup({ pid: started.srv.pid }, 'SIGKILL')).catch(() => {});
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
  unpublishAll,
  servesLive,
  liveServer,
  liveState,
  stopLiveServer,
  killLiveServer,
  rest,
  getExecution,
};
