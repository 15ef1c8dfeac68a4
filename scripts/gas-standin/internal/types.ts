/** Shared types of the Apps Script stand-in (host side). */
import type { Clock } from './clock';
import type { Realm } from './realm';
import type { DailyQuotas } from './quota';

/** What kind of Apps Script execution a call models. */
export type ExecutionKind = 'custom' | 'script' | 'trigger';

/** ScriptApp.AuthMode names. */
export type AuthModeName = 'NONE' | 'CUSTOM_FUNCTION' | 'LIMITED' | 'FULL';

/** Things a service call may need; checked against the execution kind, auth mode and manifest scopes. */
export type Capability =
  | 'ui.menu' // SpreadsheetApp.getUi(), createMenu/createAddonMenu
  | 'ui.show' // showSidebar, showModalDialog, alert, prompt
  | 'properties.read'
  | 'properties.write'
  | 'cache'
  | 'urlfetch'
  | 'sheet.read'
  | 'sheet.write'
  | 'session.email'
  | 'lock'
  | 'triggers'; // ScriptApp.newTrigger, getProjectTriggers, deleteTrigger

export interface Execution {
  id: number;
  fnName: string;
  kind: ExecutionKind;
  authMode: AuthModeName;
  /** Email of the user at the keyboard (may be an editor, not the owner). */
  user: string;
  /** clock.now() when the execution started (includes virtual time). */
  startedAt: number;
  limitMs: number;
  /** Set once the time limit has been hit: everything after that fails. */
  timedOut: boolean;
  /** A1 of the calling cell for custom functions (Sheet!A1), if given. */
  cell?: string;
  /** Locks held by this execution (released when it ends, as Apps Script does). */
  locks: Set<unknown>;
}

/** Documented limits; all overridable (e.g. to test eviction with a small cache). */
export interface GasLimits {
  cacheKeyMaxChars: number; // 250
  cacheValueMaxBytes: number; // 100 KB
  cacheMaxTtlSeconds: number; // 21600
  cacheDefaultTtlSeconds: number; // 600
  cacheMaxItems: number; // ~1000
  cacheEvictFraction: number; // ~10 % evicted (oldest first) when full
  propertyValueMaxBytes: number; // 9 KB
  propertyStoreMaxBytes: number; // 500 KB
  customFunctionMs: number; // 30 s
  scriptMs: number; // 6 min
  simpleTriggerMs: number; // 30 s
  urlMaxChars: number; // 2 KB
  urlFetchDailyCalls: number; // 20,000 (consumer), each request of a fetchAll counting
  propertiesDailyOps: number; // 50,000 reads and writes (consumer)
  triggerDailyRuntimeMs: number; // 90 min of installable triggers' runtime (consumer)
  sleepMaxMs: number; // 5 min
}

export const DEFAULT_LIMITS: GasLimits = {
  cacheKeyMaxChars: 250,
  cacheValueMaxBytes: 100 * 1024,
  cacheMaxTtlSeconds: 21600,
  cacheDefaultTtlSeconds: 600,
  cacheMaxItems: 1000,
  cacheEvictFraction: 0.1,
  propertyValueMaxBytes: 9 * 1024,
  propertyStoreMaxBytes: 500 * 1024,
  customFunctionMs: 30_000,
  scriptMs: 360_000,
  simpleTriggerMs: 30_000,
  urlMaxChars: 2 * 1024,
  urlFetchDailyCalls: 20_000,
  propertiesDailyOps: 50_000,
  triggerDailyRuntimeMs: 90 * 60_000,
  sleepMaxMs: 300_000,
};

export interface GasStats {
  executions: number;
  contextsCreated: number;
  /** ms spent creating a fresh global scope and evaluating the script files: summed / last / max. */
  loadMsTotal: number;
  lastLoadMs: number;
  maxLoadMs: number;
  fetchCalls: number;
  fetchAllCalls: number;
  /** HTTP requests made (each request of a fetchAll counts; redirects do not). */
  requests: number;
  /** fetch or fetchAll calls the daily quota refused (nothing sent). */
  quotaRefusals: number;
  /** Largest fetchAll batch. */
  maxBatchSize: number;
  sleeps: number;
  sleptMs: number;
  cacheGets: number;
  cacheHits: number;
  cachePuts: number;
  cacheEvictions: number;
  propertyReads: number;
  propertyWrites: number;
  /**
   * Reads of user properties by custom functions: Google runs those as an anonymous user and documents no user store
   * for them, so a product that relies on one relies on the undocumented.
   */
  customUserPropertyReads: number;
}

export function emptyStats(): GasStats {
  return {
    executions: 0,
    contextsCreated: 0,
    loadMsTotal: 0,
    lastLoadMs: 0,
    maxLoadMs: 0,
    fetchCalls: 0,
    fetchAllCalls: 0,
    requests: 0,
    quotaRefusals: 0,
    maxBatchSize: 0,
    sleeps: 0,
    sleptMs: 0,
    cacheGets: 0,
    cacheHits: 0,
    cachePuts: 0,
    cacheEvictions: 0,
    propertyReads: 0,
    propertyWrites: 0,
    customUserPropertyReads: 0,
  };
}

export interface LogEntry {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug' | 'Logger';
  message: string;
  executionId: number | null;
  fnName: string | null;
  at: number;
}

/** One HTTP request made through UrlFetchApp (as sent, after rewriteUrl). */
export interface RequestRecord {
  method: string;
  url: string;
  /** URL the script asked for, before rewriteUrl. */
  requestedUrl: string;
  headers: Record<string, string>;
  payload?: string;
  status: number | null;
  error?: string;
  responseHeaders?: Record<string, string | string[]>;
  responseText?: string;
  startedAt: number;
  endedAt: number;
  /** Index of the fetchAll batch it belonged to (stats.fetchAllCalls at the time), or null for fetch. */
  batch: number | null;
  executionId: number | null;
}

export interface AppsScriptManifest {
  timeZone?: string;
  oauthScopes?: string[];
  urlFetchWhitelist?: string[];
  runtimeVersion?: string;
  [k: string]: unknown;
}

/** The runtime's internals the services are given. */
export interface Host {
  readonly limits: GasLimits;
  readonly clock: Clock;
  readonly stats: GasStats;
  /** The daily quotas, over a rolling 24 hours of `clock` (quota.ts). */
  readonly quotas: DailyQuotas;
  readonly manifest: AppsScriptManifest | null;
  readonly timeZone: string;
  readonly owner: string;
  /** The running execution (there always is one while script code runs). */
  current(): Execution;
  /** Throws a script-visible exception when `cap` is not allowed in this execution. */
  ensure(cap: Capability, what: string, realm: Realm): void;
  /** Throws "Exceeded maximum execution time" when the limit has passed. */
  checkDeadline(realm: Realm): void;
  /** ms left before the execution limit (never negative). */
  remainingMs(): number;
  /** Utilities.sleep semantics: real block or virtual clock advance, bounded by the limit. */
  sleep(ms: number, realm: Realm): void;
  log(level: LogEntry['level'], message: string): void;
}
