/** UrlFetchApp: synchronous real HTTP, concurrent fetchAll, Apps Script's errors and limits. */
import type { Host, RequestRecord } from '../internal/types';
import { Realm, bytesToBuffer, fromRealm, isByteArray, isPlainObject } from '../internal/realm';
import {
  WireRequest,
  WireResult,
  acquireHttpClient,
  findSameThreadServer,
  releaseHttpClient,
} from '../internal/syncHttp';
import { BlobImpl, isBlob } from './blob';
import { QUOTA_MESSAGES } from '../internal/quota';

export interface UrlFetchOptions {
  /** Maps the URL the script asked for to the one really requested (e.g. prod host -> local sandbox). */
  rewriteUrl?: (url: string) => string;
  /** Reject URLs not matching the manifest's urlFetchWhitelist prefixes (checked before rewriteUrl). */
  enforceUrlFetchWhitelist?: boolean;
  /** User-Agent sent when the script sets none (Apps Script sends its own). */
  userAgent?: string;
}

/** Host-side state shared by every script context of one runtime. */
export class UrlFetchBackend {
  readonly client = acquireHttpClient();
  #released = false;
  readonly requests: RequestRecord[] = [];
  constructor(readonly options: UrlFetchOptions) {}

  /** This runtime no longer fetches: the shared HTTP thread may end once no runtime uses it. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    releaseHttpClient();
  }
}

const DEFAULT_UA =
  'Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: UAEmdDd-stand-in)';
const METHODS = new Set(['get', 'delete', 'patch', 'post', 'put']);
// Apps Script refuses URLs with characters that should have been escaped ("Invalid argument: <url>").
const UNESCAPED = /[\s"<>\\^`{|}]|[\u0080-\uffff]/;

interface Prepared {
  wire: WireRequest;
  requestedUrl: string;
  muteHttpExceptions: boolean;
  payloadText?: string;
}

function headerLookup(headers: Record<string, string>, name: string): string | undefined {
  const k = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return k === undefined ? undefined : headers[k];
}

function formEncode(obj: Record<string, unknown>): string {
  return Object.keys(obj)
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(obj[k]))}`)
    .join('&');
}

export class HTTPResponseImpl {
  readonly #realm: Realm;
  readonly #status: number;
  readonly #rawHeaders: string[];
  readonly #body: Buffer;

  constructor(realm: Realm, status: number, rawHeaders: string[], body: Buffer) {
    this.#realm = realm;
    this.#status = status;
    this.#rawHeaders = rawHeaders;
    this.#body = body;
  }

  getResponseCode(): number {
    return this.#status;
  }

  getContentText(charset?: string): string {
    return this.#body.toString(charset && /ascii/i.test(charset) ? 'latin1' : 'utf8');
  }

  getContent(): number[] {
    return this.#realm.bytes(this.#body);
  }

  /** Header names as the server sent them (original case), one value each. */
  getHeaders(): Record<string, string> {
    const out = this.#realm.object();
    for (let i = 0; i < this.#rawHeaders.length; i += 2) {
      const name = this.#rawHeaders[i];
      if (!(name in out)) out[name] = this.#rawHeaders[i + 1];
    }
    return out;
  }

  /** Like getHeaders, but a header sent several times is an array. */
  getAllHeaders(): Record<string, string | string[]> {
    const out = this.#realm.object();
    for (let i = 0; i < this.#rawHeaders.length; i += 2) {
      const name = this.#rawHeaders[i];
      const value = this.#rawHeaders[i + 1];
      if (!(name in out)) out[name] = value;
      else if (Array.isArray(out[name])) out[name].push(value);
      else out[name] = this.#realm.array([out[name], value]);
    }
    return out;
  }

  getBlob(): BlobImpl {
    const ct = this.#rawHeaders.find((_, i, a) => i % 2 === 0 && a[i].toLowerCase() === 'content-type');
    const idx = ct === undefined ? -1 : this.#rawHeaders.indexOf(ct);
    return new BlobImpl(this.#realm, this.#body, idx >= 0 ? this.#rawHeaders[idx + 1] : null, null);
  }

  getAs(contentType: string): BlobImpl {
    return this.getBlob().setContentType(contentType);
  }

  toString(): string {
    return 'HTTPResponse';
  }
}

export function createUrlFetchApp(host: Host, realm: Realm, backend: UrlFetchBackend) {
  const { options } = backend;

  function fail(message: string): never {
    throw realm.exception(message);
  }

  /** `checked`: origins already looked up in this call (the handle scan costs ~0.5 ms a URL). */
  function prepare(rawUrl: unknown, rawParams: unknown, what: string, checked = new Map<string, boolean>()): Prepared {
    const params = (rawParams && typeof rawParams === 'object' ? fromRealm(rawParams) : {}) as Record<string, any>;
    const requestedUrl = String(rawUrl);
    if (!/^https?:\/\//i.test(requestedUrl) || UNESCAPED.test(requestedUrl)) fail(`Invalid argument: ${requestedUrl}`);
    try {
      new URL(requestedUrl);
    } catch {
      fail(`Invalid argument: ${requestedUrl}`);
    }
    if (requestedUrl.length > host.limits.urlMaxChars) fail('Limit Exceeded: URLFetch URL Length.');
    const whitelist = host.manifest?.urlFetchWhitelist;
    if (options.enforceUrlFetchWhitelist && whitelist && !whitelist.some((p) => requestedUrl.startsWith(p))) {
      fail(`${what}: the URL ${requestedUrl} is not in the manifest's urlFetchWhitelist.`);
    }
    const url = options.rewriteUrl ? options.rewriteUrl(requestedUrl) : requestedUrl;
    const origin = originKey(url);
    let sameThread = checked.get(origin);
    if (sameThread === undefined) checked.set(origin, (sameThread = findSameThreadServer(url)));
    if (sameThread) {
      // Not an Apps Script error: a mistake in the test set-up, reported loudly instead of a deadlock.
      fail(
        `stand-in: ${url} is served by an HTTP server on the same thread as the script; it cannot answer while ` +
          'UrlFetchApp blocks. Start the server in a worker thread or child process (scripts/gas-standin/testServer.ts).',
      );
    }

    const method = String(params.method ?? 'get').toLowerCase();
    if (!METHODS.has(method)) fail(`Invalid argument: method`);
    const headers: Record<string, string> = {};
    if (params.headers && typeof params.headers === 'object') {
      for (const [k, v] of Object.entries(params.headers as Record<string, unknown>)) headers[k] = String(v);
    }
    if (headerLookup(headers, 'user-agent') === undefined) headers['User-Agent'] = options.userAgent ?? DEFAULT_UA;

    let body: Buffer | null = null;
    let contentType: string | undefined = params.contentType === undefined ? undefined : String(params.contentType);
    const payload =
      rawParams && typeof rawParams === 'object' ? (rawParams as Record<string, unknown>).payload : undefined;
    if (payload !== undefined && payload !== null) {
      if (isBlob(payload)) {
        body = payload.bufferCopy();
        contentType ??= payload.getContentType() ?? undefined;
      } else if (typeof payload === 'string') {
        body = Buffer.from(payload, 'utf8');
      } else if (isByteArray(payload)) {
        body = bytesToBuffer(payload);
      } else if (isPlainObject(payload)) {
        const obj = fromRealm(payload) as Record<string, unknown>;
        if (Object.values(obj).some(isBlob))
          fail('stand-in: multipart payloads (objects with blobs) are not supported');
        body = Buffer.from(formEncode(obj), 'utf8');
      } else {
        body = Buffer.from(String(payload), 'utf8');
      }
      if (contentType === undefined && headerLookup(headers, 'content-type') === undefined) {
        contentType = 'application/x-www-form-urlencoded';
      }
    }
    if (contentType !== undefined) {
      for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-type') delete headers[k];
      headers['Content-Type'] = contentType;
    }

    return {
      requestedUrl,
      muteHttpExceptions: Boolean(params.muteHttpExceptions),
      payloadText: body ? body.toString('utf8') : undefined,
      wire: {
        url,
        method: method.toUpperCase(),
        headers,
        body: body ? new Uint8Array(body) : null,
        followRedirects: params.followRedirects === undefined ? true : Boolean(params.followRedirects),
        validateHttpsCertificates:
          params.validateHttpsCertificates === undefined ? true : Boolean(params.validateHttpsCertificates),
        timeoutMs: 0,
      },
    };
  }

  function execute(prepared: Prepared[], batch: number | null, what: string): HTTPResponseImpl[] {
    host.ensure('urlfetch', what, realm);
    host.checkDeadline(realm);
    // Each request of a fetchAll counts; a call past the quota sends nothing and (our assumption: Google does not say)
    // counts nothing, a batch that does not fit as a whole included.
    if (!host.quotas.urlfetch.take(host.clock.now(), prepared.length)) {
      host.stats.quotaRefusals++;
      fail(QUOTA_MESSAGES.urlfetch);
    }
    const remaining = host.remainingMs();
    for (const p of prepared) p.wire.timeoutMs = remaining + 1000;
    host.stats.requests += prepared.length;
    const results = backend.client.request(
      prepared.map((p) => p.wire),
      remaining,
    );
    const exec = host.current();
    if (results === 'timeout') {
      for (const p of prepared) record(p, null, batch, exec.id, 'timeout');
      host.checkDeadline(realm); // marks the execution and throws "Exceeded maximum execution time"
      fail('Exceeded maximum execution time');
    }
    const responses: HTTPResponseImpl[] = [];
    let firstError: Error | null = null;
    results.forEach((r, i) => {
      const p = prepared[i];
      record(p, r, batch, exec.id);
      if (!r.ok) {
        firstError ??= realm.exception(connectionMessage(r, p.requestedUrl));
        return;
      }
      const body = Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength);
      const res = new HTTPResponseImpl(realm, r.status, r.rawHeaders, body);
      if (r.status >= 400 && !p.muteHttpExceptions)
        firstError ??= realm.exception(httpErrorMessage(p.requestedUrl, r.status, res.getContentText()));
      responses.push(res);
    });
    host.checkDeadline(realm);
    if (firstError) throw firstError;
    return responses;
  }

  function record(p: Prepared, r: WireResult | null, batch: number | null, executionId: number, error?: string): void {
    const entry: RequestRecord = {
      method: p.wire.method,
      url: p.wire.url,
      requestedUrl: p.requestedUrl,
      headers: { ...p.wire.headers },
      payload: p.payloadText,
      status: r && r.ok ? r.status : null,
      error: error ?? (r && !r.ok ? `${r.code}: ${r.message}` : undefined),
      startedAt: r ? r.startedAt : Date.now(),
      endedAt: r ? r.endedAt : Date.now(),
      batch,
      executionId,
    };
    if (r && r.ok) {
      const rh: Record<string, string | string[]> = {};
      for (let i = 0; i < r.rawHeaders.length; i += 2) {
        const k = r.rawHeaders[i];
        const prev = rh[k];
        rh[k] = prev === undefined ? r.rawHeaders[i + 1] : ([] as string[]).concat(prev, r.rawHeaders[i + 1]);
      }
      entry.responseHeaders = rh;
      entry.responseText = Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength).toString('utf8');
    }
    backend.requests.push(entry);
  }

  return {
    fetch(url: unknown, params?: unknown): HTTPResponseImpl {
      if (url === undefined) fail('Invalid argument: url');
      host.stats.fetchCalls++;
      const p = prepare(url, params, 'UrlFetchApp.fetch');
      return execute([p], null, 'UrlFetchApp.fetch')[0];
    },

    fetchAll(requests: unknown): HTTPResponseImpl[] {
      if (!Array.isArray(requests)) fail('Invalid argument: requests');
      host.stats.fetchAllCalls++;
      const batch = host.stats.fetchAllCalls;
      host.stats.maxBatchSize = Math.max(host.stats.maxBatchSize, requests.length);
      const checked = new Map<string, boolean>();
      const prepared = requests.map((r) =>
        typeof r === 'string'
          ? prepare(r, {}, 'UrlFetchApp.fetchAll', checked)
          : prepare((r as Record<string, unknown>)?.url, r, 'UrlFetchApp.fetchAll', checked),
      );
      return realm.array(prepared.length ? execute(prepared, batch, 'UrlFetchApp.fetchAll') : []);
    },

    getRequest(url: unknown, params?: unknown): Record<string, unknown> {
      const p = prepare(url, params, 'UrlFetchApp.getRequest');
      return realm.toRealm({
        url: p.requestedUrl,
        method: p.wire.method.toLowerCase(),
        headers: p.wire.headers,
        payload: p.payloadText ?? '',
        contentType: headerLookup(p.wire.headers, 'content-type') ?? '',
        followRedirects: p.wire.followRedirects,
        muteHttpExceptions: p.muteHttpExceptions,
        validateHttpsCertificates: p.wire.validateHttpsCertificates,
        useIntranet: false,
      });
    },

    toString: () => 'UrlFetchApp',
  };
}

/** `scheme://host:port` of a URL already checked to parse (a pattern: cheaper than a second URL parse). */
const originKey = (url: string): string => /^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i.exec(url)?.[0].toLowerCase() ?? url;

function httpErrorMessage(requestedUrl: string, status: number, text: string): string {
  let origin = requestedUrl;
  try {
    const u = new URL(requestedUrl);
    origin = `${u.protocol}//${u.host}`;
  } catch {
    /* keep as is */
  }
  const truncated = text.length > 100 ? `${text.slice(0, 100)}...` : text;
  return `Request failed for ${origin} returned code ${status}. Truncated server response: ${truncated} (use muteHttpExceptions option to examine full response)`;
}

function connectionMessage(r: Extract<WireResult, { ok: false }>, url: string): string {
  switch (r.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DNS error: ${url}`;
    case 'ETIMEDOUT':
      return `Timeout: ${url}`;
    case 'EINVALIDURL':
      return `Invalid argument: ${url}`;
    default:
      if (/CERT|SSL|TLS/i.test(r.code) || /certificate/i.test(r.message)) return `SSL Error ${url}`;
      return `Address unavailable: ${url}`;
  }
}
