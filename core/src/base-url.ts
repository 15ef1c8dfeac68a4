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

/**
 * A base URL as the rule reads it: scheme, host (a name, IPv4, or IPv6 in brackets), port, path; no
 * user part, query, fragment, backslash or space. Read with a pattern, not `URL`: core runs in Apps
 * Script too, which has no `URL`. Anything the pattern does not read is refused: where a parser
 * might see another host than the pattern would (`http://a.example\@127.0.0.1`), nothing is sent.
 */
const BASE_URL = /^(https?):\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?(?:\/[^\s?#\\@]*)?$/i;

/** Whether a host as written in a URL is this machine: localhost, 127.0.0.0/8, [::1]. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The value as a message shows it: quoted, at most 60 characters. */
const shown = (text: string): string => JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);

/**
 * Why the key may not go to `baseUrl`, as a whole sentence, or undefined when it may. Checked
 * before anything is sent.
 */
export function baseUrlRefusal(baseUrl: string): string | undefined {
  const text = baseUrl.trim();
  const m = BASE_URL.exec(text);
  if (!m) return `Base URL must be ${BASE_URL_EXPECTED}, written like https://api.example.com; got ${shown(text)}.`;
  if (m[1].toLowerCase() === 'https' || isLoopbackHost(m[2])) return undefined;
  return `Base URL must be ${BASE_URL_EXPECTED}; got ${shown(text)}.`;
}

/**
 * The origin of an absolute URL (`scheme://host[:port]`, lower case, the scheme's default port left
 * out), or undefined when it is none (a relative link). For comparing and naming, not fetching.
 */
export function originOfUrl(url: string): string | undefined {
  const m = /^([a-z][a-z0-9+.-]*):\/\/(?:[^/?#\\@]*@)?([^/?#\\:@]+|\[[^\]/?#\\]*\])(?::(\d*))?(?=[/?#\\]|$)/i.exec(
    url.trim(),
  );
  if (!m) return undefined;
  const scheme = m[1].toLowerCase();
  const port = m[3] && m[3] !== { http: '80', https: '443' }[scheme] ? `:${m[3]}` : '';
  return `${scheme}://${m[2].toLowerCase()}${port}`;
}

/**
 * The service's `error.docs` link (relative to its origin: `/docs/errors#not_found`) as an address a user can open:
 * on the base URL's own origin, so a link in an answer can only ever name a page of the API's own host. Undefined
 * for anything else (an absolute URL, `//host`, a query, a character a path of the reference does not hold).
 */
export function docsUrl(baseUrl: string, link: unknown): string | undefined {
  if (typeof link !== 'string' || !/^\/(?!\/)[A-Za-z0-9._~/-]*(#[A-Za-z0-9_-]+)?$/.test(link)) return undefined;
  const origin = originOfUrl(baseUrl);
  return origin && origin + link;
}
