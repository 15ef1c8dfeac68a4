/** The core's SyncIO over Apps Script: UrlFetchApp.fetch / fetchAll and Utilities.sleep. */
import type { HttpRequest, RawResponse, SyncIO } from '@igdata/core';

function lower(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(headers || {})) out[k.toLowerCase()] = String(headers[k]);
  return out;
}

const options = (r: HttpRequest) => ({
  url: r.url,
  method: r.method.toLowerCase(),
  headers: r.headers,
  muteHttpExceptions: true, // error statuses come back as responses, the core maps them
  followRedirects: true,
});

function read(res: GasHttpResponse): RawResponse {
  return { status: res.getResponseCode(), headers: lower(res.getHeaders()), body: res.getContentText() };
}

export interface GasIOStats {
  requests: number;
  batches: number;
}

/** A SyncIO; `stats` counts what went out (for the sidebar's "requests made"). */
export function gasIO(stats: GasIOStats = { requests: 0, batches: 0 }): SyncIO & { stats: GasIOStats } {
  return {
    stats,
    fetch(request) {
      stats.requests++;
      stats.batches++;
      const { url, ...params } = options(request);
      return read(UrlFetchApp.fetch(url, params));
    },
    fetchAll(requests) {
      stats.requests += requests.length;
      stats.batches++;
      return UrlFetchApp.fetchAll(requests.map(options)).map(read);
    },
    sleep(ms) {
      Utilities.sleep(ms);
    },
  };
}
