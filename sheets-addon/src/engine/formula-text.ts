/**
 * Reading an IG formula's text (what Range.getFormulas returns) for "Refresh selected cells": the
 * function and its arguments, each a literal or a cell reference the caller reads. Only formulas
 * that are one IG call with plain arguments are understood; anything computed (a nested function,
 * an operator) is reported as such, so the cell is named rather than silently left stale.
 */

export type FormulaArg =
  | { kind: 'blank' }
  | { kind: 'value'; value: string | number | boolean }
  | { kind: 'ref'; a1: string };

export type ParsedFormula = { fn: string; args: FormulaArg[] } | { error: string };

const REF = /^(?:(?:'(?:[^']|'')+'|[A-Za-z0-9_.]+)!)?\$?[A-Za-z]{1,3}\$?\d*(?::\$?[A-Za-z]{1,3}\$?\d*)?$/;

/** Splits the argument text at top-level commas (or semicolons), outside quotes. */
function splitArgs(text: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    if (!quoted && (ch === ',' || ch === ';')) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (quoted) return null;
  out.push(cur);
  return out;
}

function readArg(raw: string): FormulaArg | null {
  const t = raw.trim();
  if (!t) return { kind: 'blank' };
  if (/^"(?:[^"]|"")*"$/.test(t)) return { kind: 'value', value: t.slice(1, -1).replace(/""/g, '"') };
  if (/^-?\d+(\.\d+)?$/.test(t)) return { kind: 'value', value: Number(t) };
  if (/^(TRUE|FALSE)$/i.test(t)) return { kind: 'value', value: t.toUpperCase() === 'TRUE' };
  if (REF.test(t)) return { kind: 'ref', a1: t.replace(/\$/g, '') };
  return null;
}

/** An IG formula's function and arguments; null when the text is not an IG formula at all. */
export function parseFormulaText(text: string, isIgFunction: (fn: string) => boolean): ParsedFormula | null {
  const m = /^=\s*([A-Za-z0-9_.]+)\s*\(([\s\S]*)\)\s*$/.exec(text.trim());
  if (!m) return /^=.*\bIG[A-Z]+\s*\(/i.test(text) ? { error: 'its IG function is inside another formula' } : null;
  const fn = m[1].toUpperCase();
  if (!isIgFunction(fn)) return /\bIG[A-Z]+\s*\(/i.test(m[2]) ? { error: 'its IG function is inside another formula' } : null;
  const parts = splitArgs(m[2]);
  const args = parts?.map(readArg);
  if (!args || args.some((a) => a === null)) return { error: 'an argument is computed (only cells, ranges and plain values can be read again)' };
  // `=IGCREDITS()`: no arguments at all.
  return { fn, args: args.length === 1 && args[0]!.kind === 'blank' && !m[2].trim() ? [] : (args as FormulaArg[]) };
}
