import { isDate } from './realm';

/** google.script.run return values: JSON-like; a Date anywhere makes the whole value null (Apps Script's rule). */
export function toClientValue(v: unknown): unknown {
  let hasDate = false;
  const walk = (x: unknown): unknown => {
    if (isDate(x)) {
      hasDate = true;
      return null;
    }
    if (Array.isArray(x)) return x.map(walk);
    if (x && typeof x === 'object')
      return Object.fromEntries(
        Object.entries(x)
          .filter(([, y]) => typeof y !== 'function')
          .map(([k, y]) => [k, walk(y)]),
      );
    if (typeof x === 'function' || x === undefined) return null;
    return x;
  };
  const out = walk(v);
  return hasDate ? null : out;
}
