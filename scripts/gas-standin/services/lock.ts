/**
 * LockService. Executions of one runtime run one after another, so contention is modelled by a
 * test holding a lock "from another execution" (`runtime.locks.hold('script', ms)`). Waiting for a
 * lock goes through Utilities.sleep semantics (real or virtual time, counted against the limit).
 * Locks are released when the execution ends, as in Apps Script.
 */
import type { Host } from '../internal/types';
import type { Realm } from '../internal/realm';

export type LockScope = 'document' | 'script' | `user:${string}`;

interface LockState {
  scope: LockScope;
  /** Execution id holding it, 'external' (held by the test), or null. */
  holder: number | 'external' | null;
  externalUntil: number;
}

export class LockRegistry {
  private readonly locks = new Map<LockScope, LockState>();
  constructor(private readonly host: Pick<Host, 'clock'>) {}

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
    for (const s of held) (s as LockState).holder = null;
    held.clear();
  }
}

export function createLockService(host: Host, realm: Realm, registry: LockRegistry) {
  function lock(scope: () => LockScope) {
    let acquired = false;
    const attempt = (timeoutMs: number): boolean => {
      host.ensure('lock', 'LockService', realm);
      host.checkDeadline(realm);
      const exec = host.current();
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
        const s = registry.state(scope());
        if (s.holder === exec.id) {
          s.holder = null;
          exec.locks.delete(s);
        }
        acquired = false;
      },
      hasLock(): boolean {
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
