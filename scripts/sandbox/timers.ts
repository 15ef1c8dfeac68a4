/** Sleeps (latency, hanging "timeout" faults) that close() can end at once instead of waiting them out. */

/** Set by the pipeline when the client goes away, so a sleep on its behalf ends early. */
export interface AbortSignalLike {
  aborted: boolean;
  onAbort?: () => void;
}

export class Timers {
  private readonly pending = new Set<{ timer: NodeJS.Timeout; done: () => void }>();

  sleep(ms: number, signal?: AbortSignalLike): Promise<void> {
    return new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const entry = { timer: setTimeout(() => finish(), ms), done: () => finish() };
      const finish = () => {
        clearTimeout(entry.timer);
        this.pending.delete(entry);
        resolve();
      };
      this.pending.add(entry);
      if (signal) signal.onAbort = finish;
    });
  }

  endAll(): void {
    for (const t of [...this.pending]) t.done();
  }
}
