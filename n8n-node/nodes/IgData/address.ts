/**
 * Which hosts a media download may reach. A media link comes from an answer, so it is a
 * stranger's text: it must not make the n8n host fetch its own network (an intranet page, a cloud
 * metadata address, this machine's own name). Community nodes cannot import Node's `dns` or `net`
 * (n8n's rules for verified packages), so the node cannot learn where a name resolves before it
 * connects: it decides on the link alone, before anything is sent, at every redirect hop. Allowed:
 * the hosts the API's media links name (its CDN, over https) and the credential's Base URL's exact
 * origin (scheme, host and port: the sandbox serves its media there). Anything else is refused
 * unless an admin turns on Options > Media From Any Host, which still refuses written private
 * addresses and `localhost`, and leaves names to n8n's own SSRF protection (README.md).
 */
/** The four numbers of a dotted IPv4 address, or undefined. */
function ipv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number);
}

function privateV4([a, b]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 || // loopback
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata (169.254.169.254)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) || // IETF protocol assignments
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail allowed), or undefined. */
function ipv6(text: string): number[] | undefined {
  let t = text.toLowerCase().replace(/%.*$/, '');
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (tail) {
    const v4 = ipv4(tail[1]);
    if (!v4) return undefined;
    t = `${t.slice(0, -tail[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s ? s.split(':') : []);
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? head.length !== 8 : fill < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => parseInt(g, 16));
}

function privateV6(g: number[]): boolean {
  const v4Tail = [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255];
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) {
    // ::ffff:a.b.c.d (IPv4-mapped), ::a.b.c.d (compatible), :: and ::1
    return g[5] === 0 && g[6] === 0 ? true : privateV4(v4Tail);
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return privateV4(v4Tail); // NAT64
  return (
    (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xffc0) === 0xfe80 || // link-local
    (g[0] & 0xff00) === 0xff00 // multicast
  );
}

/** Whether an IP address (v4 or v6, brackets allowed) is not a public one; undefined when `text` is no IP address. */
export function isPrivateAddress(text: string): boolean | undefined {
  const bare = text.replace(/^\[|\]$/g, '');
  const v4 = ipv4(bare);
  if (v4) return privateV4(v4);
  const v6 = bare.includes(':') ? ipv6(bare) : undefined;
  return v6 ? privateV6(v6) : undefined;
}

/** A URL's host as compared here: lower case, no brackets, no trailing dot. */
export const hostOf = (url: URL): string =>
  url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');

/** The hosts of the API's media links: Instagram's CDN, whose signed links answers carry. */
export const MEDIA_HOSTS = ['cdninstagram.com', 'fbcdn.net'];

/** Where media may come from in one run. */
export interface MediaBorder {
  /** The credential's Base URL's origin (`URL.origin`): the sandbox serves its media there. */
  baseOrigin: string;
  /** Options > Media From Any Host: any host but written private addresses and `localhost`. */
  anyHost: boolean;
}

const isMediaHost = (url: URL): boolean => {
  const host = hostOf(url);
  return url.protocol === 'https:' && url.port === '' && MEDIA_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
};

/** A link's host and port as a message shows them. */
const hostPortOf = (url: URL): string => (url.port ? `${url.hostname}:${url.port}` : url.hostname);

/** Why a link may not be fetched, decided before anything is sent to it; undefined when it may. */
export function refusedLink(url: URL, border: MediaBorder): string | undefined {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `it is not a web link (${url.protocol.replace(/:$/, '')})`;
  if (url.origin === border.baseOrigin || isMediaHost(url)) return undefined;
  const host = hostOf(url);
  if (!border.anyHost) {
    const hosts = MEDIA_HOSTS.map((h) => `https://*.${h}`).join(', ');
    return (
      `${hostPortOf(url)} is neither a host of the API's media (${hosts}) ` +
      `nor the Base URL's address (${border.baseOrigin}); Options > Media From Any Host allows other hosts`
    );
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return `it points at this machine (${host})`;
  if (isPrivateAddress(host)) return `it points at a private address (${host})`;
  return undefined;
}

/**
 * Why the address a connection reached is refused, or undefined: a second look, after connecting,
 * where n8n exposes the connection (2.8.4 does; 2.41.1 hands over a stream without its socket, and
 * `remoteAddress` is then unknown). The Base URL's origin is exempt (the sandbox is private).
 */
export function refusedAddress(url: URL, border: MediaBorder, remoteAddress: string | undefined): string | undefined {
  if (url.origin === border.baseOrigin || remoteAddress === undefined) return undefined;
  if (isPrivateAddress(remoteAddress) !== false)
    return `${hostOf(url)} resolved to a private address (${remoteAddress.replace(/^::ffff:/, '')})`;
  return undefined;
}
