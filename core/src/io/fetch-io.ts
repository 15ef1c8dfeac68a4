/** An AsyncIO over the platform's `fetch` (Node 20, browsers). Used by scripts, tests and benchmarks. */
import type { AsyncIO, RawResponse } from '../effects';
import type { HttpRequest } from '../request';

export interface FetchIOOptions {
  /** Give up on one attempt after this long (the retry policy then decides). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export function fetchIO(options: FetchIOOptions = {}): AsyncIO {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30000;
  return {
    async fetch(request: HttpRequest): Promise<RawResponse> {
      const res = await doFetch(request.url, {
        method: request.method,
        headers: request.headers,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k.toLowerCase()] = v));
      return { status: res.status, headers, body: await res.text() };
    },
    sleep: (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
