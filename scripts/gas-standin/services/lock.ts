/**
 * LockService. Executions of one runtime run one after another, so contention is modelled by a
 * test holding a lock "from another execution" (`runtime.locks.hold('script', ms)`), or for real
 * by concurrent runtimes sharing one document lock (concurrent/: `remote` below). Waiting for a
 * lock goes through Utilities.sleep semantics (real or virtual time, counted against the limit).
 * Locks are released when the execution ends, as in Apps Script.
 */
import type { Host } from '../internal/types';
import type { Realm } from '../internal/realm';
import type { RemoteLock } from '../concurrent/remote';

export type LockScope = 'document' | 'script' | `user:${string}`;

interface LockState {
  scope: LockScope;
  /** Execution id holding it, 'external' (held by the test), or null. */
  holder: number | 'external' | null;
  externalUntil: number;
}

/** A held document lock that lives in another thread (concurrent/shared-doc.ts). */
interface RemoteHold {
  release(): void;
}

export class LockRegistry {
  private readonly locks = new Map<LockScope, LockState>();
  /** `remote`: the document lock is shared with executions in other threads; `thread` names this one. */
  constructor(
    private readonly host: Pick<Host, 'clock'>,
    readonly remote?: { lock: RemoteLock; thread: string },
  ) {}

  state(scope: LockScope): LockState {
    let s = this.locks.get(scope);
    if (!s) this.locks.set(scope, (s = { scope, holder: null, externalUntil: 0 }));
    if (s.holder === 'external' && s.externalUntil <= this.host.clock.now()) s.holder = null;
    return s;
  }

  /** Test: another execution holds the lock for `ms` (clock time; Infinity = until release). */
  hold(scope: LockScope, ms = Infinity): void {
    const s = this.state(scope);
    s.holder = 'external';
    s.externalUntil = this.host.clock.now() + ms;
  }

  release(scope: LockScope): void {
    const s = this.state(scope);
    s.holder = null;
  }

  isHeld(scope: LockScope): boolean {
    return this.state(scope).holder !== null;
  }

  /** Called when an execution ends. */
  releaseAll(held: Set<unknown>): void {
    for (const s of held) {
      if ('release' in (s as object)) (s as RemoteHold).release();
      else (s as LockState).holder = null;
    }
    held.clear();
  }
}

export function createLockService(host: Host, realm: Realm, registry: LockRegistry) {
  function lock(scope: () => LockScope) {
    let acquired = false;
    let remoteHold: RemoteHold | null = null;
    const remote = () => (scope() === 'document' ? registry.remote : undefined);
    const attempt = (timeoutMs: number): boolean => {
      host.ensure('lock', 'LockService', realm);
      host.checkDeadline(realm);
      const exec = host.current();
      const shared = remote();
      if (shared) {
        if (remoteHold && exec.locks.has(remoteHold)) return (acquired = true);
        const holder = `${shared.thread}:${exec.id}`;
        // Blocks this thread while another execution holds it: real time, counted against the limit.
        const ok = shared.lock.acquire(holder, Math.min(timeoutMs, host.remainingMs()));
        if (ok) {
          const hold: RemoteHold = { release: () => shared.lock.release(holder) };
          exec.locks.add((remoteHold = hold));
        }
        host.checkDeadline(realm);
        return (acquired = ok);
      }
      const s = registry.state(scope());
      if (s.holder === exec.id) return (acquired = true);
      if (s.holder === null) {
        s.holder = exec.id;
        exec.locks.add(s);
        return (acquired = true);
      }
      // Held by "another execution": wait until it lets go or the timeout passes.
      const freeIn = s.externalUntil - host.clock.now();
      if (freeIn <= timeoutMs) {
        host.sleep(Math.max(0, freeIn), realm);
        s.holder = exec.id;
        exec.locks.add(s);
        return (acquired = true);
      }
      host.sleep(Math.max(0, timeoutMs), realm);
      return false;
    };
    return {
      tryLock(timeoutInMillis: unknown): boolean {
        return attempt(Math.max(0, Number(timeoutInMillis) || 0));
      },
      waitLock(timeoutInMillis: unknown): void {
        if (!attempt(Math.max(0, Number(timeoutInMillis) || 0))) {
          throw realm.exception('Lock timeout: another process was holding the lock for too long.');
        }
      },
      releaseLock(): void {
        if (!acquired) return;
        const exec = host.current();
        if (remoteHold) {
          if (exec.locks.delete(remoteHold)) remoteHold.release();
          remoteHold = null;
          acquired = false;
          return;
        }
        const s = registry.state(scope());
        if (s.holder === exec.id) {
          s.holder = null;
          exec.locks.delete(s);
        }
        acquired = false;
      },
      hasLock(): boolean {
        if (remoteHold) return acquired && host.current().locks.has(remoteHold);
        return acquired && registry.state(scope()).holder === host.current().id;
      },
      toString: () => 'Lock',
    };
  }

  return {
    getDocumentLock: () => lock(() => 'document'),
    getScriptLock: () => lock(() => 'script'),
    getUserLock: () => lock(() => `user:${host.current().user}`),
    toString: () => 'LockService',
  };
}
