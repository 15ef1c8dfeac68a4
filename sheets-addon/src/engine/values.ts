/** Reading Sheets argument values and turning API values into cells. */
import type { EndpointDef, FlatRow } from '@igdata/core';
import {
  IgValidationError,
  closest,
  fieldPaths,
  flatten,
  isBlank,
  pick,
  plainField,
  plural,
  showValue,
} from '@igdata/core';

export type SheetValue = string | number | boolean | Date | null;

/** A range argument arrives as a 2D array; a single cell as a value; a missing one as undefined. */
export const isRange = (v: unknown): v is unknown[][] => Array.isArray(v);

/** One value from an argument that must be a single cell (a 1x1 range is accepted). */
export function single(name: string, v: unknown): unknown {
  if (!isRange(v)) return v;
  const cells = v.flat();
  if (cells.length === 1) return cells[0];
  throw new IgValidationError(name, 'a single value, not a range', `a range of ${cells.length} cells`);
}

/** The cells of a target range, in order: one column, one row, or a single cell. */
export function targetCells(name: string, v: unknown): unknown[] {
  if (!isRange(v)) return [v];
  const rows = v.length;
  const cols = rows ? Math.max(...v.map((r) => (Array.isArray(r) ? r.length : 1))) : 0;
  if (rows > 1 && cols > 1) {
    throw new IgValidationError(
      name,
      'a single cell, one column or one row of cells',
      `a range of ${plural(rows, 'row')} and ${plural(cols, 'column')}`,
    );
  }
  return v.flat();
}

/** TRUE/FALSE (or yes/no, 1/0, the argument's own name); undefined when blank. */
export function bool(name: string, v: unknown): boolean | undefined {
  const x = single(name, v);
  if (isBlank(x)) return undefined;
  if (typeof x === 'boolean') return x;
  if (x === 1 || x === 0) return x === 1;
  if (typeof x === 'string') {
    const t = x.trim().toLowerCase();
    if (['true', 'yes', '1', name.toLowerCase()].includes(t)) return true;
    if (['false', 'no', '0'].includes(t)) return false;
  }
  throw new IgValidationError(name, 'TRUE or FALSE', showValue(x));
}

export function intIn(name: string, v: unknown, min: number, max: number): number | undefined {
  const x = single(name, v);
  if (isBlank(x)) return undefined;
  const n = typeof x === 'number' ? x : typeof x === 'string' && /^\s*\d+\s*$/.test(x) ? Number(x) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new IgValidationError(name, `a whole number from ${min} to ${max}`, showValue(x));
  return n;
}

/**
 * Field names a user may ask for: the documented paths and the default columns (a column such as
 * `name` of a hashtag search is shown by default although the spec documents only `media_count`);
 * empty = any, for undocumented shapes.
 */
function knownFields(endpoint: EndpointDef): string[] {
  const paths = fieldPaths(endpoint.schema);
  return paths.length ? [...new Set([...paths, ...endpoint.columns])] : [];
}

/** `fields`: a comma list or a range of names; blank = the endpoint's default columns. */
export function parseFields(endpoint: EndpointDef, v: unknown): string[] {
  const raw: unknown[] = isRange(v) ? v.flat() : [v];
  const names: string[] = [];
  for (const cell of raw) {
    if (isBlank(cell)) continue;
    if (typeof cell !== 'string')
      throw new IgValidationError('fields', 'field names as text, e.g. "followers,is_verified"', showValue(cell));
    for (const part of cell.split(/[,;\n]/)) {
      const name = part.trim().toLowerCase();
      if (name && !names.includes(name)) names.push(name);
    }
  }
  const known = knownFields(endpoint);
  for (const name of names) {
    if (name === FETCHED_AT || name === ERROR_CODE) continue;
    if (known.length && !known.some((k) => name === k || name.startsWith(`${k}.`))) {
      const guess = closest(name, known);
      throw new IgValidationError(
        'fields',
        `one or more of: ${known.join(', ')}`,
        `${showValue(name)}${guess ? ` (did you mean ${guess}?)` : ''}`,
      );
    }
    if (!known.length && !/^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(name)) {
      throw new IgValidationError(
        'fields',
        'field names such as credits_remaining or profile.followers',
        showValue(name),
      );
    }
  }
  return names.length ? names : endpoint.columns;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * An API value as a cell: dates (`*_at` ISO strings) as Date, null as blank, numbers as numbers,
 * ids as text (an id is a name, not a quantity: a number id would lose digits past 15 and sum),
 * every other string as that string (sheet writes keep it so: `entered`).
 */
function toCell(field: string, v: unknown): SheetValue {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string' && /(^|[._])[a-z]+_at$/.test(field) && ISO.test(v)) {
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) return d;
  }
  if (typeof v === 'number' && /(^|[._])([a-z]+_)?(id|pk)$/.test(field)) return String(v);
  if (typeof v === 'object') return JSON.stringify(v);
  return v as SheetValue;
}

/**
 * A value as the add-on hands it to `setValues` (the one rule for every sheet write: gas/book.ts).
 * Apps Script enters strings as if typed, so `=IMAGE(...)` would become a live formula, `0012345`
 * the number 12345, `TRUE` a boolean and `2026-01-05` a date, by rules that change with the
 * spreadsheet's locale. Every non-empty string therefore gets Sheets' quote prefix: the cell holds
 * exactly the string (getValues reads it without the apostrophe). A plain-text cell ('@') parses
 * nothing and takes the string as it is. Numbers, booleans and dates pass as themselves.
 * CONTRIBUTING.md, "Values written to a sheet", says why a prefix and not the '@' format. Stricter
 * than core's spreadsheetSafe (formula starts only), the twins Zapier and n8n offer for cells they
 * do not write themselves.
 */
export const entered = (v: SheetValue, plainText: boolean): SheetValue =>
  typeof v === 'string' && v !== '' && !plainText ? `'${v}` : v;

/** The field that shows when an answer was fetched (not the API's: the add-on's own). */
export const FETCHED_AT = '_fetched_at';

/**
 * The field that holds a failed lookup's error code (core's errorCode: `not_found`,
 * `invalid_input`...), blank for an answer: what a program reading the row decides by, since the
 * sentence beside it is for people and may change. The add-on's own, like FETCHED_AT.
 */
export const ERROR_CODE = '_error';

/** The cells of one API item for the fields asked (the same for cells, bulk rows and list rows). */
export function cellsOf(item: Record<string, unknown>, fields: string[], fetchedAt?: number): SheetValue[] {
  // Flattened only for a field that needs it: a range usually asks for top-level plain values.
  let flat: FlatRow | undefined;
  const value = (f: string) => {
    const plain = plainField(item, f);
    return plain !== undefined ? plain : pick(item, (flat ??= flatten(item)), f);
  };
  return fields.map((f) =>
    f === FETCHED_AT
      ? fetchedAt === undefined
        ? ''
        : new Date(fetchedAt)
      : f === ERROR_CODE
        ? ''
        : toCell(f, value(f)),
  );
}

/**
 * The cells of a row that failed, for the fields asked: its sentence in the first other field, its code under
 * ERROR_CODE, the rest blank.
 */
export function failedCells(message: string, code: string, fields: string[]): SheetValue[] {
  const at = Math.max(
    0,
    fields.findIndex((f) => f !== ERROR_CODE),
  );
  return fields.length ? fields.map((f, i) => (f === ERROR_CODE ? code : i === at ? message : '')) : [message];
}

/** Columns when neither the user nor the registry chose any: every key of the items seen. */
export function columnsSeen(items: Iterable<Record<string, unknown>>): string[] {
  const seen: string[] = [];
  for (const item of items) for (const k of Object.keys(flatten(item))) if (!seen.includes(k)) seen.push(k);
  return seen.length ? seen : ['result'];
}
