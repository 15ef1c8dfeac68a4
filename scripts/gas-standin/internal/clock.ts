import { clockStart } from '../../lib/clock-start';

/**
 * The runtime's clock: it starts at an instant (the real time for people, a named one under tests:
 * scripts/lib/clock-start.ts), runs at the real pace from there, and tests (and virtual sleeps) move
 * it forward. Cache TTLs, execution time limits and (by default) the script's `Date` all read it.
 */
export class Clock {
  private offsetMs: number;

  /**
   * `startAt`: the instant the clock reads at real time `realAt` (default: now). Clocks that must
   * agree (a concurrent runtime's threads and its shared document) are given the same pair.
   */
  constructor(startAt?: number | string, realAt: number = Date.now()) {
    this.offsetMs = clockStart(startAt, "the Apps Script stand-in's clock") - realAt;
  }

  /** Milliseconds since the epoch, as the stand-in sees it. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Moves time forward by `ms` (no real waiting). */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`clock.advance: ms must be >= 0, got ${ms}`);
    this.offsetMs += ms;
  }

  /** Jumps to an absolute time (ms since epoch). Going backwards is allowed but unusual. */
  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now();
  }
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` (nothing else in this thread runs meanwhile, as in Apps Script). */
export function blockFor(ms: number): void {
  if (ms > 0) Atomics.wait(sleepCell, 0, 0, ms);
}
