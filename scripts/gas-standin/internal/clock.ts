/**
 * The runtime's clock: real time plus an offset that tests (and virtual sleeps) move forward.
 * Cache TTLs, execution time limits and (by default) the script's `Date` all read it.
 */
export class Clock {
  private offsetMs = 0;

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

  /** Total virtual time added so far. */
  get offset(): number {
    return this.offsetMs;
  }
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Blocks the thread for `ms` (nothing else in this thread runs meanwhile, as in Apps Script). */
export function blockFor(ms: number): void {
  if (ms > 0) Atomics.wait(sleepCell, 0, 0, ms);
}
