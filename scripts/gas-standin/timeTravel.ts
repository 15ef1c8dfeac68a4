/**
 * Time travel on a stand-in runtime: the clock moves forward and each installable time-driven
 * trigger fires when it is due, under the day's trigger-runtime quota. Apart from runtime.ts, which
 * runs one execution, because this decides which executions the passing time starts.
 */
import type { CallOptions, ExecutionRecord } from './execution';
import type { Clock } from './internal/clock';
import { QUOTA_MESSAGES } from './internal/quota';
import type { DailyQuotas } from './internal/quota';
import type { GasLimits } from './internal/types';
import { AuthMode } from './services/session';
import type { TriggerRegistry } from './services/triggers';

/** The runtime as time travel sees it. */
interface TimeTravelled {
  readonly clock: Clock;
  readonly triggers: TriggerRegistry;
  readonly quotas: DailyQuotas;
  readonly limits: GasLimits;
  readonly executions: ExecutionRecord[];
  run(fnName: string, args?: unknown[], opts?: CallOptions): unknown;
}

/** See GasRuntime.advance. */
export function advanceClock(rt: TimeTravelled, ms: number, beforeTrigger?: (now: number) => void): void {
  const until = rt.clock.now() + ms;
  for (let t = rt.triggers.nextDue(until); t; t = rt.triggers.nextDue(until)) {
    if (t.nextAt > rt.clock.now()) rt.clock.set(t.nextAt);
    t.nextAt += t.everyMs;
    beforeTrigger?.(rt.clock.now());
    // A day's trigger runtime used up: the trigger does not run (an execution that started under it runs to its
    // end here; where Google cuts one is not documented).
    const at = rt.clock.now();
    if (rt.quotas.triggerRuntimeMs.used(at) >= rt.limits.triggerDailyRuntimeMs) {
      t.runs.push({ at, ok: false, error: QUOTA_MESSAGES.triggerRuntimeMs });
      continue;
    }
    const runs = rt.executions.length;
    try {
      rt.run(t.handler, [{ authMode: AuthMode.FULL, triggerUid: t.uid }], { kind: 'script', user: t.user });
      t.runs.push({ at: rt.clock.now(), ok: true });
    } catch (e) {
      t.runs.push({ at: rt.clock.now(), ok: false, error: e instanceof Error ? e.message : String(e) });
    }
    rt.quotas.triggerRuntimeMs.add(at, rt.executions[runs]?.ms ?? 0);
  }
  if (until > rt.clock.now()) rt.clock.set(until);
}
