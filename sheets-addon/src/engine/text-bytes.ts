/**
 * Text primitives the answer store and the kept answers' sheet share: a key's FNV-1a hash (which
 * bucket or row holds it), a JSON text's UTF-8 size (what CacheService counts) and one member of a
 * JSON object's text. Hot paths: a range hashes and weighs thousands of keys.
 */

/** `Math.imul` read once, not once per character: a range hashes thousands of 49-character keys. */
const imul = Math.imul;

/** FNV-1a of a string, unsigned (also places answers in the kept answers' rows). */
export function fnv1a(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Text of ASCII characters only: as many bytes as characters (one native scan instead of the loop). */
const ASCII = /^[\0-\x7f]*$/;

/** UTF-8 length of a JSON text (lone surrogates are escaped by JSON.stringify, so pairs are 4). */
export function utf8Bytes(s: string): number {
  if (ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdfff ? 2 : 3;
  }
  return n;
}

/** One member of a JSON object's text (`"name":value`): a bucket or a kept row is written as their list. */
export const member = (name: string, value: unknown): string => `${JSON.stringify(name)}:${JSON.stringify(value)}`;
