/**
 * Every document property the add-on uses, by what it holds (the README lists them). Settings live
 * in document properties: custom functions run for the owner and for every editor of the sheet,
 * and all of them can read the document's properties (user properties would be per person).
 */
export const PROP = {
  /** The API key (secret). Never shown back: the sidebar gets only its masked form. */
  apiKey: 'IGDATA_API_KEY',
  /** Email (or label) of who set the key: an editor is told whose credits the sheet spends. */
  keySetBy: 'IGDATA_KEY_SET_BY',
  /** ISO time when the key was set. */
  keySetAt: 'IGDATA_KEY_SET_AT',
  /** Base URL override; absent = the production address. */
  baseUrl: 'IGDATA_BASE_URL',
  /** The bulk job (small JSON, see bulk/job.ts). */
  job: 'IGDATA_BULK_JOB',
  /** Hours an answer is reused (1-720; absent = 168, 7 days): engine/keep.ts. */
  freshHours: 'IGDATA_FRESH_HOURS',
  /** Cells marked by "Refresh selected cells" (gas/refresh.ts). */
  refresh: 'IGDATA_REFRESH',
  /** Credits by day and by what spent them (engine/usage.ts). */
  usage: 'IGDATA_USAGE',
  /** Scheduled lookups (schedule/schedules.ts); each one's run is in IGDATA_BULK_JOB:<its id>. */
  schedules: 'IGDATA_SCHEDULES',
  /** Trackers (tracker/trackers.ts): each one's schedules, fields and view sheet. */
  trackers: 'IGDATA_TRACKERS',
  /** The vet in progress (vet/vet.ts): its scorecard sheet, its checks and which one the bulk run is. */
  vet: 'IGDATA_VET',
  /** Watches (watch/watches.ts): each one's tags, timing, cap, sheet and where its reading stopped. */
  watches: 'IGDATA_WATCHES',
  /** "off" turns claims off (engine/claim-store.ts), for the benchmark and to see the tests fail. */
  claims: 'IGDATA_CLAIMS',
} as const;
