/**
 * Where the local servers (the sandbox, the Sheets preview) listen and which names they answer to:
 * one variable of the project's own, IGDATA_LISTEN, read the same way by both. Not HOST: some dev
 * containers set HOST=0.0.0.0 for their own tools, and the sandbox's demo key (1,000,000 credits)
 * and its /_sandbox routes (no key) would then be on the LAN without anyone having asked.
 *
 *   unset                         127.0.0.1, answering to 127.0.0.1, localhost and ::1
 *   IGDATA_LISTEN=127.0.0.1,sandbox.test  the same address, and the name sandbox.test too
 *   IGDATA_LISTEN=0.0.0.0,sandbox every interface (a warning is printed), called by this machine's
 *                                 own addresses or by the name `sandbox` (a container network's)
 *
 * The first entry is the address (an IP address); the others are host names clients may use in
 * `Host` and `Origin` (scripts/lib/gate.ts refuses every other name).
 */
import { isIP } from 'node:net';

export const LISTEN_ENV = 'IGDATA_LISTEN';
const DEFAULT_ADDRESS = '127.0.0.1';

export interface Listen {
  /** The address to bind. */
  address: string;
  /** Host names requests may name besides the address, loopback and localhost (lower case). */
  names: string[];
}

// A DNS name (labels of letters, digits, '-' and '_', which compose's service names may hold) or an IP address.
const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const DNS_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})*$`);

/** A host name as compared: lower case, without brackets around IPv6 or a final dot; undefined if not a host. */
export function hostKey(host: string): string | undefined {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
  return isIP(h) || DNS_NAME.test(h) ? h : undefined;
}

/** IGDATA_LISTEN's value, read; a value that is not one throws, saying what is expected. */
export function listenOf(value: string | undefined): Listen {
  const items = (value ?? '').split(/[\s,]+/).filter(Boolean);
  if (!items.length) return { address: DEFAULT_ADDRESS, names: [] };
  const [first, ...rest] = items;
  const address = first.replace(/^\[(.*)\]$/, '$1');
  if (!isIP(address))
    throw new Error(
      `${LISTEN_ENV} starts with the address to listen on, an IP address such as 127.0.0.1 or 0.0.0.0; got "${first}". ` +
        `Names the servers may be called by follow it, e.g. ${LISTEN_ENV}=0.0.0.0,sandbox`,
    );
  const names = rest.map((n) => {
    const key = hostKey(n);
    if (!key) throw new Error(`${LISTEN_ENV}: "${n}" is not a host name (letters, digits, '.', '-', '_')`);
    return key;
  });
  return { address, names };
}

const isLoopback = (address: string) => /^127\./.test(address) || /^(::1|::ffff:127\..*)$/i.test(address);
export const isWildcard = (address: string) => address === '0.0.0.0' || address === '::';

/**
 * What to print when the servers listen beyond this machine (undefined when they do not): who can
 * then reach them and what they hold. `what` names the servers ("The sandbox").
 */
export function listenWarning(listen: Listen, what: string): string | undefined {
  if (isLoopback(listen.address)) return undefined;
  const where = isWildcard(listen.address) ? 'every network interface' : listen.address;
  return (
    `WARNING: ${LISTEN_ENV}=${[listen.address, ...listen.names].join(',')}: ${what} listens on ${where}, ` +
    `not only on this machine. Anyone who can reach it there can spend the demo key and use the /_sandbox ` +
    `routes, which need no key. Requests must name ${answersTo(listen)}.`
  );
}

/** The names a server listening so answers to, for messages. */
export function answersTo(listen: Listen): string {
  const names = ['127.0.0.1', 'localhost', '::1', ...listen.names];
  if (!isLoopback(listen.address)) names.push(isWildcard(listen.address) ? "this machine's addresses" : listen.address);
  return [...new Set(names)].join(', ');
}
