/**
 * The connection: an API key (and, for the sandbox or a self-hosted gateway, a base URL), tested
 * with the free `GET /v1/credits`; its label says which key (its last 4 characters) and its
 * balance. The key goes out in one header, added to every request by `addKey` (beforeRequest): no
 * other code reads it, and Zapier's log scrubber hides it since it is a `password` field.
 */
import type { Bundle, HttpRequestOptions, ZObject } from 'zapier-platform-core';
import {
  DASHBOARD_URL,
  DEFAULT_BASE_URL,
  baseUrlOf,
  baseUrlRefusal,
  counted,
  originOfUrl,
  prepare,
} from '@igdata/core';
import { clientConfig, lookUp } from './client';

const KEY_HEADER = 'x-api-key';

/**
 * The header of the spec's §5, on the requests to the connection's base URL (core's rule: https, or
 * http only to this machine; its origin only), never followed to a redirect. Core refuses such a
 * base URL before it builds a request; this is the last word where the key is put on.
 */
export function addKey(request: HttpRequestOptions, _z: ZObject, bundle: Bundle): HttpRequestOptions {
  const key = typeof bundle.authData?.apiKey === 'string' ? bundle.authData.apiKey.trim() : '';
  if (!key) return request;
  const base = baseUrlOf(clientConfig(bundle));
  const refused = baseUrlRefusal(base);
  if (refused) throw new Error(refused);
  if (originOfUrl(String(request.url ?? '')) !== originOfUrl(base)) return request;
  request.headers = { ...(request.headers ?? {}), [KEY_HEADER]: key };
  request.redirect = 'manual';
  return request;
}

/** The connection test: the balance, free; a wrong key is the core's sentence as an expired connection. */
async function test(z: ZObject, bundle: Bundle) {
  const answer = await lookUp(z, bundle, prepare('credits', {}));
  const key = String(bundle.authData?.apiKey ?? '').trim();
  return { ...answer.data, key_ending: key.slice(-4) };
}

export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: 'apiKey',
      label: 'API Key',
      type: 'password' as const,
      required: true,
      helpText: `Your IG Data API key, from your dashboard at ${DASHBOARD_URL}. Checking it is free (no credits).`,
    },
    {
      key: 'baseUrl',
      label: 'Base URL',
      type: 'string' as const,
      required: false,
      helpText:
        `Leave empty for ${DEFAULT_BASE_URL}. To try the integration without a key or credits, ` +
        'the address of a sandbox (`npm start` prints it). https:// only (http:// only to this machine, ' +
        'for a sandbox): the key goes to this address alone, never along a redirect.',
    },
  ],
  test,
  // "Key …1234, 4,210 credits": which key, and what is left on it when connected.
  connectionLabel: (_z: ZObject, bundle: Bundle) => {
    const data = (bundle.inputData ?? {}) as Record<string, unknown>;
    const balance = Number(data.credits_remaining);
    const credits = Number.isFinite(balance) ? `, ${counted(balance, 'credit')}` : '';
    return `Key …${String(data.key_ending ?? '')}${credits}`;
  },
};
