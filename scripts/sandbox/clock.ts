import { CLOCK_START_ENV, clockStart } from '../lib/clock-start';

/**
 * The sandbox's time: what "now" is for live stories, newly published posts and media links'
 * expiry. It starts at the instant it is given (SandboxOptions.startAt, IGDATA_CLOCK_START), or the
 * real time for a person (refused under tests: scripts/lib/clock-start.ts), runs at the real pace,
 * and `POST /_sandbox/clock?advance=ms` moves it forward.
 */
export class SandboxClock {
  /** The instant the sandbox started at (ms); stories are laid out around it. */
  readonly startedAt: number;
  private offsetMs: number;

  constructor(startAt: number | string | undefined, env: Record<string, string | undefined>) {
    this.startedAt = clockStart(startAt ?? env[CLOCK_START_ENV], "the sandbox's clock", env);
    this.offsetMs = this.startedAt - Date.now();
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`advance must be a number of ms >= 0; got ${ms}`);
    this.offsetMs += ms;
  }
}
