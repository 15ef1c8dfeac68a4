/**
 * The core never does I/O. Its operations are generators that yield descriptions of I/O and get
 * the outcome back (Babel's gensync pattern). A synchronous driver (Apps Script's UrlFetchApp) and
 * an asynchronous one (fetch, n8n's httpRequest) run the very same generator.
 */
import type { AsyncIO, Op, RawResponse, SyncIO } from './types';

/** The raw outcome of a request that got no HTTP answer (what drivers feed back for a failed fetch). */
export const noHttpAnswer = (e: unknown): RawResponse => ({
  status: 0,
  headers: {},
  body: '',
  error: e instanceof Error ? e.message : String(e),
  cause: e,
});

export function runSync<T>(op: Op<T>, io: SyncIO): T {
  let step = op.next();
  while (!step.done) {
    const effect = step.value;
    let input: unknown;
    if (effect.kind === 'sleep') input = io.sleep(effect.ms);
    else if (effect.kind === 'http') {
      try { input = io.fetch(effect.request); } catch (e) { input = noHttpAnswer(e); }
    } else {
      try { input = io.fetchAll(effect.requests); } catch (e) { input = effect.requests.map(() => noHttpAnswer(e)); }
    }
    step = op.next(input);
  }
  return step.value;
}

export async function runAsync<T>(op: Op<T>, io: AsyncIO): Promise<T> {
  let step = op.next();
  while (!step.done) {
    const effect = step.value;
    let input: unknown;
    if (effect.kind === 'sleep') input = await io.sleep(effect.ms);
    else if (effect.kind === 'http') input = await io.fetch(effect.request).catch(noHttpAnswer);
    else if (io.fetchAll) input = await io.fetchAll(effect.requests).catch((e) => effect.requests.map(() => noHttpAnswer(e)));
    else input = await Promise.all(effect.requests.map((r) => io.fetch(r).catch(noHttpAnswer)));
    step = op.next(input);
  }
  return step.value;
}
