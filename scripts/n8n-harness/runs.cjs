'use strict';
// The helpers suites call to import, run, publish and poll workflows, on the home's live server
// (live.cjs): the same names, arguments and results as the CLI versions they replace (cli.cjs,
// polling.cjs), which queue-mode homes still use. Where a result must differ it is said here:
// - a run is the editor's manual run ("Execute workflow" from the start node): `run.mode` is
//   'manual' where `n8n execute` gave 'cli'; stdout is what the server logged during the run;
//   exitCode is 0 for a successful run and 1 otherwise, as `n8n execute` exits;
// - a poll is an activation on the running server: the poll's `activation` is 'activate' where a
//   fresh `n8n start` gave 'init'; a workflow stays published afterwards (as after n8n stopped),
//   so a cron that can fire keeps firing until the home is removed: pollOnce sets one that cannot.
const fs = require('node:fs');
const { importWorkflowCli, runWorkflowCli, nodeOutput } = require('./cli.cjs');
const { isShared, newId, runtime, unwrapHome } = require('./env.cjs');
const { getExecutions, getStaticData, maxExecutionId, query } = require('./db.cjs');
const { liveServer, liveState, servesLive, stopLiveServer, killLiveServer, rest, getExecution } = require('./live.cjs');
const { POLL_NEVER, activationOf, withPollTimes, publishWorkflowCli, runActiveCli } = require('./polling.cjs');
const server = require('./server.cjs');
const { releaseHome } = require('./shared.cjs');
const { withCredentialAliases } = require('./aliases.cjs');

const FINISHED = new Set(['success', 'error', 'canceled', 'crashed']);
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** Workflows a home imported and published on its live server: id -> versionId to activate. */
const published = new Map();

/** Creates or replaces (keeping its static data unless the JSON carries some) one workflow. */
async function upsert(l, w) {
  const exists = await rest(l, 'GET', `/workflows/${w.id}`).catch((e) => (e.status === 404 ? null : Promise.reject(e)));
  if (!exists) return rest(l, 'POST', '/workflows', w);
  // As `n8n import:workflow` does, a re-imported workflow is unpublished.
  if (exists.activeVersionId) await rest(l, 'POST', `/workflows/${w.id}/deactivate`, {});
  const { id: _id, active: _active, ...body } = w;
  return rest(l, 'PATCH', `/workflows/${w.id}`, { ...body, versionId: exists.versionId });
}

/**
 * Imports one workflow, or an array, and returns its id (ids); any without an id gets one.
 * Re-importing an id replaces nodes/connections, keeps the stored static data (unless the JSON
 * carries `staticData`) and UNPUBLISHES it.
 */
async function importWorkflow(home, workflow, { env } = {}) {
  if (!servesLive(home)) return importWorkflowCli(home, workflow, { env });
  const l = await liveServer(home, { env });
  const wfs = (Array.isArray(workflow) ? workflow : [workflow]).map((w) => ({
    name: 'test',
    settings: {},
    connections: {},
    ...withCredentialAliases(home, w),
    id: w.id ?? newId('wf'),
  }));
  const key = unwrapHome(home).home;
  for (const w of wfs) {
    await upsert(l, w);
    published.get(key)?.delete(w.id);
  }
  return Array.isArray(workflow) ? wfs.map((w) => w.id) : wfs[0].id;
}

// The Schedule Trigger too: the editor's "Execute workflow" runs it once, now (its manual mode emits
// one item with the time, whatever the rule), as a scheduled example is tried before it is published.
const START_TYPES = [
  'n8n-nodes-base.manualTrigger',
  'n8n-nodes-base.executeWorkflowTrigger',
  'n8n-nodes-base.scheduleTrigger',
];

/**
 * Imports (when given a workflow object; pass an id string to reuse one) and runs a workflow from
 * its Manual Trigger (or Execute Workflow Trigger, or Schedule Trigger), as the editor's "Execute
 * workflow" does.
 * Returns { ok, id, data, run, error, exitCode, stdout, stderr, ms, importMs }:
 *   run  - the whole run ({ data: { resultData: { runData, lastNodeExecuted, error? } }, mode, status, ... })
 *   data - json of the items the last executed node output on its first output
 *   ms   - wall time of the run (the import is importMs)
 */
async function runWorkflow(home, workflow, { env, timeoutMs = 180_000 } = {}) {
  if (!servesLive(home)) return runWorkflowCli(home, workflow, { env, timeoutMs });
  const l = await liveServer(home, { env });
  let importMs = 0;
  let id = workflow;
  if (typeof workflow !== 'string') {
    const t0 = performance.now();
    id = await importWorkflow(home, workflow, { env });
    importMs = Math.round(performance.now() - t0);
  }
  const from = l.srv.output().length;
  const t0 = performance.now();
  const failed = (message) => ({
    ok: false,
    id,
    data: undefined,
    run: undefined,
    error: { message, output: l.srv.output().slice(from).split('\n').slice(-15).join('\n') },
    exitCode: 1,
    stdout: l.srv.output().slice(from),
    stderr: '',
    ms: Math.round(performance.now() - t0),
    importMs,
  });
  let run;
  try {
    const wf = await rest(l, 'GET', `/workflows/${id}`);
    const start = wf.nodes.find((n) => START_TYPES.includes(n.type));
    if (!start) return failed('The workflow has no node to start the workflow');
    const started = await rest(l, 'POST', `/workflows/${id}/run`, {
      workflowData: wf,
      triggerToStartFrom: { name: start.name },
    });
    if (!started?.executionId) return failed(`n8n did not start the run: ${JSON.stringify(started)}`);
    for (const deadline = Date.now() + timeoutMs; ;) {
      const e = await getExecution(l, started.executionId);
      if (FINISHED.has(e.status) || (e.finished && e.status !== 'running')) {
        run = { data: e.data, mode: e.mode, status: e.status, startedAt: e.startedAt, stoppedAt: e.stoppedAt };
        break;
      }
      if (Date.now() > deadline) return failed(`the run did not finish in ${timeoutMs} ms`);
      await pause(100);
    }
  } catch (e) {
    return failed(e.message);
  }
  const last = run.data?.resultData?.lastNodeExecuted;
  const ok = run.status === 'success';
  return {
    ok,
    id,
    data: last ? nodeOutput(run, last) : undefined,
    run,
    error: run.data?.resultData?.error,
    exitCode: ok ? 0 : 1,
    stdout: l.srv.output().slice(from),
    stderr: '',
    ms: Math.round(performance.now() - t0),
    importMs,
  };
}

/**
 * Imports a workflow whose start node is a polling trigger and publishes it: its triggers go up at
 * the next runActive/pollOnce, as a published workflow's do at the next `n8n start`. pollTimes,
 * when given, is set on every root node (harmless on non-polling ones).
 */
async function publishWorkflow(home, workflow, { pollTimes, env } = {}) {
  if (!servesLive(home)) return publishWorkflowCli(home, workflow, { pollTimes, env });
  const id = await importWorkflow(home, withPollTimes(workflow, pollTimes), { env });
  const l = await liveServer(home, { env });
  const { versionId } = await rest(l, 'GET', `/workflows/${id}`);
  const key = unwrapHome(home).home;
  if (!published.has(key)) published.set(key, new Map());
  published.get(key).set(id, versionId);
  return id;
}

/**
 * n8n 2.41.1 publishes through an outbox that its publication service consumes after the REST call
 * has answered, and records each trigger's outcome (activationOf): waits until the outbox entries
 * made since `afterOutboxId` are consumed, and resolves to the activation's error, if any.
 */
async function publicationOutcome(home, workflowId, afterOutboxId, timeoutMs) {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const rows = await query(
      home,
      'select status, "errorMessage" from workflow_publication_outbox where "workflowId" = ? and id > ?',
      [workflowId, afterOutboxId],
    );
    if (rows.every((r) => r.status !== 'pending' && r.status !== 'in_progress')) {
      const a = await activationOf(home, workflowId, '');
      if (a.activated) return undefined;
      return a.reason ?? rows.find((r) => r.errorMessage)?.errorMessage ?? 'activation failed';
    }
    if (Date.now() > deadline)
      throw new Error(`runActive: n8n's publication of ${workflowId} not done after ${timeoutMs} ms`);
    await pause(100);
  }
}

/**
 * Activates a published workflow on the home's live server (deactivated first if it is active),
 * which polls each polling trigger ONCE at once (mode "trigger",
 * activation "activate"), then on its cron. Waits until `until(state)` is true (default: activated,
 * and every execution the activation's poll emitted has finished) and returns what happened:
 *   { executions (new ones, oldest first, see getExecutions), staticData, activated,
 *     activationError, output, ms }
 * state = { activated, activationError, executions, elapsedMs }.
 * `start` replaces the live server by another set-up that has output() and stop() (queue mode:
 * main and workers), started and stopped around the wait as before. On a queue-mode home the live
 * server is its main, the workers the caller's (publishWorkflow and runWorkflow stay the CLI's there).
 */
async function runActive(home, workflowId, opts = {}) {
  // Queue-mode homes too: the live server is then their main (the workers are the test's).
  if (opts.start) return runActiveCli(home, workflowId, opts);
  const { until, env, timeoutMs = 60_000, settleMs = 300 } = opts;
  if ((await liveState(home, { env })) === 'down') {
    // No live server (the first call, or an editor had the home): starting one activates what is
    // published, as the `n8n start` this replaces did; that activation's poll is this one.
    const [row] = await query(home, 'select "activeVersionId" from workflow_entity where id = ?', [workflowId]);
    if (row?.activeVersionId) {
      const start = async () => {
        // Its whole output: the activations are logged while it starts.
        const l = await liveServer(home, { env });
        return { output: () => l.srv.output(), stop: async () => {} };
      };
      return runActiveCli(home, workflowId, { ...opts, start });
    }
  }
  const l = await liveServer(home, { env });
  const afterId = await maxExecutionId(home);
  const t0 = performance.now();
  const from = l.srv.output().length;
  const wf = await rest(l, 'GET', `/workflows/${workflowId}`);
  const versionId = published.get(unwrapHome(home).home)?.get(workflowId) ?? wf.activeVersionId ?? wf.versionId;
  const outbox = runtime().activation === 'publication-status';
  const [{ lastOutboxId } = {}] = outbox
    ? await query(home, 'select max(id) as "lastOutboxId" from workflow_publication_outbox')
    : [];
  let activationError;
  try {
    // Off first, so every poll here is a first activation's (activation "activate", not "update").
    if (wf.activeVersionId) await rest(l, 'POST', `/workflows/${workflowId}/deactivate`, {});
    await rest(l, 'POST', `/workflows/${workflowId}/activate`, { versionId });
  } catch (e) {
    activationError = e.message;
  }
  if (outbox && !activationError)
    activationError = await publicationOutcome(home, workflowId, lastOutboxId ?? 0, timeoutMs);
  const activated = !activationError;
  // The activation's poll hands what it emitted to a run it does not wait for (__emit), logged
  // at debug level as it happens: until every such run is stored and finished, it is not done.
  const emitted = () =>
    l.srv.output().slice(from).split(`Received event to trigger execution for workflow "${wf.name}"`).length - 1;
  let state;
  for (const deadline = Date.now() + timeoutMs; ;) {
    const executions = await getExecutions(home, workflowId, { afterId });
    state = { activated, activationError, executions, elapsedMs: Math.round(performance.now() - t0) };
    const done = until
      ? until(state)
      : !activated || (executions.length >= emitted() && executions.every((e) => e.finished || FINISHED.has(e.status)));
    if (done) break;
    if (Date.now() > deadline)
      throw new Error(`runActive: condition not met after ${timeoutMs} ms:\n${l.srv.output().slice(-3000)}`);
    await pause(until ? settleMs : 100);
  }
  // A caller's condition may hold while an execution is still being written: give it a moment.
  if (until) await pause(settleMs);
  return {
    ...state,
    executions: await getExecutions(home, workflowId, { afterId }),
    staticData: await getStaticData(home, workflowId),
    output: l.srv.output().slice(from),
    ms: Math.round(performance.now() - t0),
  };
}

/**
 * Exactly one real poll of a published workflow's polling trigger(s): (re)activate it on the live
 * server, wait for the activation's poll and its execution. Static data persists in the home's db
 * between calls, so call it N times for N polls. Pass a workflow object to (re)import and publish
 * it first, with a cron that will not fire during the run.
 */
async function pollOnce(home, workflow, opts = {}) {
  const id =
    typeof workflow === 'string'
      ? workflow
      : await publishWorkflow(home, workflow, { pollTimes: POLL_NEVER, env: opts.env });
  return { id, ...(await runActive(home, id, opts)) };
}

/**
 * The editor for a person on a home (`npm start`, and a test that drives the editor's REST API
 * itself): its own `n8n start`, so the home's live server, if any, is stopped first (one n8n per
 * SQLite database); the next helper call starts it again.
 */
async function startEditor(opts = {}) {
  if (opts.home) await stopLiveServer(opts.home);
  return server.startEditor(opts);
}

/**
 * The editor of the home's live server, for a test that drives the editor's REST API itself (what
 * a person's clicks send) without a boot of its own: { url, port, owner, stop() }, as startEditor
 * gives, and `headers`, the owner's session (cookie and browser id) the harness holds: a test that
 * logged in again would spend n8n's 5 logins a minute that a run's suites share. stop() leaves
 * the server up for the next call. Its published workflows stay active, as in an editor a person opens
 * on a running n8n.
 */
async function editorOf(home) {
  const l = await liveServer(home);
  return {
    url: l.srv.url,
    port: l.srv.port,
    owner: { ...server.DEFAULT_OWNER },
    headers: { ...l.headers },
    stop: async () => {},
  };
}

/**
 * Deletes a temp home, after killing its live server. A run's shared home is released instead
 * (shared.cjs): the promise it returns is done when it is.
 */
function removeN8nHome(home) {
  if (isShared(home)) return releaseHome(home);
  killLiveServer(home);
  published.delete(unwrapHome(home).home);
  fs.rmSync(unwrapHome(home).home, { recursive: true, force: true });
}

module.exports = {
  importWorkflow,
  runWorkflow,
  publishWorkflow,
  runActive,
  pollOnce,
  startEditor,
  editorOf,
  removeN8nHome,
  stopLiveServer,
};
