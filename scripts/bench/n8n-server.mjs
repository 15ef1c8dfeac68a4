// The workflows of `npm run bench:n8n` run as production runs them: published, in ONE long-running
// `n8n start`, each execution started by its webhook (a Webhook trigger named "Start" stands in
// for the Manual Trigger the cases are written with). So what a node keeps in its process between
// executions (the IG Data node's pace and the balance it last saw) carries over as it does for
// users, and n8n's start-up is out of every figure.
import {
  activationOf,
  getExecutions,
  maxExecutionId,
  publishWorkflowCli,
  runtime,
  startN8n,
} from '../n8n-harness/index.cjs';

const webhook = (k) => ({
  id: 'start',
  name: 'Start',
  type: 'n8n-nodes-base.webhook',
  typeVersion: 2,
  position: [0, 0],
  webhookId: `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`,
  parameters: { httpMethod: 'GET', path: `bench-${k}`, responseMode: 'lastNode', responseData: 'noData', options: {} },
});

/**
 * Publishes `workflows` ({ name: workflow }), starts n8n and waits until every one is active.
 * Returns { run(name): { ok, run, error }, stop() }; run's `run` has the shape of `n8n execute
 * --rawOutput`'s (so nodeOutput reads it).
 */
export async function serveWorkflows(home, workflows) {
  const ids = {};
  const names = Object.keys(workflows);
  for (const [k, name] of names.entries()) {
    const wf = workflows[name];
    const nodes = wf.nodes.map((n) => (n.name === 'Start' ? webhook(k) : n));
    // By the CLI: the server that serves them is this one, started below (not the harness's live one).
    ids[name] = await publishWorkflowCli(home, { ...wf, id: `wfBench${String(k).padStart(9, '0')}`, nodes });
  }
  const srv = await startN8n(home);
  try {
    const deadline = Date.now() + 120_000;
    for (const name of names) {
      for (;;) {
        const a = await activationOf(home, ids[name], srv.output());
        if (a.activated) break;
        if (a.failed && a.reason) throw new Error(`${name}: activation failed: ${a.reason}`);
        if (Date.now() > deadline) throw new Error(`${name} not active after 120 s:\n${srv.output().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 300));
      }
    }
  } catch (e) {
    await srv.stop();
    throw e;
  }
  return {
    version: runtime().version,
    async run(name, { timeoutMs = 300_000 } = {}) {
      const after = await maxExecutionId(home);
      const k = names.indexOf(name);
      const res = await fetch(`${srv.url}/webhook/bench-${k}`, { signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer();
      // The execution is saved as it ends, about when its answer leaves: wait for the row.
      for (const until = Date.now() + 30_000; Date.now() < until;) {
        const [e] = await getExecutions(home, ids[name], { afterId: after });
        if (e?.finished || (e && e.status !== 'running' && e.status !== 'new'))
          return { ok: e.status === 'success', run: e.run, error: e.run.data?.resultData?.error };
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${name}: no finished execution 30 s after its webhook answered (${res.status})`);
    },
    stop: () => srv.stop(),
  };
}
