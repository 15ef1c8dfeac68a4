/**
 * One execution thread of a concurrent runtime (pool.ts): its own Apps Script runtime (script
 * realm per execution, its own UrlFetchApp worker, real sleeps) with the document cache and lock
 * of the shared document. Runs the executions the pool sends, one at a time, each after the
 * pool's start gate opens (so a recalculation's executions start at the same moment).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createGasRuntime, GasScriptError } from '../runtime';
import type { ThreadData, RunMessage, RunReply } from './pool';

const data = workerData as ThreadData;
const rt = createGasRuntime({
  files: data.files,
  dir: data.dir,
  addonName: data.addonName,
  enforceUrlFetchWhitelist: data.enforceUrlFetchWhitelist,
  limits: data.limits,
  sleep: 'real',
  startAt: data.startAt,
  startRealAt: data.startRealAt,
  rewriteUrl: data.rewrite
    ? (u) => (u.startsWith(data.rewrite!.from) ? data.rewrite!.to + u.slice(data.rewrite!.from.length) : u)
    : undefined,
  sharedDocument: { ...data.channel, thread: data.thread },
});
for (const [k, v] of Object.entries(data.documentProperties ?? {})) rt.properties.document.set(k, v);

const port = parentPort!;
port.on('message', (m: RunMessage | { type: 'close' }) => {
  if (m.type === 'close') {
    void rt.close().then(() => port.postMessage({ type: 'closed' }));
    return;
  }
  Atomics.wait(data.gate, 0, 0); // until the pool opens the gate
  const startedAt = Date.now();
  const requests0 = rt.stats.requests;
  let reply: RunReply;
  try {
    const value = rt.run(m.fn, m.args, { kind: m.kind ?? 'custom', cell: m.cell });
    reply = {
      type: 'done',
      id: m.id,
      ok: true,
      value,
      startedAt,
      endedAt: Date.now(),
      requests: rt.stats.requests - requests0,
      thread: data.thread,
    };
  } catch (e) {
    const err = e instanceof GasScriptError ? e : null;
    reply = {
      type: 'done',
      id: m.id,
      ok: false,
      error: err ? err.display : String(e),
      timedOut: err?.timedOut ?? false,
      startedAt,
      endedAt: Date.now(),
      requests: rt.stats.requests - requests0,
      thread: data.thread,
    };
  }
  port.postMessage(reply);
});
port.postMessage({ type: 'ready' });
