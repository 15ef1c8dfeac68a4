/**
 * The execution thread's side of the shared document (shared-doc.ts): a synchronous call that
 * posts a request and blocks on Atomics.wait until the coordinating thread answers, a cache store
 * whose every read and write goes there (getAll and putAll are one call each, as they are one
 * round trip in Apps Script), and the document lock held there.
 */
import { receiveMessageOnPort } from 'node:worker_threads';
import type { Host } from '../internal/types';
import { CacheEntry, CacheStore } from '../services/cache';
import type { DocChannel, DocRequest } from './shared-doc';

export class DocClient {
  private seq = 0;
  constructor(private readonly ch: DocChannel) {}

  /** Sends `body` and blocks this thread until the answer comes. */
  call<T>(body: DocRequest): T {
    const id = ++this.seq;
    this.ch.port.postMessage({ id, body });
    for (;;) {
      const seen = Atomics.load(this.ch.signal, 0);
      for (let m = receiveMessageOnPort(this.ch.port); m; m = receiveMessageOnPort(this.ch.port)) {
        const reply = m.message as { id: number; result: T };
        if (reply.id === id) return reply.result;
      }
      Atomics.wait(this.ch.signal, 0, seen, 1000);
    }
  }
}

/** The document cache, kept by the coordinating thread. */
export class RemoteCacheStore extends CacheStore {
  constructor(
    private readonly doc: DocClient,
    host: Pick<Host, 'clock' | 'limits' | 'stats'>,
  ) {
    super('document', host);
  }

  override read(key: string): string | null {
    return this.readMany([key])[0];
  }

  override readMany(keys: string[]): (string | null)[] {
    return this.doc.call({ op: 'read', keys });
  }

  override write(key: string, value: string, ttlSeconds: number): void {
    this.writeMany([[key, value]], ttlSeconds);
  }

  override writeMany(items: [string, string][], ttlSeconds: number): void {
    this.doc.call({ op: 'write', items, ttl: ttlSeconds });
  }

  override delete(key: string): void {
    this.doc.call({ op: 'delete', keys: [key] });
  }

  override dump(): CacheEntry[] {
    return this.doc.call({ op: 'dump' });
  }

  override keys(): string[] {
    return this.entries().map(([k]) => k);
  }

  override entries(): [string, string][] {
    const now = Date.now();
    return this.dump()
      .filter((e) => e.expiresAt > now)
      .map((e) => [e.key, e.value]);
  }

  override peek(key: string): string | null {
    return this.read(key);
  }

  override clear(): void {
    this.doc.call({ op: 'delete', keys: this.dump().map((e) => e.key) });
  }
}

/** The document lock, held at the coordinating thread by `holder` ('worker:execution'). */
export interface RemoteLock {
  /** Blocks until the lock is ours (true) or `timeoutMs` passed (false). */
  acquire(holder: string, timeoutMs: number): boolean;
  release(holder: string): void;
}

export function remoteLock(doc: DocClient): RemoteLock {
  return {
    acquire: (holder, timeoutMs) => doc.call<boolean>({ op: 'lock', holder, timeoutMs }),
    release: (holder) => void doc.call({ op: 'unlock', holder }),
  };
}
