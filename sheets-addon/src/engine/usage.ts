/**
 * Where the credits went: credits by day (UTC) and by what spent them (a formula: its function and
 * cell; a bulk run: "Run" + its start + its function). Kept in one document property (9 KB a value):
 * the oldest days go first when it would not fit. The sidebar sums days into the month and shows it
 * against the balance, and exports the whole log to a sheet.
 */
import { readJson } from './json';

export type Usage = Record<string, Record<string, number>>;

const MAX_CHARS = 8500;

export const parseUsage = (text?: string | null): Usage => (readJson(text) ?? {}) as Usage;

/** Adds `credits` spent by `label` on `day` (YYYY-MM-DD); returns `u`. */
export function addUsage(u: Usage, label: string, credits: number, day: string): Usage {
  const d = (u[day] ??= {});
  d[label] = (d[label] || 0) + credits;
  return u;
}

/** `u` plus `more`, its oldest days dropped until it fits one property. */
export function mergeUsage(u: Usage, more: Usage): Usage {
  for (const day in more) for (const label in more[day]) addUsage(u, label, more[day][label], day);
  for (const day of Object.keys(u).sort()) if (JSON.stringify(u).length > MAX_CHARS) delete u[day];
  return u;
}
