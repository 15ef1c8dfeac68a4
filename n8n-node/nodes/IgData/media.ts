/**
 * Media as n8n binary data: the pictures and videos an answer links to (`image_url`, `video_url`,
 * `profile_pic_url`, `cover_image_url`, and the same names nested, e.g. `author.profile_pic_url`),
 * downloaded into binary properties of the item, as n8n's own nodes hand over files
 * (`this.helpers.prepareBinaryData(buffer, fileName, mimeType)`).
 *
 * - Which fields link to media is the registry's: the response schemas mark them (core's
 *   mediaFieldPaths). Only those fields of the endpoint are downloaded: any other field named by
 *   an expression (an account's `external_url`, a link its owner chose) is refused before anything
 *   is sent, with the allowed ones named.
 * - Never to a private, loopback or link-local address (address.ts), checked on the link and on
 *   the address the connection reached, except on the Base URL's host (the sandbox); redirects
 *   are followed here, each hop checked again.
 * - One binary property per medium, named after its field without `_url`, dots as underscores:
 *   `image`, `video`, `profile_pic`, `cover_image`, `author_profile_pic`.
 * - Media links are CDN links, not API requests: free, never billed, and fetched with n8n's plain
 *   `httpRequest`, never with the credential: the API key is not sent to a media host.
 * - At most `concurrency` downloads in flight (the node's Concurrency option, as for lookups); one
 *   download per distinct link in an execution (items that share an answer share its media).
 * - A size limit: the body is read as a stream and dropped as soon as it passes the limit (or
 *   at once, when Content-Length says it will): a download holds at most the limit in memory, so
 *   the downloads in flight hold at most Concurrency x the limit (README.md, "Media as files").
 * - Links expire (signed CDN links): a 403 "URL signature expired" says to run the lookup again.
 */
import type { IBinaryData, IExecuteFunctions, INodePropertyOptions, IPollFunctions } from 'n8n-workflow';
import type { EndpointDef } from '@igdata/core';
import { mediaFieldPaths } from '@igdata/core';
import { hostOf, refusedAddress, refusedLink } from './address';

/** What users call a medium, by the last part of its field path (a new media field shows its own name). */
const MEDIA_NAMES: Record<string, string> = {
	image_url: 'Image',
	video_url: 'Video',
	profile_pic_url: 'Profile Picture',
	cover_image_url: 'Cover Image',
};

export const DEFAULT_MEDIA_MAX_MB = 25;
const MEDIA_TIMEOUT_MS = 60000;
/** Redirects followed for one medium (each hop checked like the link). */
const MAX_REDIRECTS = 5;
/** How much of an error answer's body is read for its message. */
const ERROR_BODY_BYTES = 512;

/** The fields of an endpoint's answers that link to media, as dotted paths (`author.profile_pic_url`). */
export function mediaPaths(endpoint: EndpointDef): string[] {
	return mediaFieldPaths(endpoint.schema);
}

/**
 * Download Media's value for an endpoint: the fields to download (its media fields only) and, when
 * the value names others (an expression can name any field, e.g. an account's `external_url`),
 * the sentence refusing them, naming the allowed ones.
 */
export function mediaSelection(value: unknown, endpoint: EndpointDef & { operation?: string; resource?: string }): { fields: string[]; refused?: string } {
	const allowed = mediaPaths(endpoint);
	const named = mediaFields(value);
	const fields = named.filter((f) => allowed.includes(f));
	const other = named.filter((f) => !allowed.includes(f));
	if (!other.length) return { fields };
	const which = other.map((f) => `"${f}"`).join(', ');
	const op = endpoint.operation && endpoint.resource ? `${endpoint.resource} › ${endpoint.operation} (${endpoint.id})` : endpoint.id;
	const choose = allowed.length ? `Its media fields: ${allowed.join(', ')}.` : 'Its answers have no media fields.';
	const plural = other.length > 1;
	return { fields, refused: `Download Media: ${which} ${plural ? 'are not media links' : 'is not a media link'} of ${op}, so ${plural ? 'they were' : 'it was'} not downloaded (only media links are). ${choose}` };
}

/** The binary property a medium goes to: its path without `_url`, dots as underscores. */
export const binaryName = (path: string): string => path.replace(/_url$/, '').replace(/\./g, '_');

/** The choices of the Download Media option for these endpoints: one per media field, with where it appears. */
export function mediaChoices(list: readonly (EndpointDef & { operation?: string; resource?: string })[]): INodePropertyOptions[] {
	const where = new Map<string, string[]>();
	for (const e of list) {
		for (const path of mediaPaths(e)) where.set(path, [...(where.get(path) ?? []), e.operation && e.resource ? `${e.resource} › ${e.operation}` : e.id]);
	}
	return [...where.entries()]
		.map(([path, ops]) => {
			const parts = path.split('.');
			const last = parts.pop() as string;
			const name = `${MEDIA_NAMES[last] ?? last}${parts.length ? ` of ${parts.join('.')}` : ''} (${path})`;
			return { name, value: path, description: `Into binary property "${binaryName(path)}". In: ${ops.join(', ')}.` };
		})
		.sort((a, b) => a.name.localeCompare(b.name));
}

export interface MediaOptions {
	/** Media field paths to download (the Download Media option, the endpoint's media fields only). */
	fields: string[];
	/** The sentence refusing the other fields the option named, said on each item. */
	refused?: string;
	/** Largest medium downloaded, in bytes. */
	maxBytes: number;
	/** Downloads in flight at once. */
	concurrency: number;
}

/** What downloading one item's media gave. */
export interface ItemMedia {
	/** One entry per medium downloaded, by binary property name. */
	binary: Record<string, IBinaryData>;
	/** Media left out on purpose (over the size limit), one sentence each. */
	skipped: string[];
	/** Media that could not be downloaded, in field order. */
	failures: MediaFailure[];
}

export interface MediaFailure {
	field: string;
	/** `media_link_expired`, `media_link_refused`, `media_not_found`, `media_download_failed`, `media_host_unreachable`, `media_address_refused`. */
	code: string;
	message: string;
	status?: number;
}

type Fetched = { ok: true; binary: IBinaryData } | { ok: false; tooLarge: number | undefined } | { ok: false; failure: Omit<MediaFailure, 'field'> };

type Ctx = IExecuteFunctions | IPollFunctions;

/** A counting semaphore, the same bound as the lookups' (engine.ts keeps its own for requests). */
function limiter(limit: number): <T>(fn: () => Promise<T>) => Promise<T> {
	let active = 0;
	const waiting: (() => void)[] = [];
	return async (fn) => {
		if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
		else active++;
		try {
			return await fn();
		} finally {
			const next = waiting.shift();
			if (next) next();
			else active--;
		}
	};
}

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(bytes < 10485760 ? 1 : 0)} MB`;

function valueAt(item: Record<string, unknown>, path: string): unknown {
	let v: unknown = item;
	for (const part of path.split('.')) {
		if (v === null || typeof v !== 'object') return undefined;
		v = (v as Record<string, unknown>)[part];
	}
	return v;
}

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif', 'video/mp4': 'mp4', 'video/quicktime': 'mov' };
const TYPES: Record<string, string> = Object.fromEntries(Object.entries(EXTENSIONS).map(([type, ext]) => [ext, type]));
TYPES.jpeg = 'image/jpeg';

/** The file name of a link: the last part of its path (query left out), or the medium's name with the type's extension. */
function fileNameOf(url: string, field: string, mimeType: string | undefined): string {
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

interface StreamBody extends AsyncIterable<Uint8Array | string> {
	destroy?: () => void;
}

/** The body as chunks: a stream as n8n gives it for `encoding: 'stream'`, or whole (text or bytes). */
function chunksOf(body: unknown): AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> {
	if (typeof body === 'string' || body instanceof Uint8Array) return [body];
	if (body && typeof (body as StreamBody)[Symbol.asyncIterator] === 'function') return body as StreamBody;
	return [];
}

/** The first bytes of an error answer, as text. */
async function errorText(body: unknown): Promise<string> {
	let text = '';
	for await (const chunk of chunksOf(body)) {
		text += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
		if (text.length >= ERROR_BODY_BYTES) break; // leaving the loop closes the stream
	}
	return text.slice(0, ERROR_BODY_BYTES).trim();
}

/** The sentence of a media host's refusal. */
function refusal(status: number, text: string): Omit<MediaFailure, 'field'> {
	const said = text ? `${status}: ${text.split('\n')[0].slice(0, 120)}` : String(status);
	if (status === 403 && /expired/i.test(text)) {
		return { code: 'media_link_expired', status, message: `The media link expired (${text.split('\n')[0].slice(0, 120)}): run the lookup again to get fresh links.` };
	}
	if (status === 401 || status === 403) return { code: 'media_link_refused', status, message: `The media host refused the link (${said}): run the lookup again to get fresh links.` };
	if (status === 404 || status === 410) return { code: 'media_not_found', status, message: `The medium is gone (${said}): it was deleted or its link is no longer served.` };
	return { code: 'media_download_failed', status, message: `The media host answered ${said}; try again later.` };
}

/** The address a response's connection reached (n8n's stream body is Node's IncomingMessage). */
const remoteAddressOf = (body: unknown): string | undefined => (body as { socket?: { remoteAddress?: string } } | undefined)?.socket?.remoteAddress ?? undefined;

const addressRefused = (why: string): Fetched => ({
	ok: false,
	failure: { code: 'media_address_refused', message: `The media link was not followed: ${why}. Media are downloaded from public addresses only (and from the Base URL's host, for the sandbox).` },
});

/**
 * One download: the bytes as n8n binary data, or why not. Redirects are followed here, not by
 * n8n, so that every hop is checked like the link itself.
 */
async function fetchMedium(ctx: Ctx, link: string, field: string, maxBytes: number, trustedHost: string): Promise<Fetched> {
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
			return { ok: false, failure: { code: 'media_host_unreachable', message: `Could not reach the media host: ${(e as Error).message}. Try again later.` } };
		}
		const reached = refusedAddress(url, trustedHost, remoteAddressOf(res.body));
		if (reached) {
			(res.body as StreamBody | undefined)?.destroy?.();
			return addressRefused(reached);
		}
		headers = {};
		for (const [k, v] of Object.entries(res.headers ?? {})) if (v !== undefined && v !== null) headers[k.toLowerCase()] = String(v);
		if (res.statusCode < 300 || res.statusCode >= 400 || !headers.location) break;
		(res.body as StreamBody | undefined)?.destroy?.();
		if (hop === MAX_REDIRECTS) return { ok: false, failure: { code: 'media_download_failed', status: res.statusCode, message: `The media host redirected more than ${MAX_REDIRECTS} times; try again later.` } };
		try {
			url = new URL(headers.location, url);
		} catch {
			return addressRefused(`it redirects to an invalid link`);
		}
	}
	const body = res.body as StreamBody | undefined;
	if (res.statusCode < 200 || res.statusCode >= 300) return { ok: false, failure: refusal(res.statusCode, await errorText(body)) };
	const declared = Number(headers['content-length']);
	if (Number.isFinite(declared) && declared > maxBytes) {
		body?.destroy?.();
		return { ok: false, tooLarge: declared };
	}
	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of chunksOf(body)) {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
			total += bytes.length;
			if (total > maxBytes) return { ok: false, tooLarge: undefined }; // leaving the loop closes the stream
			chunks.push(bytes);
		}
	} catch (e) {
		return { ok: false, failure: { code: 'media_download_failed', message: `The download broke off: ${(e as Error).message}. Try again later.` } };
	}
	const declaredType = (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
	const ext = (url.pathname.match(/\.([a-z0-9]{2,5})$/i)?.[1] ?? '').toLowerCase();
	const mimeType = declaredType && declaredType !== 'application/octet-stream' ? declaredType : (TYPES[ext] ?? (declaredType || undefined));
	const binary = await ctx.helpers.prepareBinaryData(Buffer.concat(chunks, total), fileNameOf(link, field, mimeType), mimeType);
	return { ok: true, binary };
}

/**
 * Downloads the chosen media of each item. Items are the answers as the API gave them (before
 * Simplify drops fields); an item without a given medium (a photo's `video_url` is null) simply
 * has no such property. Never throws for a failed download: each item gets its own outcome.
 * `baseUrl`: the credential's; its host is the one private host media may come from (the sandbox).
 */
export async function downloadMedia(ctx: Ctx, items: (Record<string, unknown> | undefined)[], options: (i: number) => MediaOptions | undefined, baseUrl: string): Promise<(ItemMedia | undefined)[]> {
	const first = items.map((_, i) => options(i)).find((o) => o !== undefined);
	if (!first) return items.map(() => undefined);
	const gate = limiter(Math.max(1, Math.floor(first.concurrency)));
	const trustedHost = hostOf(new URL(baseUrl));
	// One download per link and size limit: items that share an answer share its media.
	const started = new Map<string, Promise<Fetched>>();
	const fetchOnce = (url: string, field: string, maxBytes: number): Promise<Fetched> => {
		const key = `${maxBytes}|${url}`;
		let p = started.get(key);
		if (!p) {
			p = gate(async () => await fetchMedium(ctx, url, field, maxBytes, trustedHost));
			started.set(key, p);
		}
		return p;
	};
	return await Promise.all(
		items.map(async (item, i) => {
			const opts = options(i);
			if (!item || !opts || (!opts.fields.length && !opts.refused)) return undefined;
			const media: ItemMedia = { binary: {}, skipped: opts.refused ? [opts.refused] : [], failures: [] };
			const wanted = opts.fields.map((field) => ({ field, url: valueAt(item, field) })).filter((m): m is { field: string; url: string } => typeof m.url === 'string' && /^https?:\/\//i.test(m.url));
			const got = await Promise.all(wanted.map(async ({ field, url }) => ({ field, fetched: await fetchOnce(url, field, opts.maxBytes) })));
			for (const { field, fetched } of got) {
				if (fetched.ok) media.binary[binaryName(field)] = { ...fetched.binary };
				else if ('tooLarge' in fetched) media.skipped.push(tooLargeSentence(field, fetched.tooLarge, opts.maxBytes));
				else media.failures.push({ field, ...fetched.failure });
			}
			return media;
		}),
	);
}

function tooLargeSentence(field: string, size: number | undefined, maxBytes: number): string {
	const what = size === undefined ? `it is larger than the media size limit of ${mb(maxBytes)}` : `${mb(size)} is over the media size limit of ${mb(maxBytes)}`;
	return `${field} not downloaded: ${what} (Options > Media Size Limit (MB)).`;
}

/** A failure as the sentence an item or an error shows: what happened, then which field. Media are free either way. */
export const failureSentence = (f: MediaFailure): string => `${f.message.replace(/\.$/, '')} (${f.field}; media downloads are free).`;

/** The Download Media option's value as a list of fields (an expression may give one name or a comma-separated text). */
export function mediaFields(value: unknown): string[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
	return list.map((v) => String(v).trim()).filter(Boolean);
}

/** The size limit in bytes from the option's megabytes (absent or not a positive number: the default). */
export function maxBytesOf(megabytes: unknown): number {
	const n = Number(megabytes);
	return Math.floor((Number.isFinite(n) && n > 0 ? n : DEFAULT_MEDIA_MAX_MB) * 1048576);
}
