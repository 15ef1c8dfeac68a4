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
const RESERVED = new Set([
  'p',
  'reel',
  'reels',
  'tv',
  'explore',
  'stories',
  'accounts',
  'direct',
  'about',
  'legal',
  'developer',
  'web',
]);

/** Values arrive from Sheets as numbers, strings, booleans or Dates; from n8n as strings or numbers. */
const asText = (value: unknown): string | undefined =>
  typeof value === 'number' && Number.isFinite(value)
    ? String(value)
    : typeof value === 'string'
      ? value.trim()
      : undefined;

const decode = (p: string) => {
  try {
    return decodeURIComponent(p);
  } catch {
    return p; // a stray '%' is just a character that will fail the pattern check
  }
};

/**
 * The path segments of something that looks like one of the platform's URLs (with or without
 * scheme); null when it is not one. A regular expression, not `new URL`: Apps Script's V8 has no
 * WHATWG URL.
 */
const URL_PARTS = /^(?:https?:\/\/)?(?:[^@/?#\s]*@)?([a-z0-9.-]+)(?::\d+)?(\/[^?#]*)?(?:\?[^#]*)?(?:#.*)?$/i;
function urlSegments(text: string): string[] | null {
  const m = URL_PARTS.exec(text);
  if (!m || !HOSTS.test(m[1].toLowerCase())) return null;
  if (!/^https?:\/\//i.test(text) && !/^([a-z0-9-]+\.)*(instagram\.com|instagr\.am)(\/|$|\?|#)/i.test(text))
    return null;
  return (m[2] ?? '/').split('/').filter(Boolean).map(decode);
}

/** The value when one of the patterns accepts it, else undefined. */
const ifMatches = (value: string | undefined, ...patterns: RegExp[]): string | undefined =>
  value !== undefined && patterns.some((p) => p.test(value)) ? value : undefined;

/** instagram.com/explore/<section>/<value>: the value. */
const explored = (parts: string[], section: string): string | undefined =>
  parts[0] === 'explore' && parts[1] === section ? parts[2] : undefined;

type IdentifierKind = 'handle' | 'post' | 'tag' | 'location';

/**
 * What each parameter kind expects, as a phrase for "X must be <phrase>; got Y." (integers and
 * text: expectedFor, from the parameter's range or description).
 */
const EXPECTED: Record<Exclude<ParamDef['kind'], 'integer' | 'text'>, string> = {
  handle: 'a username, @username, numeric id or profile URL',
  post: 'a post URL, shortcode or media id',
  tag: 'a hashtag such as veganrecipes or #veganrecipes',
  location: 'a location id or location URL',
  cursor: 'the next_cursor value of the previous page',
};

/**
 * A resolver of one kind of identifier, typed as text or pasted as a URL: `fromUrl` reads the URL's
 * path segments, `fromText` anything else (trimmed); each returns the API's value, or undefined
 * when it is not one, and then the error names the argument and what it expects.
 */
const identifier =
  (
    kind: IdentifierKind,
    defaultArgument: string,
    fromUrl: (parts: string[]) => string | undefined,
    fromText: (text: string) => string | undefined,
  ) =>
  (value: unknown, argument = defaultArgument): string => {
    const text = asText(value);
    const parts = text === undefined ? null : urlSegments(text);
    const id = parts ? fromUrl(parts) : text === undefined ? undefined : fromText(text);
    if (id === undefined) throw new IgValidationError(argument, EXPECTED[kind], showValue(value));
    return id;
  };

const account = (name: string | undefined) => ifMatches(name?.toLowerCase(), NUMERIC_ID, USERNAME);
export const resolveHandle = identifier(
  'handle',
  'handle',
  // instagram.com/stories/<user>/..., instagram.com/_u/<user>, instagram.com/<user>/reels/
  ([first, second]) =>
    first === 'stories' || first === '_u'
      ? account(second)
      : first && !RESERVED.has(first.toLowerCase())
        ? account(first)
        : undefined,
  (text) => account(text.replace(/^@/, '').replace(/\/+$/, '')), // "nasa/" as pasted from a URL tail
);

const POST_PATHS = new Set(['p', 'reel', 'reels', 'tv']);
export const resolvePost = identifier(
  'post',
  'post',
  // /p/<sc>, /reel/<sc>, /reels/<sc>, /tv/<sc>, also /<user>/p/<sc>
  (parts) => {
    const at = parts.findIndex((p) => POST_PATHS.has(p.toLowerCase()));
    return at < 0 ? undefined : ifMatches(parts[at + 1], SHORTCODE);
  },
  (text) => ifMatches(text, NUMERIC_ID, SHORTCODE), // shortcodes are case-sensitive
);

const tagName = (name: string | undefined) => ifMatches(name?.replace(/^#/, '').toLowerCase(), TAG);
export const resolveTag = identifier('tag', 'tag', (parts) => tagName(explored(parts, 'tags')), tagName);

export const resolveLocation = identifier(
  'location',
  'id',
  (parts) => ifMatches(explored(parts, 'locations'), NUMERIC_ID),
  (text) => ifMatches(text, NUMERIC_ID),
);

const IDENTIFIERS: Record<IdentifierKind, (value: unknown, argument: string) => string> = {
  handle: resolveHandle,
  post: resolvePost,
  tag: resolveTag,
  location: resolveLocation,
};

function resolveInteger(def: ParamDef, value: unknown): number {
  let n: number = NaN;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*[+-]?\d+(\.0+)?\s*$/.test(value)) n = Number(value);
  if (!Number.isInteger(n) || (def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) {
    throw new IgValidationError(def.name, expectedFor(def), showValue(value));
  }
  return n;
}

const SEARCH_KEYWORD = 'a search keyword';

function resolveText(def: ParamDef, value: unknown): string {
  const expected = def.name === 'q' ? SEARCH_KEYWORD : 'text';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value.trim() : undefined;
  // Not text at all, or blank where text is required: the same error.
  if (text === undefined || (!text && def.required)) throw new IgValidationError(def.name, expected, showValue(value));
  if (text.length > 2000)
    throw new IgValidationError(def.name, 'at most 2,000 characters', `${text.length} characters`);
  return text;
}

/** Cursors are opaque: passed back byte for byte. Only their type is checked. */
function resolveCursor(def: ParamDef, value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new IgValidationError(def.name, EXPECTED.cursor, showValue(value));
  return value;
}

/** Is this value "not given"? Blank cells arrive as '' from Sheets, unset fields as undefined. */
export const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

export function resolveParam(def: ParamDef, value: unknown): string | number {
  switch (def.kind) {
    case 'integer':
      return resolveInteger(def, value);
    case 'text':
      return resolveText(def, value);
    case 'cursor':
      return resolveCursor(def, value);
    default:
      return IDENTIFIERS[def.kind](value, def.name);
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
    case 'integer':
      return def.min !== undefined && def.max !== undefined
        ? `a whole number from ${def.min} to ${def.max}`
        : 'a whole number';
    case 'text':
      return def.name === 'q' ? SEARCH_KEYWORD : `given (${describe(def)})`;
    default:
      return EXPECTED[def.kind];
  }
}
