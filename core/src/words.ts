/** Small pieces of the sentences users read (messages.ts, error-codes.ts): counts, tries, charges, targets. */
import type { Call } from './types';

export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
/** A number in the sentences about a whole run, where numbers reach the thousands: "1,500". */
export const thousands = (n: number): string => n.toLocaleString('en-US');
export const counted = (n: number, word: string): string => `${thousands(n)} ${word}${n === 1 ? '' : 's'}`;
export const tries = (n = 1): string => (n === 1 ? '1 try' : `${n} tries`);
export const NOT_CHARGED = '(Not charged.)';
const MAYBE_CHARGED = '(May have been charged.)';

/** What an error knows of its request's cost: credits the service reported, and sends whose answer was lost. */
export interface Charges {
  charged: number;
  /**
   * Sends whose answer was lost after the request may have reached the service (call.ts): each may have been billed.
   */
  lostSends?: number;
}

/** The end of every sentence about a request: what it cost, or that it may have cost something nobody can see. */
export function chargedNote(c: Charges): string {
  const lost = c.lostSends ?? 0;
  if (c.charged > 0) {
    const maybeMore = lost ? '; a try whose answer was lost may have been charged too' : '';
    return `(Charged ${plural(c.charged, 'credit')}${maybeMore}.)`;
  }
  return lost ? MAYBE_CHARGED : NOT_CHARGED;
}

/** How a call's target reads in a sentence. */
export function targetLabel(call?: Call): string {
  const main = call?.endpoint.params.find((p) => p.required && call.params[p.name] !== undefined);
  if (!call || !main) return 'The target';
  const v = String(call.params[main.name]);
  switch (main.kind) {
    case 'handle':
      return /^\d+$/.test(v) ? `Account ${v}` : `@${v}`;
    case 'post':
      return `Post ${v}`;
    case 'tag':
      return `#${v}`;
    case 'location':
      return `Location ${v}`;
    default:
      return `"${v}"`;
  }
}

export interface MessageContext {
  /** Where the user sets the key, e.g. "Extensions > IG Data > Settings" or "the IG Data API credential". */
  keyWhere: string;
  /** The call that failed, to name its target ("@nasa", "#veganrecipes"). */
  call?: Call;
  /** Where the user raises a credit cap, e.g. "Options > Credit Cap". */
  capWhere?: string;
  /** How the user turns the cap off, e.g. "0 for no cap". */
  capOff?: string;
  /** How the user splits a run into smaller ones, e.g. "with Loop Over Items". */
  splitWith?: string;
}
