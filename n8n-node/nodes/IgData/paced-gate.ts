/**
 * The action node's requests wait here for a slot: at most the Pace's window in flight (core's
 * pace.ts holds the rule), which moves while the run goes. A request sent again after a refusal
 * goes before those not yet sent, and a slot freed while the window is narrower than what is in
 * flight is not handed on: that is how a 429 keeps its slot from the next request.
 */
import type { Pace } from '@igdata/core';

export class PacedGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private most = 0;

  constructor(private readonly pace: Pace) {}

  /** Requests in flight now. */
  get inFlight(): number {
    return this.active;
  }

  /** The most requests that were in flight or waiting at once since the gate opened (one gate a run). */
  get asked(): number {
    return this.most;
  }

  /** `again`: a request sent again after a refusal or a failure, ahead of the queue. */
  async run<T>(task: () => Promise<T>, again = false): Promise<T> {
    this.most = Math.max(this.most, this.active + this.waiting.length + 1); // this one, in flight or waiting
    if (this.active >= this.pace.width || this.waiting.length) {
      await new Promise<void>((resolve) => (again ? this.waiting.unshift(resolve) : this.waiting.push(resolve)));
    } else this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.pump();
    }
  }

  /** Start waiters while the window has room (it may have grown by more than one, or shrunk). */
  private pump(): void {
    while (this.waiting.length && this.active < this.pace.width) {
      this.active++;
      (this.waiting.shift() as () => void)();
    }
  }
}
