/**
 * What a media host's answer says: its body as chunks (a stream, or whole), the first bytes of an
 * error answer and the sentence of the refusal, the medium's type and file name.
 */
import { binaryName } from './media';

/** How much of an error answer's body is read for its message. */
const ERROR_BODY_BYTES = 512;

export interface MediaFailure {
  field: string;
  /**
   * `media_link_expired`, `media_link_refused`, `media_not_found`, `media_download_failed`, `media_host_unreachable`,
   * `media_address_refused`, `media_too_slow`.
   */
  code: string;
  message: string;
  status?: number;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};
const TYPES: Record<string, string> = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));
TYPES.jpeg = 'image/jpeg';

/**
 * The file name of a link: the last part of its path (query left out), or the medium's name with the type's extension.
 */
export function fileNameOf(url: string, field: string, mimeType: string | undefined): string {
  const path = url.replace(/[?#].*$/, '').replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  let last = path.split('/').pop() ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // a malformed escape: keep the name as it is written
  }
  last = [...last].map((c) => (c.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(c) ? '_' : c)).join('');
  if (/\.[a-z0-9]{2,5}$/i.test(last)) return last;
  const ext = mimeType ? EXTENSIONS[mimeType] : undefined;
  return `${last || binaryName(field)}${ext ? `.${ext}` : ''}`;
}

export interface StreamBody extends AsyncIterable<Uint8Array | string> {
  destroy?: (error?: Error) => void;
}

/** The body as chunks: a stream as n8n gives it for `encoding: 'stream'`, or whole (text or bytes). */
export function chunksOf(body: unknown): AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> {
  if (typeof body === 'string' || body instanceof Uint8Array) return [body];
  if (body && typeof (body as StreamBody)[Symbol.asyncIterator] === 'function') return body as StreamBody;
  return [];
}

/** The first bytes of an error answer, as text. */
export async function errorText(body: unknown): Promise<string> {
  let text = '';
  for await (const chunk of chunksOf(body)) {
    text += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    if (text.length >= ERROR_BODY_BYTES) break; // leaving the loop closes the stream
  }
  return text.slice(0, ERROR_BODY_BYTES).trim();
}

/** The sentence of a media host's refusal. */
export function refusal(status: number, text: string): Omit<MediaFailure, 'field'> {
  const firstLine = text.split('\n')[0].slice(0, 120);
  const said = text ? `${status}: ${firstLine}` : String(status);
  if (status === 403 && /expired/i.test(text)) {
    return {
      code: 'media_link_expired',
      status,
      message: `The media link expired (${firstLine}): run the lookup again to get fresh links.`,
    };
  }
  if (status === 401 || status === 403)
    return {
      code: 'media_link_refused',
      status,
      message: `The media host refused the link (${said}): run the lookup again to get fresh links.`,
    };
  if (status === 404 || status === 410)
    return {
      code: 'media_not_found',
      status,
      message: `The medium is gone (${said}): it was deleted or its link is no longer served.`,
    };
  return { code: 'media_download_failed', status, message: `The media host answered ${said}; try again later.` };
}

/** The medium's type: the one declared, else the one its link's extension names. */
export function mimeTypeOf(declared: string | undefined, url: URL): string | undefined {
  const declaredType = (declared ?? '').split(';')[0].trim().toLowerCase();
  const ext = (url.pathname.match(/\.([a-z0-9]{2,5})$/i)?.[1] ?? '').toLowerCase();
  return declaredType && declaredType !== 'application/octet-stream'
    ? declaredType
    : (TYPES[ext] ?? (declaredType || undefined));
}

/** A failure as the sentence an item or an error shows: what happened, then which field. Media are free either way. */
export const failureSentence = (f: MediaFailure): string =>
  `${f.message.replace(/\.$/, '')} (${f.field}; media downloads are free).`;
