'use strict';
// One n8n per jest worker and version for a whole test run (issue 31): the real-n8n suites a worker
// runs one after another share a home and its live server (live.cjs), where each used to make a home
// and boot n8n (6-9 s) plus an `n8n import:credentials` (3-4 s). Jest's global setup makes the run's
// folder (openRun) and its teardown kills what is left (closeRun).
//
// Suites stay independent on a shared home:
// - credentials: each suite creates its own through the editor's REST API; n8n gives them new ids,
//   so the ids a suite's workflows name are mapped to those at every import (aliases.cjs);
// - workflows and executions: ids of the suite's own (newId), read back by id;
// - at its end a suite unpublishes every workflow (no cron of its fires in the next suite) and
//   deletes its credentials (releaseHome);
// - one worker runs one suite at a time, so what the server logs while a suite runs is that suite's.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DEFAULT_ENCRYPTION_KEY, isShared, newId, runDir, runtime, unwrapHome } = require('./env.cjs');
const homes = require('./homes.cjs');
const { liveServer, liveState, rest, unpublishAll } = require('./live.cjs');
const { pidAlive } = require('./server.cjs');
const { addAlias, dropAliases } = require('./aliases.cjs');

const RUN_PREFIX = 'igdata-n8n-run-';

/**
 * For jest's global setup: the run's folder, in the environment its workers inherit. Runs that
 * ended without their teardown (jest killed) are cleaned up first: their servers would run on.
 */
function openRun() {
  const tmp = fs.realpathSync(os.tmpdir());
  for (const name of fs.readdirSync(tmp).filter((n) => n.startsWith(RUN_PREFIX))) {
    const dir = path.join(tmp, name);
    let owner;
    try {
      owner = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8')).pid;
    } catch {}
    if (owner && !pidAlive(owner)) closeRun(dir);
  }
  const dir = fs.mkdtempSync(path.join(tmp, RUN_PREFIX));
  fs.writeFileSync(path.join(dir, 'run.json'), JSON.stringify({ pid: process.pid }));
  process.env.IGDATA_N8N_RUN_DIR = dir;
}

/** For jest's global teardown: kills every shared server of the run (and its task runner) and removes the folder. */
function closeRun(dir = runDir()) {
  if (!dir) return;
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const state = path.join(dir, name, 'live.json');
    if (!fs.existsSync(state)) continue;
    try {
      process.kill(-JSON.parse(fs.readFileSync(state, 'utf8')).pid, 'SIGKILL');
    } catch {}
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * This worker's home for this n8n version with `packageDir` installed, made on first use; undefined
 * outside a jest run (then make one with createN8nHome). Returns { home, env } as createN8nHome does.
 */
async function sharedHome({ packageDir }) {
  const dir = runDir();
  if (!dir) return undefined;
  const name = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).name;
  const home = path.join(dir, `${runtime().version}-${name.replace(/\W+/g, '_')}-${process.pid}`);
  if (fs.existsSync(path.join(home, '.n8n', 'database.sqlite')))
    return { home, env: { N8N_ENCRYPTION_KEY: DEFAULT_ENCRYPTION_KEY } };
  return homes.createN8nHome({ packageDir, dir: home });
}

/**
 * Imports credentials given as plain objects: on a shared home through the live server's REST API
 * (n8n encrypts them; the ids given are aliases for the ones n8n makes), elsewhere with the CLI.
 * Resolves to the ids the suite's workflows use.
 */
async function importCredentials(home, credentials) {
  if (!isShared(home)) return homes.importCredentials(home, credentials);
  const h = unwrapHome(home);
  const l = await liveServer(h);
  const ids = [];
  for (const c of credentials) {
    const id = c.id ?? newId('cred');
    const made = await rest(l, 'POST', '/credentials', { name: c.name ?? c.type, type: c.type, data: c.data ?? {} });
    addAlias(h, id, made.id);
    ids.push(id);
  }
  return ids;
}

/**
 * A suite's end on a shared home: nothing of it stays published, its credentials go (n8n would
 * find a credential a workflow names by an unknown id by its name: another suite's), the server
 * stays up for the next suite (started again if the suite stopped it: the next needs it anyway).
 */
async function releaseHome(home) {
  const h = unwrapHome(home);
  const made = dropAliases(h);
  if (!made.length && (await liveState(h)) === 'down') return;
  const l = await liveServer(h);
  await unpublishAll(l);
  for (const id of made) await rest(l, 'DELETE', `/credentials/${id}`).catch(() => {});
}

module.exports = { openRun, closeRun, sharedHome, importCredentials, releaseHome };
