/** Small pieces of the sentences users read (messages.ts, error-codes.ts): counts, tries, charges, targets. */
import { plural } from './plural';
import type { Call } from './types';

export const tries = (n = 1): string => plural(n, 'try', 'tries');
export const NOT_CHARGED = '(Not charged.)';
const MAYBE_CHARGED = '(May have been charged.)';

/**
 * An answer served again (Sheets' kept answers, an n8n item that asked what an earlier item asked):
 * what it cost when it was first looked up, and when (epoch ms; unknown for an n8n fan-out, which
 * is the same execution).
 */
export interface FirstCharge {
  charged: number;
  at?: number;
}

/** What an error knows of its request's cost: credits the service reported, and sends whose answer was lost. */
export interface Charges {
  /** What this answer cost now: 0 for one served again. */
  charged: number;
  /**
   * Sends whose answer was lost after the request may have reached the service (call.ts): each may have been billed.
   */
  lostSends?: number;
  /** Set when the answer was served again: its first charge (errors.ts servedAgain). */
  first?: FirstCharge;
}

/** The time zone dates are said in: its offset from UTC in minutes at `t` (the sheet's zone); UTC without one. */
export type ZoneOffset = (t: number) => number;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The day `t` falls on in the zone, as a note says it: "2 Dec". */
function dayLabel(t: number, zoneOffset?: ZoneOffset): string {
  const d = new Date(t + (zoneOffset?.(t) ?? 0) * 60000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** "when first looked up on 2 Dec", over the first lookups of the answers served again (oldest to newest). */
function whenFirst(ats: (number | undefined)[], zoneOffset?: ZoneOffset): string {
  const known = ats.filter((t): t is number => typeof t === 'number' && Number.isFinite(t)).sort((a, b) => a - b);
  if (!known.length) return 'when first looked up';
  const first = dayLabel(known[0], zoneOffset);
  const last = dayLabel(known[known.length - 1], zoneOffset);
  return first === last ? `when first looked up on ${first}` : `when first looked up between ${first} and ${last}`;
}

/**
 * The note of what some answers cost, said once (a vet's note over a row's failed checks: `each`
 * names them, "check"): what was charged now, and what the answers served again cost when first
 * looked up, free now. The one place this sentence is built: chargedNote says it for one answer.
 */
export function chargesNote(list: Charges[], each?: string, zoneOffset?: ZoneOffset): string {
  const reused = list.filter((c) => !c.charged && (c.first?.charged ?? 0) > 0);
  const fresh = list.filter((c) => !reused.includes(c));
  const now = fresh.reduce((n, c) => n + c.charged, 0);
  const firstCost = reused.reduce((n, c) => n + (c.first?.charged ?? 0), 0);
  const forWhat = (n: number) => (each ? ` for ${plural(n, each)}` : '');
  const when = whenFirst(
    reused.map((c) => c.first?.at),
    zoneOffset,
  );
  if (!reused.length) return now ? `(Charged ${plural(now, 'credit')}${forWhat(fresh.length)}.)` : NOT_CHARGED;
  if (!now) return `(Charged ${plural(firstCost, 'credit')}${forWhat(reused.length)} ${when}; free now.)`;
  const paid = fresh.filter((c) => c.charged > 0).length;
  const freeNow = each ? `${plural(reused.length, each)} free now` : 'free now';
  return (
    `(Charged ${plural(now, 'credit')}${forWhat(paid)}; ` +
    `${freeNow}, charged ${plural(firstCost, 'credit')} ${when}.)`
  );
}

/**
 * The end of every sentence about a request: what it cost (or, served again, what it cost when first
 * looked up: free now), or that it may have cost something nobody can see.
 */
export function chargedNote(c: Charges, zoneOffset?: ZoneOffset): string {
  const lost = c.lostSends ?? 0;
  if (c.charged > 0) {
    const maybeMore = lost ? '; a try whose answer was lost may have been charged too' : '';
    return `(Charged ${plural(c.charged, 'credit')}${maybeMore}.)`;
  }
  return lost ? MAYBE_CHARGED : chargesNote([c], undefined, zoneOffset);
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
  /** The time zone an answer served again says its first lookup's day in (the sheet's); UTC without one. */
  zoneOffset?: ZoneOffset;
}
