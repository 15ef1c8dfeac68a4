import { CLOCK_START_ENV, clockStart } from '../lib/clock-start';

/**
 * The sandbox's time. Two readings of it:
 * - `now()`: what media links expire against and published posts are dated by. It starts at the
 *   instant it is given (SandboxOptions.startAt, IGDATA_CLOCK_START), or the real time for a person
 *   (refused under tests: scripts/lib/clock-start.ts), and runs at the real pace, so a link with a
 *   one-second life dies a second later.
 * - `worldNow()`: the world's time (followers, new posts, likes, stories: world/moving.ts). It moves
 *   only when told to (`advance`, `moveTo`, `POST /_sandbox/clock`), never with real elapsed time,
 *   so a test that does not move the clock gets the same answers however long it runs, and the
 *   same start with the same moves gives the same world.
 */
export class SandboxClock {
  /** The instant the sandbox started at (ms); stories are laid out around it. */
  readonly startedAt: number;
  private offsetMs: number;
  private movedMs = 0;

  constructor(startAt: number | string | undefined, env: Record<string, string | undefined>) {
    this.startedAt = clockStart(startAt ?? env[CLOCK_START_ENV], "the sandbox's clock", env);
    this.offsetMs = this.startedAt - Date.now();
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  worldNow(): number {
    return this.startedAt + this.movedMs;
  }

  advance(ms: number): void {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`advance must be a number of ms >= 0; got ${ms}`);
    this.offsetMs += ms;
    this.movedMs += ms;
  }

  /** Both readings to `at` at least (never back): the world is then exactly at `at`, whatever time passed. */
  moveTo(at: number): void {
    if (!Number.isFinite(at)) throw new RangeError(`moveTo needs an instant in ms; got ${at}`);
    this.offsetMs += Math.max(0, at - this.now());
    this.movedMs = Math.max(this.movedMs, at - this.startedAt);
  }
}
