/**
 * One medium downloaded, as n8n's own nodes hand over files
 * (`this.helpers.prepareBinaryData(buffer, fileName, mimeType)`), or why not:
 * - Only from the API's media hosts and the Base URL's origin (address.ts), decided on the link
 *   before anything is sent, at every redirect hop: redirects are followed here, never by n8n.
 * - Media links are CDN links, not API requests: free, never billed, and fetched with n8n's plain
 *   `httpRequest`, never with the credential: the API key is not sent to a media host.
 * - A size limit: the body is read as a stream and dropped as soon as it passes the limit (or
 *   at once, when Content-Length says it will): a download holds at most the limit in memory.
 * - A time limit on the whole download, redirects, headers and every byte of the body: a host
 *   that answers and then trickles cannot hold the execution open.
 * - Links expire (signed CDN links): a 403 "URL signature expired" says to run the lookup again.
 */
import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import type { MediaBorder } from './address';
import { refusedAddress, refusedLink } from './address';
import type { MediaFailure, StreamBody } from './media-response';
import { chunksOf, errorText, fileNameOf, mimeTypeOf, refusal } from './media-response';

/** Redirects followed for one medium (each hop checked like the link). */
const MAX_REDIRECTS = 5;

export type Fetched =
  | { ok: true; binary: IBinaryData }
  | { ok: false; tooLarge: number | undefined }
  | { ok: false; failure: Omit<MediaFailure, 'field'> };

export type Ctx = IExecuteFunctions | IPollFunctions;

/** The address a response's connection reached (n8n's stream body is Node's IncomingMessage). */
const remoteAddressOf = (body: unknown): string | undefined =>
  (body as { socket?: { remoteAddress?: string } } | undefined)?.socket?.remoteAddress ?? undefined;

const addressRefused = (why: string, sent: boolean): Fetched => {
  const how = sent ? 'its answer was dropped unread' : 'nothing was sent to it';
  return {
    ok: false,
    failure: { code: 'media_address_refused', message: `The media link was not followed (${how}): ${why}.` },
  };
};

/** What one download asks: its link, the field it came from, its limits and where media may come from. */
export interface MediumRequest {
  link: string;
  field: string;
  maxBytes: number;
  /** The whole download's time limit, in milliseconds. */
  deadlineMs: number;
  border: MediaBorder;
}

type Answer = { statusCode: number; headers?: Record<string, unknown>; body: unknown };

/**
 * One download within its time limit: at the limit the request in flight is aborted and the body
 * being read is destroyed, and the item says how long it was given.
 */
export async function fetchMedium(ctx: Ctx, want: MediumRequest): Promise<Fetched> {
  // AbortSignal.timeout: its timer never holds the process, and n8n-workflow's sleepWithAbort is
  // gone in 2.41 (community nodes may not call setTimeout).
  const limit = AbortSignal.timeout(want.deadlineMs);
  let late = false;
  let inHand: StreamBody | undefined;
  const seconds = Math.round(want.deadlineMs / 100) / 10;
  const tooSlow: Fetched = {
    ok: false,
    failure: {
      code: 'media_too_slow',
      message:
        `The download did not finish within ${seconds} s and was dropped (Options > Media Time Limit (Seconds)); ` +
        `try again later`,
    },
  };
  let onLate = () => {};
  const expired = new Promise<Fetched>((resolve) => {
    onLate = () => {
      late = true;
      inHand?.destroy?.(new Error('the time limit was reached'));
      resolve(tooSlow);
    };
    limit.addEventListener('abort', onLate, { once: true });
  });
  const hold = (body: unknown) => {
    inHand = body as StreamBody | undefined;
    if (late) inHand?.destroy?.(new Error('the time limit was reached'));
  };
  try {
    const got = await Promise.race([download(ctx, want, limit, hold), expired]);
    return late ? tooSlow : got;
  } finally {
    limit.removeEventListener('abort', onLate);
  }
}

/** The download itself; `hold` is told each answer's body as soon as it arrives (the deadline destroys it). */
async function download(
  ctx: Ctx,
  { link, field, maxBytes, deadlineMs, border }: MediumRequest,
  signal: AbortSignal,
  hold: (body: unknown) => void,
): Promise<Fetched> {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return addressRefused('it is not a valid link', false);
  }
  let res: Answer;
  let headers: Record<string, string>;
  for (let hop = 0; ; hop++) {
    const why = refusedLink(url, border);
    if (why) return addressRefused(why, false);
    try {
      // No credential: media links are public CDN links and the API key must never reach them.
      // Uncompressed, so the body is the connection's own stream and its address can be read.
      res = (await ctx.helpers.httpRequest({
        method: 'GET',
        url: url.href,
        headers: { 'accept-encoding': 'identity' },
        encoding: 'stream',
        returnFullResponse: true,
        ignoreHttpStatusErrors: true,
        disableFollowRedirect: true,
        json: false,
        timeout: deadlineMs,
        abortSignal: signal,
      })) as Answer;
      hold(res.body); // past the deadline, dropped as it arrives
    } catch (e) {
      return {
        ok: false,
        failure: {
          code: 'media_host_unreachable',
          message: `Could not reach the media host: ${(e as Error).message}. Try again later.`,
        },
      };
    }
    const reached = refusedAddress(url, border, remoteAddressOf(res.body));
    if (reached) {
      (res.body as StreamBody | undefined)?.destroy?.();
      return addressRefused(reached, true);
    }
    headers = {};
    for (const [k, v] of Object.entries(res.headers ?? {}))
      if (v !== undefined && v !== null) headers[k.toLowerCase()] = String(v);
    if (res.statusCode < 300 || res.statusCode >= 400 || !headers.location) break;
    (res.body as StreamBody | undefined)?.destroy?.();
    if (hop === MAX_REDIRECTS)
      return {
        ok: false,
        failure: {
          code: 'media_download_failed',
          status: res.statusCode,
          message: `The media host redirected more than ${MAX_REDIRECTS} times; try again later.`,
        },
      };
    try {
      url = new URL(headers.location, url);
    } catch {
      return addressRefused(`it redirects to an invalid link`, false);
    }
  }
  const body = res.body as StreamBody | undefined;
  if (res.statusCode < 200 || res.statusCode >= 300)
    return { ok: false, failure: refusal(res.statusCode, await errorText(body)) };
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body?.destroy?.();
    return { ok: false, tooLarge: declared };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of chunksOf(body)) {
      const bytes =
        typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      total += bytes.length;
      if (total > maxBytes) return { ok: false, tooLarge: undefined }; // leaving the loop closes the stream
      chunks.push(bytes);
    }
  } catch (e) {
    return {
      ok: false,
      failure: {
        code: 'media_download_failed',
        message: `The download broke off: ${(e as Error).message}. Try again later.`,
      },
    };
  }
  const mimeType = mimeTypeOf(headers['content-type'], url);
  const binary = await ctx.helpers.prepareBinaryData(
    Buffer.concat(chunks, total),
    fileNameOf(link, field, mimeType),
    mimeType,
  );
  return { ok: true, binary };
}
