import type {
	ICredentialDataDecryptedObject,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import { DASHBOARD_URL, DEFAULT_BASE_URL } from '@igdata/core';

/** Header names (any case) that carry the key. */
const KEY_HEADERS = new Set(['authorization', 'x-api-key']);

/**
 * The IG Data API key. One static secret (§5 of the spec), sent as `Authorization: Bearer <key>`
 * or `x-api-key: <key>`; the base URL defaults to the production constant of the core and can point
 * at the sandbox. The test asks the free `credits` endpoint.
 */
export class IgDataApi implements ICredentialType {
	name = 'igDataApi';

	displayName = 'IG Data API';

	icon: Icon = { light: 'file:igdata.svg', dark: 'file:igdata.dark.svg' };

	documentationUrl = 'https://github.com/igdata/igdata/tree/main/n8n-node#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: `Your IG Data API key. Create one in your dashboard at <a href="${DASHBOARD_URL}" target="_blank">${DASHBOARD_URL.replace(/^https:\/\//, '')}</a> (signing up gives 50 free credits, no card needed); it is shown in full only once.`,
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: DEFAULT_BASE_URL,
			required: true,
			description:
				'Address of the API without /v1. Keep the default for production; point it at a local sandbox for testing.',
		},
		{
			displayName: 'Authentication Header',
			name: 'authHeader',
			type: 'options',
			options: [
				{ name: 'Authorization: Bearer <Key>', value: 'bearer' },
				{ name: 'X-Api-Key: <Key>', value: 'x-api-key' },
			],
			default: 'bearer',
			description: 'How the key is sent; the API accepts both forms',
		},
	];

	// n8n adds the key to every request of the nodes (httpRequestWithAuthentication) and of the
	// credential test: exactly one header, in the chosen form (any other key header dropped), so a
	// request never carries an empty or second one. A function rather than n8n's generic form, whose
	// header name and value are expressions n8n evaluates for every request: about 0.3 ms a request
	// on the 2-core machine, all paid before the first request of a batch leaves (measured with
	// 120 requests at Concurrency 200, n8n 2.8.4: ~40 ms of the execution).
	authenticate = async (credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> => {
		const key = String(credentials.apiKey ?? '');
		const headers = Object.fromEntries(Object.entries(requestOptions.headers ?? {}).filter(([name]) => !KEY_HEADERS.has(name.toLowerCase())));
		if (credentials.authHeader === 'x-api-key') headers['x-api-key'] = key;
		else headers.Authorization = `Bearer ${key}`;
		return { ...requestOptions, headers };
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: '/v1/credits',
			method: 'GET',
		},
	};
}
