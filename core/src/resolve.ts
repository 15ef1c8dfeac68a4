/**
 * Input resolution: turns what users type (a cell, an n8n field, an agent's guess) into the value
 * the API expects, or fails with an IgValidationError naming the argument, before any request.
 */
import { IgValidationError, showValue } from './errors';
import type { ParamDef } from './registry/types';

const HOSTS = /^(?:[a-z0-9-]+\.)?(?:instagram\.com|instagr\.am)$/;
const USERNAME = /^(?!\.)[a-z0-9._]{1,30}$/;
const NUMERIC_ID = /^[0-9]{1,25}$/;
const SHORTCODE = /^[A-Za-z0-9_-]{5,64}$/;
const TAG = /^[\p{L}\p{N}_]{1,150}$/u;
/** First path segments of instagram.com URLs that are not usernames. */
const RESERVED = new Set(['p', 'reel', 'reels', 'tv', 'explore', 'stories', 'accounts', 'direct', 'about', 'legal', 'developer', 'web']);

/** Values arrive from Sheets as numbers, strings, booleans or Dates; from n8n as strings or numbers. */
function asText(argument: string, value: unknown, expected: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw new IgValidationError(argument, expected, showValue(value));
  return value.trim();
}

interface ParsedUrl {
  hostname: string;
  pathname: string;
}

/**
 * Parse something that looks like one of the platform's URLs (with or without scheme); null when
 * it is not one. A regular expression, not `new URL`: Apps Script's V8 has no WHATWG URL.
 */
const URL_PARTS = /^(?:https?:\/\/)?(?:[^@/?#\s]*@)?([a-z0-9.-]+)(?::\d+)?(\/[^?#]*)?(?:\?[^#]*)?(?:#.*)?$/i;
function parseUrl(text: string): ParsedUrl | null {
  const m = URL_PARTS.exec(text);
  if (!m || !HOSTS.test(m[1].toLowerCase())) return null;
  if (!/^https?:\/\//i.test(text) && !/^([a-z0-9-]+\.)*(instagram\.com|instagr\.am)(\/|$|\?|#)/i.test(text)) return null;
  return { hostname: m[1].toLowerCase(), pathname: m[2] ?? '/' };
}

const decode = (p: string) => {
  try {
    return decodeURIComponent(p);
  } catch {
    return p; // a stray '%' is just a character that will fail the pattern check
  }
};
const segments = (url: ParsedUrl) => url.pathname.split('/').filter(Boolean).map(decode);

const HANDLE_EXPECTED = 'a username, @username, numeric id or profile URL';
export function resolveHandle(value: unknown, argument = 'handle'): string {
  const text = asText(argument, value, HANDLE_EXPECTED);
  const fail = () => new IgValidationError(argument, HANDLE_EXPECTED, showValue(value));
  if (!text) throw fail();
  const url = parseUrl(text);
  let candidate: string;
  if (url) {
    const parts = segments(url);
    // instagram.com/stories/<user>/..., instagram.com/_u/<user>, instagram.com/<user>/reels/
    if (parts[0] === 'stories' || parts[0] === '_u') candidate = parts[1] ?? '';
    else if (parts.length && !RESERVED.has(parts[0].toLowerCase())) candidate = parts[0];
    else throw fail();
  } else {
    candidate = text.replace(/^@/, '').replace(/\/+$/, ''); // "nasa/" as pasted from a URL tail
    if (/[/\s]/.test(candidate)) throw fail();
  }
  candidate = candidate.toLowerCase();
  if (NUMERIC_ID.test(candidate) || USERNAME.test(candidate)) return candidate;
  throw fail();
}

const POST_EXPECTED = 'a post URL, shortcode or media id';
export function resolvePost(value: unknown, argument = 'post'): string {
  const text = asText(argument, value, POST_EXPECTED);
  const fail = () => new IgValidationError(argument, POST_EXPECTED, showValue(value));
  if (!text) throw fail();
  const url = parseUrl(text);
  if (url) {
    const parts = segments(url);
    // /p/<sc>, /reel/<sc>, /reels/<sc>, /tv/<sc>, also /<user>/p/<sc>
    const at = parts.findIndex((p) => ['p', 'reel', 'reels', 'tv'].includes(p.toLowerCase()));
    const sc = at >= 0 ? parts[at + 1] : undefined;
    if (sc && SHORTCODE.test(sc)) return sc;
    throw fail();
  }
  if (NUMERIC_ID.test(text) || SHORTCODE.test(text)) return text; // shortcodes are case-sensitive
  throw fail();
}

const TAG_EXPECTED = 'a hashtag such as veganrecipes or #veganrecipes';
export function resolveTag(value: unknown, argument = 'tag'): string {
  const text = asText(argument, value, TAG_EXPECTED);
  const fail = () => new IgValidationError(argument, TAG_EXPECTED, showValue(value));
  const url = parseUrl(text);
  let candidate = text;
  if (url) {
    const parts = segments(url);
    if (parts[0] !== 'explore' || parts[1] !== 'tags' || !parts[2]) throw fail();
    candidate = parts[2];
  }
  candidate = candidate.replace(/^#/, '').toLowerCase();
  if (TAG.test(candidate)) return candidate;
  throw fail();
}

const LOCATION_EXPECTED = 'a location id or location URL';
export function resolveLocation(value: unknown, argument = 'id'): string {
  const text = asText(argument, value, LOCATION_EXPECTED);
  const fail = () => new IgValidationError(argument, LOCATION_EXPECTED, showValue(value));
  const url = parseUrl(text);
  if (url) {
    const parts = segments(url);
    if (parts[0] === 'explore' && parts[1] === 'locations' && parts[2] && NUMERIC_ID.test(parts[2])) return parts[2];
    throw fail();
  }
  if (NUMERIC_ID.test(text)) return text;
  throw fail();
}

function resolveInteger(def: ParamDef, value: unknown): number {
  const range = def.min !== undefined && def.max !== undefined ? ` from ${def.min} to ${def.max}` : '';
  const expected = `a whole number${range}`;
  let n: number = NaN;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*[+-]?\d+(\.0+)?\s*$/.test(value)) n = Number(value);
  if (!Number.isInteger(n) || (def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) {
    throw new IgValidationError(def.name, expected, showValue(value));
  }
  return n;
}

function resolveText(def: ParamDef, value: unknown): string {
  const expected = def.name === 'q' ? 'a search keyword' : 'text';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') throw new IgValidationError(def.name, expected, showValue(value));
  const text = value.trim();
  if (!text && def.required) throw new IgValidationError(def.name, expected, showValue(value));
  if (text.length > 2000) throw new IgValidationError(def.name, 'at most 2,000 characters', `${text.length} characters`);
  return text;
}

/** Cursors are opaque: passed back byte for byte. Only their type is checked. */
function resolveCursor(def: ParamDef, value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new IgValidationError(def.name, 'the next_cursor value of the previous page', showValue(value));
  return value;
}

/** Is this value "not given"? Blank cells arrive as '' from Sheets, unset fields as undefined. */
export const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

export function resolveParam(def: ParamDef, value: unknown): string | number {
  switch (def.kind) {
    case 'handle':
      return resolveHandle(value, def.name);
    case 'post':
      return resolvePost(value, def.name);
    case 'tag':
      return resolveTag(value, def.name);
    case 'location':
      return resolveLocation(value, def.name);
    case 'integer':
      return resolveInteger(def, value);
    case 'text':
      return resolveText(def, value);
    case 'cursor':
      return resolveCursor(def, value);
  }
}

/** A text parameter's description (the registry's, a runtime fact) as a phrase: "plain-language description of ...". */
const describe = (def: ParamDef): string => {
  const d = def.description ?? def.name;
  return `${d.charAt(0).toLowerCase()}${d.slice(1)}`;
};

/** What a parameter expects, as a phrase for "X must be <phrase>; got Y." */
export function expectedFor(def: ParamDef): string {
  switch (def.kind) {
    case 'handle':
      return HANDLE_EXPECTED;
    case 'post':
      return POST_EXPECTED;
    case 'tag':
      return TAG_EXPECTED;
    case 'location':
      return LOCATION_EXPECTED;
    case 'integer':
      return def.min !== undefined && def.max !== undefined ? `a whole number from ${def.min} to ${def.max}` : 'a whole number';
    case 'text':
      return def.name === 'q' ? 'a search keyword' : `given (${describe(def)})`;
    case 'cursor':
      return 'the next_cursor value of the previous page';
  }
}
