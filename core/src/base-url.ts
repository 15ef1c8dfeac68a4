/**
 * Which base URLs may receive the API key: the one rule every product applies before any request
 * (core's buildRequest, the n8n credential, Zapier's beforeRequest, the Sheets settings).
 * `https://` anywhere; `http://` only to this machine (127.0.0.0/8, [::1], localhost), where the
 * sandbox runs: over plain http anywhere else the key crosses the network readable by anyone on
 * the way. A file of its own, importing nothing, so that the n8n credential can use it without
 * the registry.
 */

/** What a base URL must be, as the end of "Base URL must be …". */
export const BASE_URL_EXPECTED =
  'an https:// address (http:// only to this machine: localhost, 127.0.0.1, [::1]), ' +
  'since over http:// the API key would cross the network unencrypted';

/** Whether a URL's hostname (as `URL.hostname` gives it) is this machine: localhost, 127.0.0.0/8, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  // The URL parser writes every IPv4 spelling (2130706433, 0x7f.1, 127.1) as four decimal numbers.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The value as a message shows it: quoted, at most 60 characters. */
const shown = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

/**
 * Why the key may not go to `baseUrl`, as a whole sentence, or undefined when it may. Checked
 * before anything is sent.
 */
export function baseUrlRefusal(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return `Base URL must be ${BASE_URL_EXPECTED}; got ${shown(baseUrl)}, which is not a web address.`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `Base URL must be ${BASE_URL_EXPECTED}; got ${shown(baseUrl.trim())}.`;
}

/** The origin (scheme, host, port) requests to `baseUrl` go to, or undefined when it is no URL. */
export function originOfUrl(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
