/** An AsyncIO over the platform's `fetch` (Node 20, browsers). Used by scripts, tests and benchmarks. */
import type { AsyncIO, HttpRequest, RawResponse } from '../types';

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
      // One controller and a cleared timer, not AbortSignal.timeout(), which costs a request in
      // Node more than everything else the core does (`npm run bench` shows it).
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      try {
        const res = await doFetch(request.url, {
          method: request.method,
          headers: request.headers,
          // A redirect comes back as an answer (core refuses it): followed, it would carry the key elsewhere.
          redirect: 'manual',
          signal: controller.signal,
        });
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k.toLowerCase()] = v));
        return { status: res.status, headers, body: await res.text() };
      } finally {
        clearTimeout(timer);
      }
    },
    sleep: (ms: number) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
