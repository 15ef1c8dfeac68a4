/**
 * The one plural helper of every sentence users read that holds a count (credits, rows, accounts,
 * posts...): core's messages, the OpenAPI and MCP descriptions, the add-on's server and its sidebar
 * (whose bundle may take this file alone: it imports nothing).
 */

/** A number in the sentences about a whole run, where numbers reach the thousands: "1,500". */
export const thousands = (n: number): string => n.toLocaleString('en-US');

/** The word for `n` of it: "credit" for 1, "credits" for 0 and 2 (`many` for an irregular plural: "entries"). */
export const noun = (n: number, word: string, many = `${word}s`): string => (n === 1 ? word : many);

/** "1 credit", "0 credits", "2 credits" (the number as written). */
export const plural = (n: number, word: string, many?: string): string => `${n} ${noun(n, word, many)}`;

/** "1 credit", "1,500 credits": `plural` with the number in thousands. */
export const counted = (n: number, word: string, many?: string): string => `${thousands(n)} ${noun(n, word, many)}`;

/**
 * Words joined into a name (a sheet's, a usage line's), a word said twice at a join said once:
 * "IG Data tracker" and "Tracker 1" make "IG Data tracker 1", not "IG Data tracker Tracker 1".
 */
export function joinName(...parts: string[]): string {
  const words = parts.join(' ').split(/\s+/).filter(Boolean);
  return words.filter((w, i) => i === 0 || w.toLowerCase() !== words[i - 1].toLowerCase()).join(' ');
}
