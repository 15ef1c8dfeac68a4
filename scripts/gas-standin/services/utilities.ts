/** Utilities: sleep, digests, HMAC, base64, UUID, formatDate (SimpleDateFormat subset), blobs. */
import crypto from 'node:crypto';
import type { Host } from '../internal/types';
import { Realm, bytesToBuffer, isByteArray } from '../internal/realm';
import { BlobImpl, isBlob } from './blob';

const DigestAlgorithm = Object.freeze({
  MD2: 'MD2',
  MD5: 'MD5',
  SHA_1: 'SHA_1',
  SHA_256: 'SHA_256',
  SHA_384: 'SHA_384',
  SHA_512: 'SHA_512',
});
const MacAlgorithm = Object.freeze({
  HMAC_MD5: 'HMAC_MD5',
  HMAC_SHA_1: 'HMAC_SHA_1',
  HMAC_SHA_256: 'HMAC_SHA_256',
  HMAC_SHA_384: 'HMAC_SHA_384',
  HMAC_SHA_512: 'HMAC_SHA_512',
});
export const Charset = Object.freeze({ US_ASCII: 'US_ASCII', UTF_8: 'UTF_8' });

const NODE_HASH: Record<string, string> = {
  MD5: 'md5',
  SHA_1: 'sha1',
  SHA_256: 'sha256',
  SHA_384: 'sha384',
  SHA_512: 'sha512',
  HMAC_MD5: 'md5',
  HMAC_SHA_1: 'sha1',
  HMAC_SHA_256: 'sha256',
  HMAC_SHA_384: 'sha384',
  HMAC_SHA_512: 'sha512',
};

function toBuffer(value: unknown, charset?: unknown): Buffer {
  if (isBlob(value)) return value.bufferCopy();
  if (isByteArray(value)) return bytesToBuffer(value);
  const s = String(value);
  return charset === Charset.US_ASCII
    ? Buffer.from(s.replace(/[\u0080-\uffff]/g, '?'), 'latin1')
    : Buffer.from(s, 'utf8');
}

export function createUtilities(host: Host, realm: Realm) {
  const fail = (m: string): never => {
    throw realm.exception(m);
  };

  return {
    DigestAlgorithm,
    MacAlgorithm,
    Charset,
    sleep(milliseconds: unknown): void {
      const ms = Number(milliseconds);
      if (!Number.isFinite(ms) || ms < 0) fail('Invalid argument: milliseconds');
      if (ms > host.limits.sleepMaxMs) fail('Invalid argument: milliseconds');
      host.sleep(ms, realm);
    },
    computeDigest(algorithm: unknown, value: unknown, charset?: unknown): number[] {
      const alg = NODE_HASH[String(algorithm)];
      if (!alg) fail(`Invalid argument: algorithm`);
      return realm.bytes(crypto.createHash(alg).update(toBuffer(value, charset)).digest());
    },
    computeHmacSignature(algorithm: unknown, value: unknown, key: unknown, charset?: unknown): number[] {
      const alg = NODE_HASH[String(algorithm)];
      if (!alg || !String(algorithm).startsWith('HMAC_')) fail('Invalid argument: algorithm');
      return realm.bytes(crypto.createHmac(alg, toBuffer(key, charset)).update(toBuffer(value, charset)).digest());
    },
    computeHmacSha256Signature(value: unknown, key: unknown, charset?: unknown): number[] {
      return realm.bytes(crypto.createHmac('sha256', toBuffer(key, charset)).update(toBuffer(value, charset)).digest());
    },
    base64Encode(data: unknown, charset?: unknown): string {
      return toBuffer(data, charset).toString('base64');
    },
    base64EncodeWebSafe(data: unknown, charset?: unknown): string {
      return toBuffer(data, charset).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
    },
    base64Decode(encoded: unknown): number[] {
      const s = String(encoded);
      if (!/^[A-Za-z0-9+/=\s]*$/.test(s)) fail('Could not decode string.');
      return realm.bytes(Buffer.from(s, 'base64'));
    },
    base64DecodeWebSafe(encoded: unknown): number[] {
      const s = String(encoded);
      if (!/^[A-Za-z0-9\-_=\s]*$/.test(s)) fail('Could not decode string.');
      return realm.bytes(Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
    },
    newBlob(data: unknown, contentType?: unknown, name?: unknown): BlobImpl {
      return new BlobImpl(
        realm,
        data === undefined ? Buffer.alloc(0) : toBuffer(data),
        contentType == null ? null : String(contentType),
        name == null ? null : String(name),
      );
    },
    getUuid(): string {
      return crypto.randomUUID();
    },
    formatDate(date: unknown, timeZone: unknown, format: unknown): string {
      if (Object.prototype.toString.call(date) !== '[object Date]') fail('Invalid argument: date');
      try {
        return formatDate(date as Date, String(timeZone), String(format));
      } catch (e) {
        if (e instanceof RangeError) fail('Invalid argument: timeZone');
        throw e;
      }
    },
    formatString(template: unknown, ...args: unknown[]): string {
      return formatString(String(template), args);
    },
    parseCsv(csv: unknown, delimiter?: unknown): string[][] {
      return realm.toRealm(parseCsv(String(csv), delimiter === undefined ? ',' : String(delimiter)));
    },
    toString: () => 'Utilities',
  };
}

// ---- formatDate: the SimpleDateFormat letters Apps Script code commonly uses ----

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

interface ZonedParts {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  weekday: number; // 0 = Sunday
  offsetMin: number;
  tzName: string;
}

export function zoned(d: Date, timeZone: string): ZonedParts {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    timeZoneName: 'short',
  });
  const p: Record<string, string> = {};
  for (const part of fmt.formatToParts(d)) p[part.type] = part.value;
  const year = Number(p.year);
  const month = Number(p.month);
  const day = Number(p.day);
  const hour = Number(p.hour) % 24;
  const minute = Number(p.minute);
  const second = Number(p.second);
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const offsetMin = Math.round((asUtc - (d.getTime() - d.getUTCMilliseconds())) / 60000);
  return {
    year,
    month,
    day,
    hour,
    minute,
    second,
    ms: d.getUTCMilliseconds(),
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    offsetMin,
    tzName: p.timeZoneName ?? timeZone,
  };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

function offsetText(min: number, colon: boolean, zForZero: boolean, short = false): string {
  if (zForZero && min === 0) return 'Z';
  const sign = min < 0 ? '-' : '+';
  const a = Math.abs(min);
  const hh = pad(Math.floor(a / 60), 2);
  const mm = pad(a % 60, 2);
  if (short) return `${sign}${hh}`;
  return colon ? `${sign}${hh}:${mm}` : `${sign}${hh}${mm}`;
}

export function formatDate(d: Date, timeZone: string, format: string): string {
  const z = zoned(d, timeZone);
  let out = '';
  for (let i = 0; i < format.length;) {
    const c = format[i];
    if (c === "'") {
      const end = format.indexOf("'", i + 1);
      if (end === i + 1) {
        out += "'";
        i += 2;
        continue;
      }
      out += format.slice(i + 1, end === -1 ? undefined : end);
      i = end === -1 ? format.length : end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) {
      out += c;
      i++;
      continue;
    }
    let n = 1;
    while (format[i + n] === c) n++;
    i += n;
    switch (c) {
      case 'y':
        out += n === 2 ? pad(z.year % 100, 2) : pad(z.year, n);
        break;
      case 'M':
        out += n >= 4 ? MONTHS[z.month - 1] : n === 3 ? MONTHS[z.month - 1].slice(0, 3) : pad(z.month, n);
        break;
      case 'd':
        out += pad(z.day, n);
        break;
      case 'H':
        out += pad(z.hour, n);
        break;
      case 'k':
        out += pad(z.hour === 0 ? 24 : z.hour, n);
        break;
      case 'h':
        out += pad(z.hour % 12 === 0 ? 12 : z.hour % 12, n);
        break;
      case 'K':
        out += pad(z.hour % 12, n);
        break;
      case 'm':
        out += pad(z.minute, n);
        break;
      case 's':
        out += pad(z.second, n);
        break;
      case 'S':
        out += pad(z.ms, 3).slice(0, Math.max(n, 3)).padEnd(n, '0');
        break;
      case 'E':
        out += n >= 4 ? DAYS[z.weekday] : DAYS[z.weekday].slice(0, 3);
        break;
      case 'u':
        out += String(z.weekday === 0 ? 7 : z.weekday);
        break;
      case 'a':
        out += z.hour < 12 ? 'AM' : 'PM';
        break;
      case 'Z':
        out += offsetText(z.offsetMin, false, false);
        break;
      case 'X':
        out += offsetText(z.offsetMin, n >= 3, true, n === 1);
        break;
      case 'z':
        out += z.tzName;
        break;
      default:
        throw new Error(`stand-in formatDate: unsupported pattern letter '${c}'`);
    }
  }
  return out;
}

function formatString(template: string, args: unknown[]): string {
  let i = 0;
  return template.replace(/%(-)?(0)?(\d+)?(?:\.(\d+))?([sdfix%])/g, (_m, left, zero, width, prec, conv) => {
    if (conv === '%') return '%';
    const a = args[i++];
    let s: string;
    switch (conv) {
      case 'd':
      case 'i':
        s = String(Math.trunc(Number(a)));
        break;
      case 'f':
        s = Number(a).toFixed(prec === undefined ? 6 : Number(prec));
        break;
      case 'x':
        s = Math.trunc(Number(a)).toString(16);
        break;
      default:
        s = String(a);
        if (prec !== undefined) s = s.slice(0, Number(prec));
    }
    const w = width === undefined ? 0 : Number(width);
    if (s.length < w) s = left ? s.padEnd(w) : s.padStart(w, zero && conv !== 's' ? '0' : ' ');
    return s;
  });
}

/** RFC 4180 rows (quoted fields may hold the delimiter, quotes and line breaks): Utilities.parseCsv, also read by tests. */
export function parseCsv(text: string, delim: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === delim) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
