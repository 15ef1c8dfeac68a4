/**
 * One document shared by concurrent executions, as Sheets shares it between the custom-function
 * executions of a recalculation: its CacheService document cache and its LockService document
 * lock. Lives on the coordinating thread (the test's or the benchmark's); each execution thread
 * talks to it through a synchronous call (remote.ts): the worker posts a request and blocks on
 * Atomics.wait until this side answers, so a lock wait blocks the execution as it does in Apps
 * Script, and counts against its time limit.
 *
 * Simpler than the real services: one process instead of Google's cache servers, so reads and
 * writes are instantly visible everywhere (Apps Script's cache is close to that, not promised);
 * the lock is fair (first come, first served), which Apps Script does not promise either.
 */
import { MessageChannel, MessagePort } from 'node:worker_threads';
import { Clock } from '../internal/clock';
import { DEFAULT_LIMITS, GasLimits, emptyStats } from '../internal/types';
import { CacheStore } from '../services/cache';

export type DocRequest =
  | { op: 'read'; keys: string[] }
  | { op: 'write'; items: [string, string][]; ttl: number }
  | { op: 'delete'; keys: string[] }
  | { op: 'dump' }
  | { op: 'lock'; holder: string; timeoutMs: number }
  | { op: 'unlock'; holder: string };

/** What one thread needs to reach the shared document. */
export interface DocChannel {
  port: MessagePort;
  signal: Int32Array;
}

interface Waiter {
  holder: string;
  reply: (ok: boolean) => void;
  timer: NodeJS.Timeout;
}

export class SharedDocument {
  readonly clock: Clock;
  readonly stats = emptyStats();
  readonly cache: CacheStore;
  /** Lock acquisitions, and the total and longest time executions waited for the lock. */
  readonly lockStats = { acquired: 0, timeouts: 0, waitedMs: 0, longestWaitMs: 0 };
  private holder: string | null = null;
  private readonly queue: Waiter[] = [];
  private readonly ports: MessagePort[] = [];

  constructor(limits: Partial<GasLimits> = {}, start?: { at: number; realAt: number }) {
    this.clock = new Clock(start?.at, start?.realAt);
    const host = { clock: this.clock, limits: { ...DEFAULT_LIMITS, ...limits }, stats: this.stats };
    this.cache = new CacheStore('document', host);
  }

  /** A new channel for one execution thread (pass `worker` to its workerData with transferList). */
  channel(): { worker: DocChannel } {
    const { port1, port2 } = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(4));
    port1.on('message', (req: { id: number; body: DocRequest }) => {
      this.handle(req.body, (result) => {
        port1.postMessage({ id: req.id, result });
        Atomics.add(signal, 0, 1);
        Atomics.notify(signal, 0);
      });
    });
    port1.unref();
    this.ports.push(port1);
    return { worker: { port: port2, signal } };
  }

  /** Who holds the document lock ('worker:execution'), or null. */
  get lockHolder(): string | null {
    return this.holder;
  }

  close(): void {
    for (const w of this.queue.splice(0)) clearTimeout(w.timer);
    for (const p of this.ports.splice(0)) p.close();
  }

  private handle(req: DocRequest, reply: (result: unknown) => void): void {
    switch (req.op) {
      case 'read':
        return reply(req.keys.map((k) => this.cache.read(k)));
      case 'write':
        for (const [k, v] of req.items) this.cache.write(k, v, req.ttl);
        return reply(null);
      case 'delete':
        for (const k of req.keys) this.cache.delete(k);
        return reply(null);
      case 'dump':
        return reply(this.cache.dump());
      case 'lock':
        return this.lock(req.holder, req.timeoutMs, reply);
      case 'unlock':
        if (this.holder === req.holder) this.grantNext();
        else {
          const i = this.queue.findIndex((w) => w.holder === req.holder);
          if (i >= 0) clearTimeout(this.queue.splice(i, 1)[0].timer);
        }
        return reply(null);
    }
  }

  private lock(holder: string, timeoutMs: number, reply: (ok: boolean) => void): void {
    if (this.holder === null || this.holder === holder) {
      this.holder = holder;
      this.lockStats.acquired++;
      return reply(true);
    }
    const t0 = Date.now();
    const done = (ok: boolean) => {
      const waited = Date.now() - t0;
      this.lockStats.waitedMs += waited;
      this.lockStats.longestWaitMs = Math.max(this.lockStats.longestWaitMs, waited);
      if (ok) this.lockStats.acquired++;
      else this.lockStats.timeouts++;
      reply(ok);
    };
    const waiter: Waiter = {
      holder,
      reply: done,
      timer: setTimeout(
        () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          done(false);
        },
        Math.max(0, timeoutMs),
      ),
    };
    this.queue.push(waiter);
  }

  private grantNext(): void {
    const next = this.queue.shift();
    this.holder = next ? next.holder : null;
    if (next) {
      clearTimeout(next.timer);
      next.reply(true);
    }
  }
}
