/**
 * One medium downloaded, as n8n's own nodes hand over files
 * (`this.helpers.prepareBinaryData(buffer, fileName, mimeType)`), or why not:
 * - Never to a private, loopback or link-local address (address.ts), checked on the link and on
 *   the address the connection reached, except on the Base URL's host (the sandbox); redirects
 *   are followed here, each hop checked again.
 * - Media links are CDN links, not API requests: free, never billed, and fetched with n8n's plain
 *   `httpRequest`, never with the credential: the API key is not sent to a media host.
 * - A size limit: the body is read as a stream and dropped as soon as it passes the limit (or
 *   at once, when Content-Length says it will): a download holds at most the limit in memory.
 * - Links expire (signed CDN links): a 403 "URL signature expired" says to run the lookup again.
 */
import type { IBinaryData, IExecuteFunctions, IPollFunctions } from 'n8n-workflow';
import { refusedAddress, refusedLink } from './address';
import type { MediaFailure, StreamBody } from './media-response';
import { chunksOf, errorText, fileNameOf, mimeTypeOf, refusal } from './media-response';

const MEDIA_TIMEOUT_MS = 60000;
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

const addressRefused = (why: string): Fetched => ({
  ok: false,
  failure: {
    code: 'media_address_refused',
    message:
      `The media link was not followed: ${why}. Media are downloaded from public ` +
      `addresses only (and from the Base URL's host, for the sandbox).`,
  },
});

/**
 * One download: the bytes as n8n binary data, or why not. Redirects are followed here, not by
 * n8n, so that every hop is checked like the link itself.
 */
export async function fetchMedium(
  ctx: Ctx,
  link: string,
  field: string,
  maxBytes: number,
  trustedHost: string,
): Promise<Fetched> {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return addressRefused('it is not a valid link');
  }
  let res: { statusCode: number; headers?: Record<string, unknown>; body: unknown };
  let headers: Record<string, string>;
  for (let hop = 0; ; hop++) {
    const why = refusedLink(url, trustedHost);
    if (why) return addressRefused(why);
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
        timeout: MEDIA_TIMEOUT_MS,
      })) as typeof res;
    } catch (e) {
      return {
        ok: false,
        failure: {
          code: 'media_host_unreachable',
          message: `Could not reach the media host: ${(e as Error).message}. Try again later.`,
        },
      };
    }
    const reached = refusedAddress(url, trustedHost, remoteAddressOf(res.body));
    if (reached) {
      (res.body as StreamBody | undefined)?.destroy?.();
      return addressRefused(reached);
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
      return addressRefused(`it redirects to an invalid link`);
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
