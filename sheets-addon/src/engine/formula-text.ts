/**
 * A formula's text read back: its IG function and its arguments, each as a literal value, a
 * reference to read, or something only Sheets can compute. Refresh selected cells prices a formula
 * by what it will ask (gas/refresh.ts); nothing here is evaluated.
 */

/**
 * One argument: a value written in the formula, a reference in A1 notation (`qualified`: it names
 * its sheet), a named range, or something only Sheets can compute.
 */
export type ArgText =
  | { kind: 'value'; value: unknown }
  | { kind: 'ref'; ref: string; qualified: boolean }
  | { kind: 'name'; name: string }
  | { kind: 'unknown' };

/** A sheet before `!`: Sheet2!, 'My sheet'!. */
const SHEET = /^(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)!/;
/** Cells in A1 notation: A1, A2:A, A:A, $B$2:$B$900 (a row or a colon is needed: "ABC" is a name). */
const CELLS = /^\$?[A-Za-z]{1,3}\$?\d*(?::\$?[A-Za-z]{1,3}\$?\d*)?$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/**
 * Splits the argument list at top-level commas (semicolons in some locales), outside quotes, parentheses and braces.
 */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c === '(' || c === '{') depth++;
    else if (c === ')' || c === '}') depth--;
    else if ((c === ',' || c === ';') && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out.map((a) => a.trim());
}

function argOf(text: string): ArgText {
  if (text === '') return { kind: 'value', value: '' };
  if (/^"(?:[^"]|"")*"$/.test(text)) return { kind: 'value', value: text.slice(1, -1).replace(/""/g, '"') };
  if (/^-?\d+(\.\d+)?$/.test(text)) return { kind: 'value', value: Number(text) };
  if (/^(TRUE|FALSE)$/i.test(text)) return { kind: 'value', value: text.toUpperCase() === 'TRUE' };
  const sheet = SHEET.exec(text);
  const cells = sheet ? text.slice(sheet[0].length) : text;
  if (CELLS.test(cells) && /\d|:/.test(cells)) return { kind: 'ref', ref: text, qualified: !!sheet };
  if (!sheet && NAME.test(text)) return { kind: 'name', name: text };
  return { kind: 'unknown' };
}

/** The IG function a formula calls (the whole formula is that call) and its arguments; null for any other formula. */
export function readFormula(formula: string): { fn: string; args: ArgText[] } | null {
  const m = /^=\s*(IG[A-Z]+)\s*\(([\s\S]*)\)\s*$/i.exec(formula);
  if (!m) return null;
  const body = m[2].trim();
  return { fn: m[1].toUpperCase(), args: body === '' ? [] : splitArgs(body).map(argOf) };
}
