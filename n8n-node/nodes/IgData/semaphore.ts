/**
 * The one bound on work in flight in the n8n nodes: at most `limit` tasks at once, the rest waiting
 * in order. The action node's requests (requests.ts) and both nodes' media downloads (media-download.ts)
 * each take one at the node's Concurrency.
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
