/** The core's SyncIO over Apps Script: UrlFetchApp.fetch / fetchAll and Utilities.sleep. */
import type { HttpRequest, RawResponse } from '@igdata/core';
import { noHttpAnswer } from '@igdata/core';
import type { SheetsClient } from '../engine/deps';

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
  // A redirect comes back as an answer (core refuses it): followed, it would carry the key elsewhere.
  followRedirects: false,
});

/**
 * Headers are read when core first asks for them (a Retry-After, an answer without meta): an
 * answer's meta carries what core needs, and getHeaders builds a new object for every response.
 */
function read(res: GoogleAppsScript.URL_Fetch.HTTPResponse): RawResponse {
  let headers: Record<string, string> | undefined;
  return {
    status: res.getResponseCode(),
    body: res.getContentText(),
    get headers() {
      return (headers ??= lower(res.getHeaders()));
    },
  };
}

/**
 * An exception of UrlFetchApp as the request's outcome. Apps Script says only a sentence naming one
 * URL. Two of its sentences can come after the request left: "Address unavailable: <url>" (said
 * for a refused connection, but also for a server that closed without answering) and "Timeout:
 * <url>"; so those may have reached the service, and core treats them so. The others come before
 * anything is sent ("DNS error", "SSL Error", "Invalid argument", a URL the manifest does not allow;
 * a daily quota too, told apart below).
 */
const failed = (e: unknown): RawResponse =>
  noHttpAnswer(e, !/^(Exception: )?(Address unavailable|Timeout)\b/.test(String((e as Error)?.message ?? e)));

/**
 * Apps Script's daily quota: `Service invoked too many times for one day: urlfetch.`, thrown by fetch and fetchAll
 * alike before anything is sent (each request of a fetchAll counts). The one place that reads the sentence: core makes
 * it an IgQuotaError (not sent, not charged, never retried).
 */
const DAILY_QUOTA = /^(?:Exception: )?Service invoked too many times for one day: (\w+)\.?\s*$/;

/** The quota an exception of UrlFetchApp names, or undefined when it is not a quota. */
const quotaOf = (e: unknown): string | undefined => DAILY_QUOTA.exec(String((e as Error)?.message ?? e).trim())?.[1];

/** A request the quota refused: never sent. */
const refused = (e: unknown, quota: string): RawResponse => ({ ...noHttpAnswer(e, true), quota });

/**
 * fetchAll throws for the whole batch at the first request that failed, naming its URL; the other
 * answers are lost, those the service answered and billed included. The named one has its failure;
 * the others are lost with the batch (core sends them again together, once, and the named one apart).
 */
function lostBatch(requests: HttpRequest[], e: unknown): RawResponse[] {
  const text = String((e as Error)?.message ?? e).trim();
  const named = requests.findIndex((r) => text.endsWith(r.url));
  // Not the batch's sentence, which names another request's URL: a cell would blame the wrong target.
  const lost = new Error('the answer was lost when another request of its batch failed');
  return requests.map((_, i) => (i === named ? failed(e) : { ...noHttpAnswer(lost), lostWithBatch: true }));
}

/** A SyncIO; `stats` counts what went out (the sidebar's "requests"), each request once; nothing a quota refused. */
export function gasIO(): SheetsClient['io'] {
  const stats = { requests: 0, batches: 0 };
  // What a quota refused never went out: not counted.
  const count = (n: number) => {
    stats.requests += n;
    stats.batches++;
  };
  return {
    stats,
    fetch(request) {
      const { url, ...params } = options(request);
      try {
        const res = read(UrlFetchApp.fetch(url, params));
        count(1);
        return res;
      } catch (e) {
        const quota = quotaOf(e);
        if (quota) return refused(e, quota);
        count(1);
        return failed(e);
      }
    },
    fetchAll(requests) {
      try {
        const res = UrlFetchApp.fetchAll(requests.map(options)).map(read);
        count(requests.length);
        return res;
      } catch (e) {
        const quota = quotaOf(e);
        // Nothing of the batch went out: none counted as sent, none lost.
        if (quota) return requests.map(() => refused(e, quota));
        count(requests.length);
        return lostBatch(requests, e);
      }
    },
    sleep(ms) {
      Utilities.sleep(ms);
    },
  };
}
