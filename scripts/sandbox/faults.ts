/**
 * Fault injection: extra latency, 502/504 answers, hanging requests ("timeout") and a rate limit, set for the
 * whole sandbox (options, env, POST /_sandbox/faults) or per request (query or headers).
 * Faulted requests are never billed (§7). Also how long media links live, so that expired links
 * (what users of a real CDN meet days later) can be shown in seconds.
 */
import { prng } from './world/random';

export type FaultStatus = 502 | 504;

export interface FaultConfig {
  /** Added to every API request before it is answered. */
  latencyMs: number;
  /** Share of API requests (0-1) answered with faultStatus instead of data. */
  faultRate: number;
  faultStatus: FaultStatus;
  /** How long a "timeout" fault hangs before answering 504. */
  slowMs: number;
  /** Media links in answers expire at least this long, at most twice this long, after the answer (media/links.ts). */
  mediaTtlSeconds: number;
  /**
   * The rate limit (rate-limit.ts), off at 0: API requests admitted at once, and admitted per
   * second (a sliding second); a request past either is answered 429 at once, with Retry-After.
   */
  rateLimitInFlight: number;
  rateLimitPerSecond: number;
  /** The Retry-After of that 429, in whole seconds (HTTP's delay-seconds). */
  retryAfterSeconds: number;
}

export type Fault = FaultStatus | 'timeout' | null;

/** Signed links of real CDNs last days; a week here. */
const WEEK_S = 7 * 24 * 3600;
const DEFAULT_FAULTS: FaultConfig = {
  latencyMs: 0,
  faultRate: 0,
  faultStatus: 502,
  slowMs: 15000,
  mediaTtlSeconds: WEEK_S,
  rateLimitInFlight: 0,
  rateLimitPerSecond: 0,
  retryAfterSeconds: 1,
};

const num = (v: unknown): number | undefined => {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** Read and check a partial fault config (from options, env or a JSON body). Throws on nonsense. */
export function parseFaults(input: Record<string, unknown>, base: FaultConfig = DEFAULT_FAULTS): FaultConfig {
  const out = { ...base };
  const latency = num(input.latencyMs);
  if (latency !== undefined) {
    if (latency < 0 || latency > 600000) throw new Error('latencyMs must be from 0 to 600000');
    out.latencyMs = latency;
  }
  const rate = num(input.faultRate);
  if (rate !== undefined) {
    if (rate < 0 || rate > 1) throw new Error('faultRate must be from 0 to 1');
    out.faultRate = rate;
  }
  const status = num(input.faultStatus);
  if (status !== undefined) {
    if (status !== 502 && status !== 504) throw new Error('faultStatus must be 502 or 504');
    out.faultStatus = status;
  }
  const slow = num(input.slowMs);
  if (slow !== undefined) {
    if (slow < 0 || slow > 600000) throw new Error('slowMs must be from 0 to 600000');
    out.slowMs = slow;
  }
  const ttl = num(input.mediaTtlSeconds);
  if (ttl !== undefined) {
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > 52 * WEEK_S)
      throw new Error(`mediaTtlSeconds must be a whole number from 1 to ${52 * WEEK_S} (a year)`);
    out.mediaTtlSeconds = ttl;
  }
  for (const name of ['rateLimitInFlight', 'rateLimitPerSecond', 'retryAfterSeconds'] as const) {
    const v = num(input[name]);
    if (v === undefined) continue;
    if (!Number.isInteger(v) || v < 0 || v > 100000) throw new Error(`${name} must be a whole number from 0 to 100000`);
    out[name] = v;
  }
  return out;
}

export function faultsFromEnv(env: Record<string, string | undefined>): Partial<FaultConfig> {
  const out: Record<string, unknown> = {};
  if (env.SANDBOX_LATENCY_MS) out.latencyMs = env.SANDBOX_LATENCY_MS;
  if (env.SANDBOX_FAULT_RATE) out.faultRate = env.SANDBOX_FAULT_RATE;
  if (env.SANDBOX_FAULT_STATUS) out.faultStatus = env.SANDBOX_FAULT_STATUS;
  if (env.SANDBOX_SLOW_MS) out.slowMs = env.SANDBOX_SLOW_MS;
  if (env.SANDBOX_MEDIA_TTL_SECONDS) out.mediaTtlSeconds = env.SANDBOX_MEDIA_TTL_SECONDS;
  if (env.SANDBOX_RATE_LIMIT_IN_FLIGHT) out.rateLimitInFlight = env.SANDBOX_RATE_LIMIT_IN_FLIGHT;
  if (env.SANDBOX_RATE_LIMIT_PER_SECOND) out.rateLimitPerSecond = env.SANDBOX_RATE_LIMIT_PER_SECOND;
  if (env.SANDBOX_RETRY_AFTER_SECONDS) out.retryAfterSeconds = env.SANDBOX_RETRY_AFTER_SECONDS;
  return out as Partial<FaultConfig>;
}

/** Seeded dice for faultRate, so that a run with a fault rate is reproducible. */
export class FaultDice {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = prng(seed ^ 0x5eed);
  }
  roll(rate: number): boolean {
    return rate > 0 && this.next() < rate;
  }
}

/**
 * The fault for one request: a per-request override (`x-sandbox-fault` header or `sandbox_fault`
 * query parameter: 502, 504 or timeout) wins; otherwise the sandbox-wide rate decides.
 */
export function pickFault(override: string | undefined, config: FaultConfig, dice: FaultDice): Fault {
  if (override) {
    const v = override.trim().toLowerCase();
    if (v === '502') return 502;
    if (v === '504') return 504;
    if (v === 'timeout') return 'timeout';
    if (v === 'none' || v === '0') return null;
  }
  return dice.roll(config.faultRate) ? config.faultStatus : null;
}
