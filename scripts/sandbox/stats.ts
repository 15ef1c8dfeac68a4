/** The request counters behind GET /_sandbox/stats and Sandbox.stats(). */
import type { SandboxStats } from './types';

const emptyStats = (): SandboxStats => ({
  total: 0,
  byEndpoint: {},
  byRequest: {},
  byStatus: {},
  creditsBilled: 0,
  faults: 0,
  mcpCalls: 0,
  media: { requests: 0, bytes: 0, byStatus: {} },
  inFlight: 0,
  maxInFlight: 0,
});

export class Stats {
  private counts = emptyStats();
  private inFlight = 0;

  /** An API request; the endpoint is undefined when the path matches none. */
  countRequest(endpointId: string | undefined): void {
    const c = this.counts;
    c.total++;
    if (endpointId !== undefined) c.byEndpoint[endpointId] = (c.byEndpoint[endpointId] ?? 0) + 1;
  }

  countRequestKey(requestKey: string): void {
    this.counts.byRequest[requestKey] = (this.counts.byRequest[requestKey] ?? 0) + 1;
  }

  countStatus(status: number): void {
    this.counts.byStatus[status] = (this.counts.byStatus[status] ?? 0) + 1;
  }

  countBilled(credits: number): void {
    this.counts.creditsBilled += credits;
  }

  countFault(): void {
    this.counts.faults++;
  }

  countMcpCall(): void {
    this.counts.mcpCalls++;
  }

  /** A media link fetched: its status and the bytes sent. */
  countMedia(status: number, bytes: number): void {
    const m = this.counts.media;
    m.requests++;
    m.bytes += bytes;
    m.byStatus[status] = (m.byStatus[status] ?? 0) + 1;
  }

  enter(): void {
    this.inFlight++;
    if (this.inFlight > this.counts.maxInFlight) this.counts.maxInFlight = this.inFlight;
  }

  leave(): void {
    this.inFlight--;
  }

  /** A copy, so callers can keep it while counting goes on. */
  snapshot(): SandboxStats {
    const c = this.counts;
    return {
      ...c,
      byEndpoint: { ...c.byEndpoint },
      byRequest: { ...c.byRequest },
      byStatus: { ...c.byStatus },
      media: { ...c.media, byStatus: { ...c.media.byStatus } },
      inFlight: this.inFlight,
      maxInFlight: c.maxInFlight,
    };
  }

  /** Zero the counters; requests still in flight are not forgotten, so maxInFlight starts from them. */
  reset(): void {
    this.counts = emptyStats();
    this.counts.maxInFlight = this.inFlight;
  }
}
