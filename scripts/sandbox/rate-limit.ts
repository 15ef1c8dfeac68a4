/**
 * The sandbox's rate limit (off by default; faults.ts holds its settings): the spec documents none
 * (§8), but a real API in front of a provider has one, and clients must be seen to live with it.
 * A request is admitted while fewer than `rateLimitInFlight` admitted ones are still being answered
 * and fewer than `rateLimitPerSecond` were admitted in the last second; any other is refused at once
 * with 429 and Retry-After, before authentication, so it is never billed (§7). Refused requests
 * take no slot: a client that retries at once only meets more refusals.
 */
import type { FaultConfig } from './faults';

export class RateLimit {
  private inFlight = 0;
  /** When the requests of the last second were admitted (ms, oldest first). */
  private readonly admittedAt: number[] = [];

  /** Whether a request arriving at `now` is admitted; if so, `leave()` once it is answered. */
  admit(config: FaultConfig, now: number): boolean {
    const { rateLimitInFlight: inFlight, rateLimitPerSecond: perSecond } = config;
    while (this.admittedAt.length && this.admittedAt[0] <= now - 1000) this.admittedAt.shift();
    if (inFlight > 0 && this.inFlight >= inFlight) return false;
    if (perSecond > 0 && this.admittedAt.length >= perSecond) return false;
    this.inFlight++;
    if (perSecond > 0) this.admittedAt.push(now);
    return true;
  }

  leave(): void {
    this.inFlight--;
  }
}
