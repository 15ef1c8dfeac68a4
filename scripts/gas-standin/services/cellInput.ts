/**
 * What Sheets makes of a value a script writes with `setValue`, `setValues` or `appendRow`: Apps
 * Script enters strings as if a user typed them (the Sheets API's USER_ENTERED), so a string may
 * become a formula, a number, a boolean or a date; numbers, booleans and Date objects stay what they
 * are. The rules below are those of the en_US locale (the stand-in's `getSpreadsheetLocale`);
 * README.md, "Values written by scripts", says which are Google's documented behaviour and which
 * are our model of it.
 */
import { isDate } from '../internal/realm';
import { zoned } from './utilities';

/** The number format that makes a cell plain text: Sheets stores what is entered, unparsed. */
export const PLAIN_TEXT = '@';

/** A cell as entered: its value and, for a formula, its text (whose value nothing here computes). */
export interface Entered {
  value: string | number | boolean | Date;
  formula?: string;
}

// 1,234.5  0012345  +15551234567  -3  .5  1e3  12%  $5 (en_US: comma groups, dot decimals).
const NUMBER = /^([+-]?)\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:e([+-]?\d+))?(%?)$/i;
// 2026-01-05, 2026/1/5, 1/5/2026 (month first in en_US), each with an optional 10:30 or 10:30:15.
const YMD = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const MDY = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** The instant of a wall-clock time in `timeZone` (what Sheets stores for a typed date). */
function wallClock(timeZone: string, y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Date | null {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(asUtc);
  if (check.getUTCDate() !== d) return null; // 2026-02-30 is text
  return new Date(asUtc - zoned(check, timeZone).offsetMin * 60000);
}

function parseDate(s: string, timeZone: string): Date | null {
  let m = YMD.exec(s);
  if (m) return wallClock(timeZone, +m[1], +m[2], +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  m = MDY.exec(s);
  if (m) return wallClock(timeZone, +m[3], +m[1], +m[2], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  m = TIME.exec(s);
  // A time alone is a time on Sheets' day zero, 30 Dec 1899.
  if (m) return wallClock(timeZone, 1899, 12, 30, +m[1], +m[2], +(m[3] ?? 0));
  return null;
}

/** What a cell holds after `v` is written into it by a script, given its number format. */
export function enterValue(v: unknown, numberFormat: string, timeZone: string): Entered {
  if (v === undefined || v === null) return { value: '' };
  if (typeof v === 'number' || typeof v === 'boolean') return { value: v };
  if (isDate(v)) return { value: new Date((v as Date).getTime()) };
  const s = String(v);
  if (numberFormat === PLAIN_TEXT || s === '') return { value: s };
  // The quote prefix: the rest is text, whatever it looks like (the apostrophe is not part of the value).
  if (s[0] === "'") return { value: s.slice(1) };
  if (s[0] === '=' && s.length > 1) return { value: '', formula: s };
  const t = s.trim();
  if (/^(true|false)$/i.test(t)) return { value: t.toLowerCase() === 'true' };
  const n = NUMBER.exec(t);
  if (n) {
    const x = Number(`${n[1]}${n[2].replace(/,/g, '')}${n[3] === undefined ? '' : `e${n[3]}`}`);
    if (Number.isFinite(x)) return { value: n[4] ? x / 100 : x };
  }
  const d = parseDate(t, timeZone);
  return { value: d ?? s };
}
