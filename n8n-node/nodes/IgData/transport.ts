/**
 * The core's AsyncIO over n8n's own HTTP helper: the core sees status, headers and body of every
 * answer (errors included) and decides itself what is an error, what to retry and how long to
 * wait; waiting uses `sleep` from n8n-workflow.
 */
import type { IExecuteFunctions, IHttpRequestOptions, IPollFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import type { AsyncIO, RawResponse } from '../../../core/src/effects';
import type { AuthStyle, ClientConfig, HttpRequest } from '../../../core/src/request';

export const CREDENTIAL = 'igDataApi';

/** Where users set the key, for the core's error sentences. */
export const KEY_WHERE = 'the IG Data API credential of this node';

const REQUEST_TIMEOUT_MS = 60000;

type Ctx = IExecuteFunctions | IPollFunctions;

function bodyText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (body === undefined || body === null) return '';
	if (body instanceof Uint8Array) return new TextDecoder().decode(body);
	return JSON.stringify(body);
}

export function n8nIO(ctx: Ctx): AsyncIO {
	return {
		async fetch(request: HttpRequest): Promise<RawResponse> {
			const options: IHttpRequestOptions = {
				method: request.method,
				url: request.url,
				headers: request.headers,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				json: false,
				encoding: 'text',
				timeout: REQUEST_TIMEOUT_MS,
			};
			const res = (await ctx.helpers.httpRequest(options)) as { statusCode: number; headers?: Record<string, unknown>; body: unknown };
			const headers: Record<string, string> = {};
			for (const [k, v] of Object.entries(res.headers ?? {})) {
				if (v !== undefined && v !== null) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
			}
			return { status: res.statusCode, headers, body: bodyText(res.body) };
		},
		sleep: async (ms: number) => await sleep(ms),
	};
}

export async function clientConfig(ctx: Ctx): Promise<ClientConfig> {
	const credentials = await ctx.getCredentials(CREDENTIAL);
	const authStyle: AuthStyle = credentials.authHeader === 'x-api-key' ? 'x-api-key' : 'bearer';
	return {
		apiKey: String(credentials.apiKey ?? ''),
		baseUrl: typeof credentials.baseUrl === 'string' ? credentials.baseUrl : undefined,
		authStyle,
	};
}
