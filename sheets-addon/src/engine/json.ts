/**
 * Reading JSON the add-on stored itself (cache items, kept answers' cells, document properties):
 * an item may be missing, evicted, cut short or written by another version, and any of that is
 * "nothing stored", never an error. Callers check the shape of what they get.
 */
export function readJson(text: string | null | undefined): unknown {
  try {
    // JSON.parse(undefined) throws like any unreadable text.
    return JSON.parse(text as string);
  } catch {
    return undefined;
  }
}

/** A stored JSON list (schedules, trackers, refresh marks); anything else is an empty one. */
export function jsonList(text: string | null | undefined): unknown[] {
  const v = readJson(text);
  return Array.isArray(v) ? v : [];
}

/** The members of a stored JSON object (buckets, claims, kept rows); anything else has none. */
export function jsonEntries(text: string | null | undefined): [string, unknown][] {
  const v = readJson(text);
  return v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : [];
}
