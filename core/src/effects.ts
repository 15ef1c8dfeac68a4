/**
 * The core never does I/O. Its operations are generators that yield descriptions of I/O and get
 * the outcome back (Babel's gensync pattern). A synchronous driver (Apps Script's UrlFetchApp) and
 * an asynchronous one (fetch, n8n's httpRequest) drive the very same generator.
 */
import type { AsyncIO, Op, RawResponse, SyncIO } from './types';

/**
 * System error codes that prove a request never left: nothing listening, no such host. Any other
 * failure (a timeout, a reset, a socket hang-up) may have come after the service got the request,
 * and the service bills what reaches it (§7).
 */
const NEVER_LEFT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/**
 * Whether an HTTP client's error, or one of its causes (Node's fetch and n8n wrap the system error), says the request
 * never left.
 */
function neverLeft(e: unknown): boolean {
  for (
    let x = e, depth = 0;
    typeof x === 'object' && x !== null && depth < 5;
    x = (x as { cause?: unknown }).cause, depth++
  ) {
    if (NEVER_LEFT.has(String((x as { code?: unknown }).code))) return true;
  }
  return false;
}

/**
 * The raw outcome of a request that got no HTTP answer (what drivers feed back for a failed fetch).
 * `neverSent`: a driver that knows better than the error's code says so (Apps Script's exceptions
 * carry only a sentence).
 */
export const noHttpAnswer = (e: unknown, neverSent = neverLeft(e)): RawResponse => ({
  status: 0,
  headers: {},
  body: '',
  error: e instanceof Error ? e.message : String(e),
  cause: e,
  ...(neverSent ? { neverSent } : {}),
});

/** A batch that threw as a whole: which request failed is not known, every answer is lost. */
const lostBatch = (requests: unknown[], e: unknown): RawResponse[] =>
  requests.map(() => ({ ...noHttpAnswer(e), lostWithBatch: true }));

export function driveSync<T>(op: Op<T>, io: SyncIO): T {
  let state = op.next();
  while (!state.done) {
    const effect = state.value;
    let input: unknown;
    if (effect.kind === 'sleep') input = io.sleep(effect.ms);
    else if (effect.kind === 'http') {
      try {
        input = io.fetch(effect.request);
      } catch (e) {
        input = noHttpAnswer(e);
      }
    } else {
      try {
        input = io.fetchAll(effect.requests);
      } catch (e) {
        input = lostBatch(effect.requests, e);
      }
    }
    state = op.next(input);
  }
  return state.value;
}

export async function driveAsync<T>(op: Op<T>, io: AsyncIO): Promise<T> {
  let state = op.next();
  while (!state.done) {
    const effect = state.value;
    let input: unknown;
    if (effect.kind === 'sleep') input = await io.sleep(effect.ms);
    else if (effect.kind === 'http') input = await io.fetch(effect.request).catch(noHttpAnswer);
    else if (io.fetchAll) input = await io.fetchAll(effect.requests).catch((e) => lostBatch(effect.requests, e));
    else input = await Promise.all(effect.requests.map((r) => io.fetch(r).catch(noHttpAnswer)));
    state = op.next(input);
  }
  return state.value;
}
