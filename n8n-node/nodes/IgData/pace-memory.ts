/**
 * What one n8n process remembers between executions about each API it talks to (a base URL and a
 * credential, never the key): the pace learned (core's pace.ts) and the last balance an answer
 * reported. Both only make later runs faster; a wrong memory costs a refusal or a 402, no more.
 */
import { Pace } from '@igdata/core';

/**
 * How long a balance an answer reported stands in for reading it (ms): other consumers of the key
 * spend meanwhile, and a run over what is left stops at its first 402, keeping what was answered.
 */
export const BALANCE_KNOWN_FOR_MS = 10 * 60 * 1000;

export class KnownBalance {
  private last?: { credits: number; at: number };
  saw(credits: number, at: number): void {
    if (!this.last || at >= this.last.at) this.last = { credits, at };
  }
  /** Whether a balance reported within BALANCE_KNOWN_FOR_MS covers `credits`. */
  covers(credits: number, now: number): boolean {
    return !!this.last && now - this.last.at < BALANCE_KNOWN_FOR_MS && this.last.credits >= credits;
  }
}

export interface Memory {
  pace: Pace;
  balance: KnownBalance;
}

const memories = new Map<string, Memory>();

/**
 * The memory of one API and credential (a process holds a handful: no eviction needed). Without a
 * credential id (a node run outside a saved workflow) nothing is remembered: another key, with
 * another plan and balance, could stand behind the same empty id.
 */
export function memoryOf(baseUrl: string, credentialId: string): Memory {
  const fresh = (): Memory => ({
    pace: new Pace(Infinity) /* each run sets its ceiling */,
    balance: new KnownBalance(),
  });
  if (!credentialId) return fresh();
  const key = `${baseUrl} ${credentialId}`;
  let m = memories.get(key);
  if (!m) memories.set(key, (m = fresh()));
  return m;
}
