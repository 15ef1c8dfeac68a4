/**
 * The Host the services see: the runtime's state, the running execution, and the rules every
 * service call goes through (permissions, the time limit, sleeping, logging).
 */
import type { GasRuntimeOptions } from '../options';
import { TIME_LIMIT_MESSAGE } from '../execution';
import { blockFor } from './clock';
import { checkPermission } from './permissions';
import type { Execution, Host, LogEntry } from './types';

/**
 * The runtime's state the Host reads (GasRuntime has it; runtime.ts passes itself). Spelled out
 * rather than picked from GasRuntime, so the runtime imports the host and not the other way round.
 */
type RuntimeState = Pick<Host, 'limits' | 'clock' | 'stats' | 'quotas' | 'manifest' | 'timeZone' | 'owner'> & {
  readonly logs: LogEntry[];
  readonly killWhen: ((cap: string, what: string) => boolean) | null;
};

interface RuntimeInternals {
  /** The running execution (null between executions). */
  execution(): Execution | null;
  /** Scopes the manifest grants; null when they are not enforced. */
  scopes: ReadonlySet<string> | null;
  /** The caller's options object, read at each call rather than copied. */
  opts: GasRuntimeOptions;
}

export function createHost(rt: RuntimeState, internals: RuntimeInternals): Host {
  return {
    get limits() {
      return rt.limits;
    },
    get clock() {
      return rt.clock;
    },
    get stats() {
      return rt.stats;
    },
    get quotas() {
      return rt.quotas;
    },
    get manifest() {
      return rt.manifest;
    },
    get timeZone() {
      return rt.timeZone;
    },
    get owner() {
      return rt.owner;
    },
    current() {
      const exec = internals.execution();
      if (!exec) throw new Error('stand-in: an Apps Script service was used outside an execution');
      return exec;
    },
    ensure(cap, what, realm) {
      checkPermission(this.current(), cap, what, realm, internals.scopes);
      if (rt.killWhen?.(cap, what)) {
        // The time limit strikes at this call, before it happens (a test's chosen moment).
        this.current().timedOut = true;
        throw realm.exception(TIME_LIMIT_MESSAGE);
      }
    },
    checkDeadline(realm) {
      const exec = this.current();
      if (exec.timedOut || rt.clock.now() - exec.startedAt > exec.limitMs) {
        exec.timedOut = true;
        throw realm.exception(TIME_LIMIT_MESSAGE);
      }
    },
    remainingMs() {
      const exec = this.current();
      return Math.max(0, exec.limitMs - (rt.clock.now() - exec.startedAt));
    },
    sleep(ms, realm) {
      this.checkDeadline(realm);
      const remaining = this.remainingMs();
      const wait = Math.min(ms, remaining + 1);
      rt.stats.sleeps++;
      rt.stats.sleptMs += wait;
      if ((internals.opts.sleep ?? 'virtual') === 'real') blockFor(wait);
      else rt.clock.advance(wait);
      this.checkDeadline(realm);
    },
    log(level, message) {
      const exec = internals.execution();
      rt.logs.push({ level, message, executionId: exec?.id ?? null, fnName: exec?.fnName ?? null, at: rt.clock.now() });
      if (internals.opts.echoLogs) console.log(`[gas ${level}] ${message}`);
    },
  };
}
