'use strict';
// Polling triggers run as in production: publish the workflow, start n8n (which activates it and
// polls once at once, then on the node's cron), watch the executions it stores, stop.
const { importWorkflowCli, n8nFailed, runN8n } = require('./cli.cjs');
const { runtime } = require('./env.cjs');
const { getExecutions, getStaticData, maxExecutionId, query } = require('./db.cjs');
const { startN8n } = require('./server.cjs');

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
  for (const outs of Object.values(workflow.connections ?? {}))
    for (const conns of Object.values(outs)) for (const c of conns.flat()) c && targets.add(c.node);
  return workflow.nodes.filter((n) => !targets.has(n.name)).map((n) => n.name);
}

/** The workflow with `pollTimes` set on every root node (harmless on non-polling ones), if given. */
function withPollTimes(workflow, pollTimes) {
  if (!pollTimes) return workflow;
  const roots = new Set(rootNodeNames(workflow));
  return {
    ...workflow,
    nodes: workflow.nodes.map((n) => (roots.has(n.name) ? { ...n, parameters: { ...n.parameters, pollTimes } } : n)),
  };
}

/**
 * Imports a workflow whose start node is a polling trigger and publishes it (the 2.x word for
 * activating; `n8n update:workflow --active=true` is deprecated). pollTimes, when given, is set
 * on every root node (harmless on non-polling ones).
 */
async function publishWorkflowCli(home, workflow, { pollTimes, env } = {}) {
  const wf = withPollTimes(workflow, pollTimes);
  // 2.41.1's import of a published workflow deactivates it through its publication service, which
  // the CLI may not be allowed to do ("You do not have permission to deactivate this workflow"):
  // unpublish it first (a plain database update there), then import and publish the new version.
  if (wf.id && runtime().activation === 'publication-status') {
    const [row] = await query(home, 'select "activeVersionId" from workflow_entity where id = ?', [wf.id]);
    if (row?.activeVersionId) {
      const u = await runN8n(home, ['unpublish:workflow', `--id=${wf.id}`], { env });
      if (u.code !== 0) throw n8nFailed('unpublish:workflow', u);
    }
  }
  const id = await importWorkflowCli(home, wf, { env });
  const r = await runN8n(home, ['publish:workflow', `--id=${id}`], { env });
  if (r.code !== 0 || /Error|GOT ERROR/.test(r.stdout.split('Publishing workflow')[1] ?? ''))
    throw n8nFailed('publish:workflow', r);
  return id;
}

/**
 * Where n8n says whether a published workflow's triggers are up (the versions differ):
 * - 2.8.4 activates published workflows at start and logs "Activated workflow ... (ID: x)"; when
 *   the activation poll throws it logs "Issue on initial workflow activation try", then
 *   `did fail with error: "<message>"` on its retries.
 * - 2.41.1 activates them through its publication service (an outbox processed at start) and logs
 *   nothing at info level; it records each trigger's outcome in workflow_publication_trigger_status
 *   (status "activated", or an errorMessage), per published version.
 * Returns { activated, failed, reason }.
 */
async function activationOf(home, workflowId, out) {
  if (runtime().activation === 'publication-status') {
    const rows = await query(
      home,
      `select s.status, s."errorMessage" from workflow_publication_trigger_status s
         join workflow_entity w on w.id = s."workflowId" and w."activeVersionId" = s."versionId"
        where s."workflowId" = ?`,
      [workflowId],
    );
    const failedRow = rows.find((r) => r.errorMessage);
    return {
      activated: rows.length > 0 && rows.every((r) => r.status === 'activated'),
      failed: !!failedRow,
      reason: failedRow?.errorMessage,
    };
  }
  const failed =
    out.includes('Issue on initial workflow activation try of ') && out.includes(`(ID: ${workflowId}) (startup)`);
  return {
    activated: new RegExp(`Activated workflow .*\\(ID: ${workflowId}\\)`).test(out),
    failed,
    reason: new RegExp(`Activation of workflow .* \\(${workflowId}\\) did fail with error: "(.*)" \\| retry`).exec(
      out,
    )?.[1],
  };
}

/**
 * Runs published workflows the way production does: `n8n start`, which activates them. On
 * activation n8n polls each polling trigger ONCE at once (mode "trigger", activation "init"),
 * then on its cron. Waits until `until(state)` is true (default: the workflow
 * activated and every execution finished), stops n8n (SIGTERM) and returns what happened:
 *   { executions (new ones, oldest first, see getExecutions), staticData, activated,
 *     activationError, output, ms }
 * state = { activated, activationError, executions, elapsedMs }.
 * `start` replaces `n8n start` by another set-up that has output() and stop() (queue mode: main
 * and workers).
 */
async function runActiveCli(
  home,
  workflowId,
  { until, env, timeoutMs = 60_000, settleMs = 300, start = () => startN8n(home, { env, timeoutMs }) } = {},
) {
  const afterId = await maxExecutionId(home);
  const t0 = performance.now();
  const srv = await start();
  let state;
  let failedAt;
  try {
    const deadline = Date.now() + timeoutMs;
    const done = new Set(['success', 'error', 'canceled', 'crashed']);
    // 2.41.1 records the trigger as activated when its first poll returned, but starts the run of
    // what the poll emitted without waiting (PollTriggerExecutor calls __emit unawaited): give the
    // execution a moment to appear before "every execution finished" can be true.
    const graceMs = runtime().activation === 'publication-status' ? 2000 : 0;
    let activatedAt;
    until ??= (s) =>
      s.activated &&
      Date.now() - (activatedAt ??= Date.now()) >= graceMs &&
      s.executions.every((e) => e.finished || done.has(e.status));
    for (;;) {
      const out = srv.output();
      const executions = await getExecutions(home, workflowId, { afterId });
      const { activated, failed, reason } = await activationOf(home, workflowId, out);
      state = {
        activated,
        activationError: failed ? (reason ?? 'activation failed (waiting for the error message)') : undefined,
        executions,
        elapsedMs: Math.round(performance.now() - t0),
      };
      if ((failed && (reason || Date.now() - failedAt > 5000)) || until(state)) break;
      if (failed) failedAt ??= Date.now();
      if (Date.now() > deadline)
        throw new Error(`runActive: condition not met after ${timeoutMs} ms:\n${out.slice(-3000)}`);
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
async function pollOnceCli(home, workflow, opts = {}) {
  const id =
    typeof workflow === 'string'
      ? workflow
      : await publishWorkflowCli(home, workflow, { pollTimes: POLL_NEVER, env: opts.env });
  return { id, ...(await runActiveCli(home, id, opts)) };
}

module.exports = {
  POLL_NEVER,
  pollTimesEverySeconds,
  withPollTimes,
  publishWorkflowCli,
  activationOf,
  runActiveCli,
  pollOnceCli,
};
