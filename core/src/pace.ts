/**
 * How many requests one client may have in flight against the service: the pace, found while the
 * run goes (no I/O here; the caller reports each send, answer and refusal with the time it saw).
 *
 * The rule, after TCP's congestion control, for an API that documents no rate limit (§8):
 * - First wave: FIRST_WAVE requests at once (50, the fixed default this replaced; against a limit
 *   of 20 in flight it costs one Retry-After and the run still ends within 2.5x of that limit's
 *   floor: test/n8n-node/pace.test.ts), or the width this process learned last time (a width the
 *   user's Concurrency ran at without a refusal counts), or the Concurrency the user set (then
 *   that many from the start: the user said so).
 * - Growth: every fast answer (within SLOW_FACTOR of the fastest seen) widens the window by one,
 *   so it at most doubles each round trip (slow start's bound), up to the most requests the run
 *   wanted at once (`asked`: in flight plus waiting for a slot), until the first refusal. Why the
 *   run's demand and not the requests waiting now: a run of 120 that starts at 50 has its queue
 *   empty after 35 answers, and counting only those left the width at 85; each later run then
 *   halved the gap to 120 without closing it (85, 103, 112, 116: a second round trip every time,
 *   measured in n8n), where the answers to its 120 requests had earned the width to send them at
 *   once. Never above what a run asked for: a width no run wanted is not learned (67 pages read one
 *   after another teach nothing about 67 at once). What it costs: the next run sends that width
 *   before it was ever in flight, as slow start sends its doubled window; a limit in between
 *   refuses the excess once, and that width is then remembered (below).
 *   Above a width that was refused, growth stops for REMEMBER_MS: a refused request costs its
 *   Retry-After, far more than the round trips one more slot could save.
 * - Back-off on 429: the window shrinks to the requests still in flight and not refused, which is
 *   what the service admitted (none: a limit per time; then the answers of the last second times
 *   their mean time), and the refused requests wait their Retry-After (core's retry, call.ts)
 *   without their slots going to the requests waiting: no stampede of refusals. A refusal before
 *   any answer (another client spent the limit) halves the window and teaches nothing.
 * - Never above `ceiling` (the Concurrency the user set, else the node's maximum).
 * A Pace lives as long as its process: the next execution starts at what this one learned. The
 * per-second case is approximate (in-process, a limit of 50 a second at 100 ms: every item out,
 * the learned width 2-7 on a busy machine, so later runs take 2-3x that limit's floor).
 */

/** The first wave when nothing is known and the user set no Concurrency. */
export const FIRST_WAVE = 50;
/** An answer slower than this many times the fastest seen is not a reason to grow. */
const SLOW_FACTOR = 3;
/** How long a refused width is remembered (ms): a rate limit is a plan's, it rarely moves. */
export const REMEMBER_MS = 60 * 60 * 1000;

export class Pace {
  /** Requests that may be in flight now. */
  private window: number;
  private fastest = Infinity;
  /** The width left by the last refusal, and when: no growth past it until REMEMBER_MS later. */
  private refused?: { width: number; at: number };
  /** The answers of about the last second (when, how long each took; oldest first): what a limit per time allowed. */
  private readonly recent: { at: number; ms: number }[] = [];

  constructor(
    private ceiling: number,
    first = FIRST_WAVE,
  ) {
    this.window = clamp(first, ceiling);
  }

  /** The window now, never above the ceiling. */
  get width(): number {
    return this.window;
  }

  /**
   * A run's start: its ceiling (the user's Concurrency, else the maximum) and, when the user set
   * one, its first wave too; otherwise the pace learned so far, within the new ceiling.
   */
  startRun(ceiling: number, userSet: boolean, now: number): void {
    this.ceiling = ceiling;
    if (userSet && !this.remembers(now)) this.window = clamp(ceiling, ceiling);
    else this.window = clamp(this.window, ceiling);
  }

  /**
   * An answer other than a refusal came back after `ms`; `asked`: the most requests of the run
   * that were in flight or waiting for a slot at once (the width the run could use).
   */
  answered(ms: number, asked: number, now: number): void {
    this.fastest = Math.min(this.fastest, Math.max(1, ms));
    this.recent.push({ at: now, ms });
    this.forgetBefore(now - 1000);
    if (ms > this.fastest * SLOW_FACTOR) return;
    const cap = Math.min(asked, this.remembers(now) ? (this.refused as { width: number }).width : this.ceiling);
    if (this.window < cap) this.window = clamp(this.window + 1, Math.min(cap, this.ceiling));
  }

  /** Whether a refused width is still remembered at `now`. */
  private remembers(now: number): boolean {
    return !!this.refused && now - this.refused.at < REMEMBER_MS;
  }

  /** A 429 came back; `admitted`: the requests still in flight that the service has not refused. */
  refusedAt(admitted: number, now: number): void {
    this.forgetBefore(now - 1000);
    if (admitted > 0) this.window = clamp(Math.min(this.window, admitted), this.ceiling);
    // Nothing admitted in flight: a limit per time. The answers of the last second are what it
    // allows; at their mean time that many a second need this many in flight (Little's law).
    else if (this.recent.length) {
      const meanMs = this.recent.reduce((sum, r) => sum + r.ms, 0) / this.recent.length;
      const byRate = (this.recent.length * Math.min(meanMs, 1000)) / 1000;
      this.window = clamp(byRate, this.ceiling); // the refusals before it counted requests never admitted
    } else {
      // Refused before any answer (another client spent the limit): narrower, but nothing learned.
      this.window = clamp(this.window / 2, this.ceiling);
      return;
    }
    this.refused = { width: this.window, at: now };
  }

  private forgetBefore(t: number): void {
    while (this.recent.length && this.recent[0].at <= t) this.recent.shift();
  }
}

const clamp = (n: number, ceiling: number) => Math.max(1, Math.min(Math.floor(n), Math.max(1, Math.floor(ceiling))));
