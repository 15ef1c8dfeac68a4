/**
 * Flattening any item into table columns: nested objects become dotted columns
 * (`author.username`, `location.name`), lists of values are joined, lists of objects are labelled.
 */

export type Cell = string | number | boolean | null;
export type FlatRow = Record<string, Cell>;

const LABEL_KEYS = ['username', 'name', 'title', 'day', 'hour', 'type', 'id'];

function label(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v !== 'object') return String(v);
  const o = v as Record<string, unknown>;
  const key = LABEL_KEYS.find((k) => o[k] !== undefined && o[k] !== null && typeof o[k] !== 'object');
  return key ? String(o[key]) : JSON.stringify(o);
}

/** Lists read best in one cell: "a, b, c"; lists of objects by their label ("nasa, natgeo"). */
function joinList(list: unknown[]): string {
  return list.map(label).join(', ');
}

export function flatten(item: unknown, prefix = '', out: FlatRow = {}): FlatRow {
  if (item === null || item === undefined || typeof item !== 'object' || Array.isArray(item)) {
    if (prefix) out[prefix] = Array.isArray(item) ? joinList(item) : ((item ?? null) as Cell);
    return out;
  }
  const entries = Object.entries(item as Record<string, unknown>);
  if (!entries.length && prefix) out[prefix] = null;
  for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

/**
 * Pick columns from a flat row. A column naming an object (`author`) or a nested list gives its
 * JSON, so nothing asked for is silently empty; an absent one gives null.
 */
export function pick(item: Record<string, unknown>, flat: FlatRow, column: string): Cell {
  if (column in flat) return flat[column];
  let v: unknown = item;
  for (const part of column.split('.')) {
    if (v === null || typeof v !== 'object') return null;
    v = (v as Record<string, unknown>)[part];
  }
  if (v === undefined) return null;
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : (v as Cell);
}

/**
 * What `pick` gives for a column that is a top-level field holding a plain value (`followers`),
 * read without flattening the item; undefined for any other column (then `pick` decides).
 */
export function plainField(item: Record<string, unknown>, column: string): Cell | undefined {
  // (`__proto__` and the like: pick reads them from a flat row's prototype; left to it)
  if (column.includes('.') || column in Object.prototype || !Object.prototype.hasOwnProperty.call(item, column))
    return undefined;
  const v = item[column];
  return v === null || typeof v !== 'object' ? ((v ?? null) as Cell) : undefined;
}

/** Items as table rows of the given columns (nested fields by dotted path). */
export function toRows(items: Record<string, unknown>[], columns: string[]): Cell[][] {
  return items.map((item) => {
    const flat = flatten(item);
    return columns.map((c) => pick(item, flat, c));
  });
}
