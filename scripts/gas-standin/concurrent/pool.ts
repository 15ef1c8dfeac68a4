/**
 * Concurrent executions, as Sheets runs a recalculation: several custom-function cells at once,
 * each its own execution, all sharing the document's cache and lock. N worker threads (worker.ts),
 * each its own Apps Script runtime doing real HTTP, one SharedDocument (shared-doc.ts) on this
 * thread. `runAll` starts up to N executions at the same moment; the rest wait for a free thread,
 * as Sheets queues cells beyond its concurrency.
 *
 *   const pool = await createConcurrentRuntime({ threads: 8, files, dir, rewrite: { from: PROD, to: sandboxUrl },
 *     documentProperties: { IGDATA_API_KEY: key } });
 *   const run = await pool.runAll([{ fn: 'IGPROFILE', args: [[['nasa']], 'followers'] }, ...]);
 *   await pool.close();
 *
 * This thread must stay free while executions run (it answers their cache and lock calls): await
 * runAll, never block here. The worker source is TypeScript, bundled once per process with esbuild.
 */
import { buildSync } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ExecutionKind, GasLimits } from '../internal/types';
import { clockStart } from '../../lib/clock-start';
import { DocChannel, SharedDocument } from './shared-doc';

export interface ConcurrentOptions {
  /** Executions that may run at once (worker threads). */
  threads: number;
  /** Script files (paths) in load order. */
  files: string[];
  dir?: string;
  addonName?: string;
  enforceUrlFetchWhitelist?: boolean;
  limits?: Partial<GasLimits>;
  /** Requests to `from...` go to `to...` (a function cannot cross threads). */
  rewrite?: { from: string; to: string };
  /** Document properties every thread starts with (e.g. the API key). */
  documentProperties?: Record<string, string>;
  /** The instant every thread's clock and the shared document's start at (see GasRuntimeOptions.startAt). */
  startAt?: number | string;
}

export interface ExecSpec {
  fn: string;
  args: unknown[];
  kind?: ExecutionKind;
  cell?: string;
}

export interface ExecOutcome {
  spec: ExecSpec;
  ok: boolean;
  value?: unknown;
  error?: string;
  timedOut?: boolean;
  /** When the recalculation started (epoch ms), when this execution started and ended. */
  queuedAt: number;
  startedAt: number;
  endedAt: number;
  /** HTTP requests this execution made. */
  requests: number;
  thread: string;
}

export interface RunSummary {
  outcomes: ExecOutcome[];
  /** From the start gate to the last execution's end. */
  wallMs: number;
  /** Longest execution (its own time limit counts this). */
  longestExecutionMs: number;
  /** Longest time from the start gate until a cell had its value (queueing included). */
  longestCellWaitMs: number;
}

/** @internal messages between the pool and its threads */
export interface ThreadData {
  files: string[];
  dir?: string;
  addonName?: string;
  enforceUrlFetchWhitelist?: boolean;
  limits?: Partial<GasLimits>;
  rewrite?: { from: string; to: string };
  documentProperties?: Record<string, string>;
  channel: DocChannel;
  thread: string;
  gate: Int32Array;
  startAt: number;
  startRealAt: number;
}
export interface RunMessage extends ExecSpec {
  type: 'run';
  id: number;
}
export interface RunReply {
  type: 'done';
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
  timedOut?: boolean;
  startedAt: number;
  endedAt: number;
  requests: number;
  thread: string;
}

function repoRoot(): string {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'scripts', 'gas-standin', 'concurrent', 'worker.ts'))) return dir;
    if (path.dirname(dir) === dir) throw new Error('concurrent stand-in: run from inside the repository');
  }
}

let workerFile: string | null = null;
function bundleWorker(): string {
  if (workerFile) return workerFile;
  const root = repoRoot();
  const out = path.join(root, 'node_modules', '.cache', 'igdata-gas-standin');
  fs.mkdirSync(out, { recursive: true });
  const built = buildSync({
    entryPoints: [path.join(root, 'scripts', 'gas-standin', 'concurrent', 'worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  const file = path.join(out, `worker.${process.pid}.cjs`);
  fs.writeFileSync(file, built.outputFiles[0].contents);
  return (workerFile = file);
}

export class ConcurrentRuntime {
  readonly document: SharedDocument;
  private readonly gate = new Int32Array(new SharedArrayBuffer(4));
  private readonly workers: Worker[] = [];
  private seq = 0;
  /** One start for every clock of the pool, so its threads and the shared document agree on the time. */
  private readonly start: { at: number; realAt: number };

  private constructor(private readonly opts: ConcurrentOptions) {
    this.start = { at: clockStart(opts.startAt, "the concurrent stand-in's clock"), realAt: Date.now() };
    this.document = new SharedDocument(opts.limits, this.start);
  }

  static async start(opts: ConcurrentOptions): Promise<ConcurrentRuntime> {
    const pool = new ConcurrentRuntime(opts);
    const file = bundleWorker();
    await Promise.all(
      Array.from({ length: opts.threads }, (_, i) => {
        const { worker: channel } = pool.document.channel();
        const data: ThreadData = {
          files: opts.files,
          dir: opts.dir,
          addonName: opts.addonName,
          enforceUrlFetchWhitelist: opts.enforceUrlFetchWhitelist,
          limits: opts.limits,
          rewrite: opts.rewrite,
          documentProperties: opts.documentProperties,
          channel,
          thread: `t${i + 1}`,
          gate: pool.gate,
          startAt: pool.start.at,
          startRealAt: pool.start.realAt,
        };
        const w = new Worker(file, { workerData: data, transferList: [channel.port] });
        pool.workers.push(w);
        return new Promise<void>((resolve, reject) => {
          w.once('error', reject);
          w.once('message', () => resolve());
        });
      }),
    );
    return pool;
  }

  /** Runs every execution, up to `threads` at once, all of the first wave released together. */
  runAll(specs: ExecSpec[]): Promise<RunSummary> {
    Atomics.store(this.gate, 0, 0);
    const outcomes: ExecOutcome[] = new Array(specs.length);
    let next = 0;
    let done = 0;
    let queuedAt = 0;
    return new Promise((resolve, reject) => {
      if (!specs.length) return resolve({ outcomes, wallMs: 0, longestExecutionMs: 0, longestCellWaitMs: 0 });
      const ids = new Map<number, number>();
      const feed = (w: Worker) => {
        if (next >= specs.length) return;
        const id = ++this.seq;
        ids.set(id, next);
        const msg: RunMessage = { type: 'run', id, ...specs[next++] };
        w.postMessage(msg);
      };
      for (const w of this.workers) {
        w.removeAllListeners('message');
        w.removeAllListeners('error');
        w.on('error', reject);
        w.on('message', (r: RunReply) => {
          const i = ids.get(r.id);
          if (r.type !== 'done' || i === undefined) return;
          const { type: _t, id: _id, ...rest } = r;
          outcomes[i] = { spec: specs[i], queuedAt, ...rest };
          if (++done === specs.length) resolve(summarize(outcomes, queuedAt));
          else feed(w);
        });
        feed(w);
      }
      queuedAt = Date.now();
      Atomics.store(this.gate, 0, 1);
      Atomics.notify(this.gate, 0);
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.workers.map(async (w) => {
        w.removeAllListeners('message');
        const closed = new Promise<void>((resolve) =>
          w.on('message', (m: { type: string }) => m.type === 'closed' && resolve()),
        );
        w.postMessage({ type: 'close' });
        await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
        await w.terminate();
      }),
    );
    this.document.close();
  }
}

function summarize(outcomes: ExecOutcome[], queuedAt: number): RunSummary {
  const end = Math.max(...outcomes.map((o) => o.endedAt));
  return {
    outcomes,
    wallMs: end - queuedAt,
    longestExecutionMs: Math.max(...outcomes.map((o) => o.endedAt - o.startedAt)),
    longestCellWaitMs: Math.max(...outcomes.map((o) => o.endedAt - queuedAt)),
  };
}

export const createConcurrentRuntime = (opts: ConcurrentOptions): Promise<ConcurrentRuntime> =>
  ConcurrentRuntime.start(opts);
