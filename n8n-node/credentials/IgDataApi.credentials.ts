import type {
  IAuthenticateGeneric,
  Icon,
  ICredentialTestRequest,
  ICredentialType,
  INodeProperties,
} from 'n8n-workflow';
import { DASHBOARD_URL, DEFAULT_BASE_URL } from '@igdata/core';

/**
 * The IG Data API key. One static secret (§5 of the spec), sent as `Authorization: Bearer <key>`
 * (the API also takes `x-api-key`; a choice would buy users nothing, and n8n's generic form cannot
 * make a header's name depend on a field). The base URL defaults to the production constant of the
 * core and can point at the sandbox. The test asks the free `credits` endpoint.
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
      description:
        `Your IG Data API key. Create one in your dashboard at <a href="${DASHBOARD_URL}" ` +
        `target="_blank">${DASHBOARD_URL.replace(/^https:\/\//, '')}</a> (signing up ` +
        `gives 50 free credits, no card needed); it is shown in full only once.`,
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: DEFAULT_BASE_URL,
      required: true,
      description:
        'Address of the API without /v1. Keep the default for production; point it at a local sandbox for testing. ' +
        'https:// only (http:// only to this machine, for a sandbox): the key goes to this address alone, ' +
        'never along a redirect.',
    },
  ];

  // n8n's documented form: n8n adds the header to every request of the nodes
  // (httpRequestWithAuthentication) and to the credential test.
  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
  };

  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
      url: '/v1/credits',
      method: 'GET',
      // A redirect fails the test: n8n would follow it with the key (issue 38).
      disableFollowRedirect: true,
      sendCredentialsOnCrossOriginRedirect: false,
    },
  };
}
