/** The core's SyncIO over Apps Script: UrlFetchApp.fetch / fetchAll and Utilities.sleep. */
import type { HttpRequest, RawResponse } from '@igdata/core';
import { noHttpAnswer } from '@igdata/core';
import type { SheetsClient } from '../engine/ports';

type FetchParams = GoogleAppsScript.URL_Fetch.URLFetchRequest;

function lower(headers: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers || {})) out[k.toLowerCase()] = String(v);
  return out;
}

const options = (r: HttpRequest): FetchParams => ({
  url: r.url,
  method: r.method.toLowerCase() as GoogleAppsScript.URL_Fetch.HttpMethod,
  headers: r.headers,
  muteHttpExceptions: true, // error statuses come back as responses, the core maps them
  followRedirects: true,
});

function read(res: GoogleAppsScript.URL_Fetch.HTTPResponse): RawResponse {
  return { status: res.getResponseCode(), headers: lower(res.getHeaders()), body: res.getContentText() };
}


/** A SyncIO; `stats` counts what went out (the sidebar's "requests"), each request once. */
export function gasIO(): SheetsClient['io'] {
  const stats = { requests: 0, batches: 0 };
  const fetchOne = (request: HttpRequest): RawResponse => {
    stats.requests++;
    stats.batches++;
    const { url, ...params } = options(request);
    return read(UrlFetchApp.fetch(url, params));
  };
  return {
    stats,
    fetch: fetchOne,
    fetchAll(requests) {
      stats.requests += requests.length;
      stats.batches++;
      try {
        return UrlFetchApp.fetchAll(requests.map(options)).map(read);
      } catch (e) {
        // fetchAll throws for the whole batch on the first network failure, naming that one URL.
        // Each request is asked again on its own so each gets its own answer or its own failure
        // (the core would retry all of them anyway: this is that retry, one by one).
        if (requests.length === 1) return [noHttpAnswer(e)];
        return requests.map((r) => {
          try {
            return fetchOne(r);
          } catch (one) {
            return noHttpAnswer(one);
          }
        });
      }
    },
    sleep(ms) {
      Utilities.sleep(ms);
    },
  };
}
