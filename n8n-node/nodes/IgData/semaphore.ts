/**
 * A fixed bound on work in flight: at most `limit` tasks at once, the rest waiting in order. Both
 * nodes' media downloads (media-download.ts) take one at the node's Concurrency (the action
 * node's requests wait at a gate that moves with the API's pace instead: paced-gate.ts).
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly limit: number;

  /** `limit` is a count of tasks: at least 1, whole. */
  constructor(limit: number) {
    this.limit = Math.max(1, Math.floor(limit));
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so the count never dips while others wait.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
