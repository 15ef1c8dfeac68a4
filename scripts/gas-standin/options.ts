/** What a caller configures when creating a stand-in runtime (createGasRuntime). */
import type { AppsScriptManifest, GasLimits } from './internal/types';
import type { TtlOverMax } from './services/cache';
import type { DocChannel } from './concurrent/shared-doc';

export type ScriptFile = string | { name: string; code: string };

export interface GasRuntimeOptions {
  /** JS files in load order (paths, or inline {name, code}). */
  files: ScriptFile[];
  /** Folder of the .html files (createHtmlOutputFromFile) and appsscript.json. Default: the first file's folder. */
  dir?: string;
  /** Manifest: a path, an object, or null for none. Default: `<dir>/appsscript.json` when present. */
  manifest?: string | AppsScriptManifest | null;
  /** Re-evaluate the files for every execution, as Apps Script does (default true). Caches, properties, spreadsheet persist. */
  freshContextPerCall?: boolean;
  /** Utilities.sleep (and lock waits): 'virtual' advances the clock (default), 'real' blocks the thread. */
  sleep?: 'virtual' | 'real';
  /**
   * The instant runtime.clock starts at (ms or ISO 8601 with its zone), running at the real pace from
   * there. Default: the real time, refused under tests (scripts/lib/clock-start.ts).
   */
  startAt?: number | string;
  /** The real time at which the clock reads `startAt` (default: when the runtime is made): threads that share a document agree on it. */
  startRealAt?: number;
  /** Script's `new Date()`/`Date.now()` follow runtime.clock (default true). */
  virtualDate?: boolean;
  /** Spreadsheet owner (default owner@example.com). */
  owner?: string;
  /** User at the keyboard (default: the owner). */
  activeUser?: string;
  /** Script time zone (default: the manifest's, else Etc/UTC). */
  timeZone?: string;
  limits?: Partial<GasLimits>;
  /** Maps the URL the script asked for to the one really requested (e.g. production host -> local sandbox). */
  rewriteUrl?: (url: string) => string;
  /** Reject URLs outside the manifest's urlFetchWhitelist (default false). */
  enforceUrlFetchWhitelist?: boolean;
  /** Require the manifest's oauthScopes to cover what the script calls (default: true when the manifest lists oauthScopes). */
  enforceScopes?: boolean;
  /** Cache put with a TTL over 21600 s: 'throw' (default) or 'clamp'. */
  cacheTtlOverMax?: TtlOverMax;
  /**
   * How the script came to run, as `ScriptApp.getInstallationSource()` says it: `NONE` (default), a script bound to the
   * spreadsheet (every editor can open it in Extensions > Apps Script), or an add-on installed from the Marketplace.
   */
  installationSource?: 'NONE' | 'WEB_STORE_ADD_ON' | 'APPS_MARKETPLACE_DOMAIN_ADD_ON';
  /** Caption of createAddonMenu() (default 'Add-on'). */
  addonName?: string;
  /** Also print the script's console output to the real console (default false). */
  echoLogs?: boolean;
  /** User-Agent UrlFetchApp sends when the script sets none. */
  userAgent?: string;
  /**
   * Start UrlFetchApp's HTTP thread with the runtime instead of at the first fetch (default false).
   * Benchmarks set it: the thread's start (tens of ms) is the stand-in's cost, not the script's.
   */
  startHttpThread?: boolean;
  /**
   * The document cache and document lock live in another thread, shared with other runtimes
   * (concurrent executions: see concurrent/pool.ts). `thread` names this runtime in lock holders.
   */
  sharedDocument?: DocChannel & { thread: string };
}
