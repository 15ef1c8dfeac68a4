/**
 * Every document property the add-on uses, by what it holds (the README lists them). Settings live
 * in document properties: custom functions run for the owner and for every editor of the sheet,
 * and all of them can read the document's properties (user properties would be per person).
 */
export const PROP = {
  /**
   * The API key (secret). Never shown back: the sidebar gets only its masked form. A key saved "only for me" is in the
   * user's own properties as `IGDATA_API_KEY:<spreadsheet id>` (gas/settings.ts).
   */
  apiKey: 'IGDATA_API_KEY',
  /** Email (or label) of who set the key: an editor is told whose credits the sheet spends. */
  keySetBy: 'IGDATA_KEY_SET_BY',
  /**
   * Apps Script's temporary key of the user who saved the shared key (no scope needed, reveals no identity, changes
   * every 30 days): the sidebar tells "set by you" from "set by someone else" by it, where the typed name is unproven.
   */
  keySetByUser: 'IGDATA_KEY_SET_BY_USER',
  /** ISO time when the key was set (a personal key's: `<name>:<spreadsheet id>` in the user's own properties). */
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
  /** Trackers (tracker/trackers.ts) and benchmarks (benchmark/, `report: 'benchmark'`): schedules, fields, view. */
  trackers: 'IGDATA_TRACKERS',
  /** The vet in progress (vet/vet.ts): its scorecard sheet, its checks and which one the bulk run is. */
  vet: 'IGDATA_VET',
  /** A tracker's alert rules and its last check: `IGDATA_ALERTS:<tracker id>`, (tracker/alert-check.ts). */
  alerts: 'IGDATA_ALERTS',
  /** Watches (watch/watches.ts): each one's tags, timing, cap, sheet and where its reading stopped. */
  watches: 'IGDATA_WATCHES',
  /** "off" turns claims off (engine/claim-store.ts), for the benchmark and to see the tests fail. */
  claims: 'IGDATA_CLAIMS',
} as const;
