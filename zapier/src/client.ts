/**
 * The core's AsyncIO over Zapier's own `z.request`: every request goes through Zapier's HTTP
 * client (its logs, its scrubber, our `beforeRequest` that adds the key), and the core sees the
 * status, headers and body of every answer and decides itself what is an error and what to retry.
 * This file never reads the key: the core builds requests without one (`callerAuthenticates`).
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type {
  AnyIgError,
  ApiResult,
  AsyncIO,
  Call,
  ClientConfig,
  FeedAnswer,
  FeedOptions,
  FeedReading,
  FeedState,
  HttpRequest,
  PagingCap,
  PagingResult,
} from '@igdata/core';
import { PageWalk, driveAsync, errorCode, isIgError, readFeed, send, sendAll, withCursor } from '@igdata/core';
import { asZapierError } from './errors';

/**
 * Zapier retries a throttled step itself (ThrottledError with the Retry-After), so a 429 is handed
 * back at once; 502/503/504 and lost connections are retried here, as in Sheets and n8n.
 */
const RETRY = { attempts: 3, statuses: [0, 502, 503, 504] };

export function clientConfig(bundle: Bundle): ClientConfig {
  const base = typeof bundle.authData?.baseUrl === 'string' ? bundle.authData.baseUrl.trim() : '';
  return { callerAuthenticates: true, retry: RETRY, ...(base ? { baseUrl: base } : {}) };
}

/** The IO of one step, and the Retry-After of the last answer (for a ThrottledError). */
interface ZapierIO extends AsyncIO {
  retryAfter(): string | undefined;
}

function zapierIO(z: ZObject): ZapierIO {
  let retryAfter: string | undefined;
  return {
    async fetch(request: HttpRequest) {
      const res = await z.request({
        method: request.method,
        url: request.url,
        headers: { ...request.headers },
        skipThrowForStatus: true,
        // Our own ThrottledError (with our sentence) replaces Zapier's early one.
        throwForThrottlingEarly: false,
        // A redirect comes back as an answer, which core refuses: Zapier's client (node-fetch) would
        // follow it with the key (it drops only authorization and cookie, and only on some hops).
        redirect: 'manual',
      } as Parameters<ZObject['request']>[0]);
      const headers: Record<string, string> = {};
      res.headers.forEach((value: string, name: string) => (headers[name.toLowerCase()] = value));
      retryAfter = headers['retry-after'];
      return { status: res.status, headers, body: res.content };
    },
    sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    retryAfter: () => retryAfter,
  };
}

/**
 * One call, its errors as Zapier's classes. With `missingIsNothing`, a target with no public data
 * (private, deleted or nonexistent: the service's 404, billed) is null: a search's "nothing found".
 */
export async function lookUp(z: ZObject, bundle: Bundle, call: Call, missingIsNothing: true): Promise<ApiResult | null>;
export async function lookUp(z: ZObject, bundle: Bundle, call: Call): Promise<ApiResult>;
export async function lookUp(z: ZObject, bundle: Bundle, call: Call, missingIsNothing = false) {
  const io = zapierIO(z);
  try {
    return await driveAsync(send(clientConfig(bundle), call), io);
  } catch (e) {
    if (missingIsNothing && isIgError(e) && errorCode(e) === 'not_found') return null;
    throw asZapierError(z, e, call, io.retryAfter());
  }
}

/**
 * Several calls at once (core's sendAll), each answered by its result or its error, unthrown: a
 * check of several accounts goes on past one that failed.
 */
export async function lookUpEach(z: ZObject, bundle: Bundle, calls: Call[]): Promise<(ApiResult | AnyIgError)[]> {
  return driveAsync(sendAll(clientConfig(bundle), calls), zapierIO(z));
}

/**
 * Zapier stops a step that has not answered in 30 seconds (a search, a poll, the connection test:
 * docs.zapier.com/platform/build/operating-constraints): the user sees a timeout, and the pages
 * already read are paid and lost, then paid again by a replay. A list starts no page after this much
 * of the step, and answers with what it read; the 10 s left are for a page started just before.
 */
const START_PAGES_WITHIN_MS = 20_000;

/**
 * A list read page by page within `cap` and within START_PAGES_WITHIN_MS of `startedAt` (the step's
 * start); `missingIsNothing` as for lookUp.
 */
export async function readList(
  z: ZObject,
  bundle: Bundle,
  call: Call,
  cap: PagingCap,
  missingIsNothing = false,
  startedAt = Date.now(),
): Promise<PagingResult | null> {
  const io = zapierIO(z);
  const config = clientConfig(bundle);
  const walk = new PageWalk([call], cap);
  for (let round = walk.nextRound(); round.length; round = walk.nextRound()) {
    const [page] = round;
    if (walk.results()[0].pages > 0 && Date.now() - startedAt >= START_PAGES_WITHIN_MS) {
      walk.unsent(page.index);
      break;
    }
    const [answer] = await driveAsync(sendAll(config, [page.call]), io);
    walk.record(page.index, answer);
  }
  const [result] = walk.results();
  // The first page's failure is thrown (nothing was paid); a later one keeps the pages before it.
  if (result.stoppedBy === 'error' && result.pages === 0) {
    if (missingIsNothing && isIgError(result.error) && errorCode(result.error) === 'not_found') return null;
    throw asZapierError(z, result.error, call, io.retryAfter());
  }
  return result;
}

/** Why a page was not asked for: the step's time was up (never sent, never paid). */
const LATE = 'not sent: the check had used the time Zapier allows a step';

/**
 * One reading of the feed `call` lists, by core's feed rule (`readFeed`; `state` undefined: the
 * first), starting no page after START_PAGES_WITHIN_MS of `startedAt`: such a page is answered as
 * failed, unsent, so the state resumes at it and the next check reads it (a check Zapier stopped
 * at 30 s would save no state, and the next check would pay its pages again). A reading that read
 * nothing throws its failure (the check fails; `nothingRead` hears it first); one whose later page failed
 * keeps what it read, and its state resumes at that page.
 */
export async function readFeedOf(
  z: ZObject,
  bundle: Bundle,
  call: Call,
  state: FeedState | undefined,
  options: FeedOptions,
  startedAt = Date.now(),
  /** Told a reading's failure when it read nothing, before it is thrown as Zapier's error. */
  nothingRead?: (failure: unknown) => Promise<void>,
): Promise<FeedReading> {
  const io = zapierIO(z);
  const config = clientConfig(bundle);
  const feed = readFeed(state, options);
  let reading: FeedReading | undefined;
  let sent = 0;
  for (let s = feed.next(); !reading;) {
    if (s.done) {
      reading = s.value;
      break;
    }
    let answer: FeedAnswer;
    if (sent > 0 && Date.now() - startedAt >= START_PAGES_WITHIN_MS) answer = new Error(LATE);
    else {
      sent++;
      try {
        answer = await driveAsync(send(config, withCursor(call, s.value.cursor)), io);
      } catch (e) {
        if (!isIgError(e)) throw asZapierError(z, e, call, io.retryAfter());
        answer = e;
      }
    }
    s = feed.next(answer);
  }
  if (reading.failure && reading.pages === 0) {
    await nothingRead?.(reading.failure);
    throw asZapierError(z, reading.failure, call, io.retryAfter());
  }
  return reading;
}
