/**
 * What a step gives the Zap: the answer's items with the spreadsheet-safe twin of each stranger
 * text field (core's `withSafeTwins`: `caption_for_sheets` beside `caption`), and the output fields that
 * label them in the Zap editor, from the registry's response schema. Zapier shows a nested field
 * as `author__username` and a list's items' fields as `similar[]username` (line items), so those are
 * the keys. A twin is labelled "... (safe for spreadsheets)" so users pick it for Google Sheets,
 * Excel or a CSV file; the plain field stays for everything else.
 */
import type { DocumentedEndpoint, Field, Shape } from '@igdata/core';
import { TWIN_SUFFIX, safeTwinOf, strangerTextPaths, withSafeTwins } from '@igdata/core';

type Item = Record<string, unknown>;

/** An item as the step returns it: with its twins. */
export const twinned = (e: DocumentedEndpoint, item: Item): Item => withSafeTwins(e.schema, item) as Item;

/** A Zapier output field (zapier-platform-schema's FieldSchema, the keys we set). */
export interface OutputField {
  key: string;
  label: string;
  type: 'string' | 'number' | 'boolean' | 'datetime';
  list?: true;
}

/** The label of a key's part: `full_name` -> "Full Name", `image_url` -> "Image URL". */
const ACRONYMS: Record<string, string> = { url: 'URL', id: 'ID', dm: 'DM', pct: '%' };
const words = (part: string): string =>
  part
    .split('_')
    .filter(Boolean)
    .map((w) => ACRONYMS[w] ?? w[0].toUpperCase() + w.slice(1))
    .join(' ');

/** The label of a field: the words of its path ("Author Full Name"); a twin's says what it is for. */
export function labelOf(path: string[]): string {
  const last = path[path.length - 1];
  if (last.endsWith(TWIN_SUFFIX))
    return `${labelOf([...path.slice(0, -1), last.slice(0, -TWIN_SUFFIX.length)])} (safe for spreadsheets)`;
  return path.map(words).join(' ');
}

/** A field's type for Zapier: `*_at` text is a date (ISO 8601 with its offset, as the API sends it). */
const typeOf = (shape: 'string' | 'number' | 'boolean', name: string): OutputField['type'] =>
  shape !== 'string' ? shape : /(^|_)at$/.test(name) ? 'datetime' : 'string';

/** A step of a field's path: its name, and whether it is a list of objects (line items). */
interface Part {
  name: string;
  list: boolean;
}

/** Zapier's key of a path: `author__username`, `similar[]username`. */
const keyOfPath = (parts: Part[]): string =>
  parts.map((p, i) => (i === 0 ? p.name : `${parts[i - 1].list ? '[]' : '__'}${p.name}`)).join('');
/** Core's dotted path of a path (strangerTextPaths): `author.full_name`, `similar[].full_name`. */
const dottedOf = (parts: Part[]): string => parts.map((p) => `${p.name}${p.list ? '[]' : ''}`).join('.');
const asList = (parts: Part[]): Part[] => [...parts.slice(0, -1), { ...parts[parts.length - 1], list: true }];
const isItem = (v: unknown): v is Item => typeof v === 'object' && v !== null && !Array.isArray(v);
const shapeOf = (f: Field): Shape =>
  typeof f !== 'object' ? f : 'optional' in f ? f.optional : 'required' in f ? f.required : f;
const valueType = (v: unknown, name: string): OutputField['type'] =>
  typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : typeOf('string', name);

/**
 * The output fields of an answer: each field its response schema documents, in its order, a stranger
 * text field's twin right after it, then whatever else the sample (the sandbox's answer) holds; an
 * answer the registry does not describe (spec §4.3) by its sample alone.
 */
export function outputFieldsOf(e: DocumentedEndpoint, sample: Item): OutputField[] {
  const stranger = new Set(strangerTextPaths(e.schema));
  const out: OutputField[] = [];
  const push = (parts: Part[], type: OutputField['type'], list?: true) =>
    out.push({ key: keyOfPath(parts), label: labelOf(parts.map((p) => p.name)), type, ...(list ? { list } : {}) });
  const walk = (shape: Shape | undefined, value: unknown, parts: Part[]): void => {
    const name = parts.length ? parts[parts.length - 1].name : '';
    if (shape === undefined) {
      // Not in the schema: as the sample shows it.
      if (Array.isArray(value) && isItem(value[0])) walk({ object: {} }, value[0], asList(parts));
      else if (Array.isArray(value)) push(parts, valueType(value[0], ''), true);
      else if (isItem(value)) walk({ object: {} }, value, parts);
      else push(parts, valueType(value, name));
    } else if (typeof shape === 'string') push(parts, typeOf(shape, name));
    else if ('record' in shape) push(parts, 'string');
    else if ('array' in shape) {
      const item = shape.array;
      if (typeof item === 'object' && 'object' in item)
        walk(item, Array.isArray(value) ? value[0] : undefined, asList(parts));
      else push(parts, typeof item === 'string' ? typeOf(item, '') : 'string', true);
    } else {
      const o = isItem(value) ? value : {};
      const named = Object.keys(shape.object);
      const extra = Object.keys(o).filter((k) => !named.includes(k) && !k.endsWith(TWIN_SUFFIX));
      for (const k of [...named, ...extra]) {
        const at = [...parts, { name: k, list: false }];
        walk(named.includes(k) ? shapeOf(shape.object[k]) : undefined, o[k], at);
        if (stranger.has(dottedOf(at))) push([...parts, { name: safeTwinOf(k), list: false }], 'string');
      }
    }
  };
  walk(e.schema, sample, []);
  return out;
}

/** A step's perform whose items get their twins (the step keeps and replays the items as the API sent them). */
export const withTwins =
  <Z, B>(e: DocumentedEndpoint, perform: (z: Z, bundle: B) => Promise<Item[]>) =>
  async (z: Z, bundle: B): Promise<Item[]> =>
    (await perform(z, bundle)).map((item) => twinned(e, item));
