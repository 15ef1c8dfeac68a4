'use strict';
// n8n's queue mode (its own scale-out): Redis holds the job queue, Postgres is the database every
// process shares, `n8n start` is the main (UI, webhooks, triggers and polls) and `n8n worker`s run
// the executions. Redis and Postgres are Debian's packages (queue-install.mjs installs them), each
// started here on a free 127.0.0.1 port in a temp folder and removed afterwards.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { baseEnv, ensureN8n, freePort, runtime, unwrapHome } = require('./env.cjs');
const { killGroup } = require('./cli.cjs');
const { DEFAULT_OWNER, setupOwner, startN8n } = require('./server.cjs');
const { rest } = require('./live.cjs');

const REDIS_BIN = '/usr/bin/redis-server';

/** Debian puts each Postgres major in /usr/lib/postgresql/<major>/bin; the newest one wins. */
function postgresBinDir() {
  const base = '/usr/lib/postgresql';
  const majors = fs.existsSync(base)
    ? fs.readdirSync(base).filter((d) => fs.existsSync(path.join(base, d, 'bin', 'postgres')))
    : [];
  majors.sort((a, b) => Number(b) - Number(a));
  return majors.length ? path.join(base, majors[0], 'bin') : null;
}

function queueServicesMissing() {
  const missing = [];
  if (!fs.existsSync(REDIS_BIN)) missing.push('redis-server');
  if (!postgresBinDir()) missing.push('postgresql');
  return missing;
}

// Postgres refuses to run as root: as root, its commands run as Debian's `postgres` user.
const asPostgres = (cmd, args) =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];

/** A long-running process in its own process group, with its output kept and a stop(). */
function daemon(cmd, args, { env, cwd } = {}) {
  const child = spawn(cmd, args, { env: env ?? process.env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  let exited = null;
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));
  return {
    child,
    output: () => out,
    exited: () => exited,
    async stop(signal = 'SIGTERM', graceMs = 15_000) {
      if (exited) return exited;
      killGroup(child, signal);
      const t = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      const r = await exit;
      clearTimeout(t);
      return r;
    },
  };
}

async function waitFor(what, proc, ready, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return;
    if (proc.exited())
      throw new Error(
        `${what} exited (${JSON.stringify(proc.exited())}) before it was ready:\n${proc.output().slice(-3000)}`,
      );
    if (Date.now() > deadline) {
      await proc.stop('SIGKILL');
      throw new Error(`${what} not ready after ${timeoutMs} ms:\n${proc.output().slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Starts Redis and Postgres for one queue-mode set-up. Returns { env, stop() }: `env` is what every
 * n8n process of it needs (queue mode, the Redis and Postgres addresses).
 */
async function startQueueServices({ timeoutMs = 60_000 } = {}) {
  const missing = queueServicesMissing();
  if (missing.length)
    throw new Error(`queue mode needs ${missing.join(' and ')}: run node scripts/n8n-harness/queue-install.mjs`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'igdata-queue-'));
  fs.chmodSync(dir, 0o711); // the postgres user must reach its data folder inside
  const started = [];
  const stop = async () => {
    for (const p of started.reverse()) await p.stop('SIGINT'); // Postgres: SIGINT = fast shutdown
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const redisPort = await freePort();
    const redis = daemon(REDIS_BIN, [
      '--port',
      String(redisPort),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ]);
    started.push(redis);
    await waitFor('redis-server', redis, () => /Ready to accept connections/.test(redis.output()), timeoutMs);

    const pgDir = path.join(dir, 'pg');
    fs.mkdirSync(pgDir, { mode: 0o700 });
    if (process.getuid?.() === 0) spawnSync('chown', ['-R', 'postgres:postgres', pgDir]);
    const bin = postgresBinDir();
    const [initCmd, initArgs] = asPostgres(path.join(bin, 'initdb'), [
      '-D',
      path.join(pgDir, 'data'),
      '-U',
      'n8n',
      '-A',
      'trust',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ]);
    const init = spawnSync(initCmd, initArgs, { encoding: 'utf8', cwd: pgDir });
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);
    const pgPort = await freePort();
    // A throwaway database: durability settings off, sockets in the temp folder.
    const [pgCmd, pgArgs] = asPostgres(path.join(bin, 'postgres'), [
      '-D',
      path.join(pgDir, 'data'),
      '-p',
      String(pgPort),
      '-h',
      '127.0.0.1',
      '-k',
      pgDir,
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ]);
    const pg = daemon(pgCmd, pgArgs, { cwd: pgDir });
    started.push(pg);
    await waitFor('postgres', pg, () => /database system is ready to accept connections/.test(pg.output()), timeoutMs);
    const env = {
      EXECUTIONS_MODE: 'queue',
      QUEUE_BULL_REDIS_HOST: '127.0.0.1',
      QUEUE_BULL_REDIS_PORT: String(redisPort),
      DB_TYPE: 'postgresdb',
      DB_POSTGRESDB_HOST: '127.0.0.1',
      DB_POSTGRESDB_PORT: String(pgPort),
      DB_POSTGRESDB_DATABASE: 'postgres',
      DB_POSTGRESDB_USER: 'n8n',
      DB_POSTGRESDB_PASSWORD: 'n8n',
    };
    return { env, stop, redis, postgres: pg };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** `n8n worker`, ready when it says so. Returns { output(), stop() }. */
async function startWorker(home, { env = {}, concurrency = 10, timeoutMs = 90_000 } = {}) {
  const h = unwrapHome(home);
  const bin = await ensureN8n();
  const fullEnv = {
    ...process.env,
    ...baseEnv(h.home),
    ...h.env,
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    QUEUE_HEALTH_CHECK_PORT: String(await freePort()),
    ...env,
  };
  const worker = daemon(runtime().nodeBin, [bin, 'worker', `--concurrency=${concurrency}`], {
    env: fullEnv,
    cwd: h.home,
  });
  await waitFor('n8n worker', worker, () => worker.output().includes('n8n worker is now ready'), timeoutMs);
  return worker;
}

/**
 * Main + `workers` workers on one queue-mode home (its env has the services' env). Returns the
 * main's { url, port, output(), stop() } plus `workers` (each with output()); stop() stops all.
 */
async function startQueue(home, { workers = 2, env, timeoutMs } = {}) {
  // Side by side: each boot waits on the disk and the database as much as on the CPU.
  const started = await Promise.allSettled([
    startN8n(home, { env, timeoutMs }),
    ...Array.from({ length: workers }, () => startWorker(home, { env, timeoutMs })),
  ]);
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    for (const r of started) if (r.status === 'fulfilled') await r.value.stop();
    throw failed.reason;
  }
  const [main, ...ws] = started.map((r) => r.value);
  return {
    ...main,
    workers: ws,
    async stop() {
      await main.stop();
      for (const w of ws) await w.stop();
    },
  };
}

/**
 * Imports a workflow and publishes it on a queue's running main, over its REST API with the
 * owner's session (created on first use): its webhooks go up on the main without the two CLI boots
 * (import:workflow, publish:workflow) of publishWorkflow on a queue-mode home. Returns its id;
 * wait for the activation with activationOf.
 */
async function publishOnMain(main, workflow) {
  await setupOwner(main.url, DEFAULT_OWNER);
  const headers = { 'browser-id': 'igdata-queue' };
  const res = await fetch(`${main.url}/rest/login`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ emailOrLdapLoginId: DEFAULT_OWNER.email, password: DEFAULT_OWNER.password }),
  });
  if (!res.ok) throw new Error(`n8n login failed: ${res.status} ${await res.text()}`);
  const session = { srv: main, headers: { ...headers, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] } };
  const wf = await rest(session, 'POST', '/workflows', { settings: {}, ...workflow });
  await rest(session, 'POST', `/workflows/${wf.id}/activate`, { versionId: wf.versionId });
  return wf.id;
}

/** Execution ids each worker ran ("Worker started execution <id>"), one array per worker. */
function workerExecutions(queue) {
  return queue.workers.map((w) => [...w.output().matchAll(/Worker started execution (\d+)/g)].map((m) => Number(m[1])));
}

module.exports = {
  queueServicesMissing,
  startQueueServices,
  startWorker,
  startQueue,
  publishOnMain,
  workerExecutions,
};
