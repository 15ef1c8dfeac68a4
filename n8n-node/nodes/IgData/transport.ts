/**
 * The core's AsyncIO over n8n's own HTTP helper: the core sees status, headers and body of every
 * answer (errors included) and decides itself what is an error, what to retry and how long to
 * wait; waiting uses `sleep` from n8n-workflow.
 *
 * The API key is the credential's business: requests go out through
 * `httpRequestWithAuthentication`, where n8n adds the one auth header the credential's
 * `authenticate` describes. This file never reads the key: the core builds requests with a
 * stand-in key (it requires one), whose header is dropped here before n8n adds the real one.
 */
import type { IExecuteFunctions, IHttpRequestOptions, IPollFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { AsyncIO, ClientConfig, HttpRequest, RawResponse } from '@igdata/core';

export const CREDENTIAL = 'igDataApi';

/** Where users set the key, for the core's error sentences. */
export const KEY_WHERE = 'the IG Data API credential of this node';

const REQUEST_TIMEOUT_MS = 60000;

/** What the core is given where it wants a key: never sent (see withoutAuth), not a secret. */
const CORE_STAND_IN = 'set-by-the-n8n-credential';

/** Header names (any case) that carry the key: n8n's credential sets the one that is sent. */
const AUTH_HEADERS = new Set(['authorization', 'x-api-key']);

type Ctx = IExecuteFunctions | IPollFunctions;

function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (body === undefined || body === null) return '';
	if (body instanceof Uint8Array) return new TextDecoder().decode(body);
	return JSON.stringify(body);
}

function withoutAuth(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !AUTH_HEADERS.has(name.toLowerCase())));
}

export function n8nIO(ctx: Ctx): AsyncIO {
	return {
		async fetch(request: HttpRequest): Promise<RawResponse> {
			const options: IHttpRequestOptions = {
				method: request.method,
				url: request.url,
				headers: withoutAuth(request.headers),
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				json: false,
				encoding: 'text',
				timeout: REQUEST_TIMEOUT_MS,
			};
			const res = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL, options)) as {
				statusCode: number;
				headers?: Record<string, unknown>;
				body: unknown;
			};
			const headers: Record<string, string> = {};
			for (const [k, v] of Object.entries(res.headers ?? {})) {
				if (v !== undefined && v !== null) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
			}
			return { status: res.statusCode, headers, body: bodyText(res.body) };
		},
		sleep: async (ms: number) => await sleep(ms),
	};
}

/** The core's client config: the credential's base URL; the key stays with n8n. */
export async function clientConfig(ctx: Ctx): Promise<ClientConfig> {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	return {
		apiKey: CORE_STAND_IN,
		baseUrl: typeof credentials.baseUrl === 'string' ? credentials.baseUrl : undefined,
	};
}
