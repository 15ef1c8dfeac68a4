/**
 * An Apps Script (V8) stand-in for tests: loads the *built* add-on files into one global scope
 * (a Node `vm` context, files in order, as Apps Script concatenates .gs files) and runs global
 * functions as "executions" with Apps Script's services and documented limits.
 *
 *   const rt = createGasRuntime({ files: ['sheets-addon/dist/bundle.js', 'sheets-addon/dist/Code.js'] });
 *   rt.properties.user(rt.owner).set('API_KEY', 'k');
 *   const cell = rt.custom('IGPROFILE', 'nasa');           // a custom-function execution (30 s limit)
 *   rt.call('showSidebar');                                // a script execution (6 min limit)
 *   rt.run('refresh', [arg], { kind: 'script', user: 'editor@example.com' });
 *   await rt.close();
 *
 * UrlFetchApp blocks the calling thread (see internal/syncHttp.ts): the HTTP server under test
 * must run in another thread or process (scripts/gas-standin/testServer.ts).
 */
import path from 'node:path';
import vm from 'node:vm';
import { Clock } from './internal/clock';
import { createHost } from './internal/host';
import { DailyQuota, DailyQuotas } from './internal/quota';
import { createConsole, createLogger } from './internal/logging';
import { loadManifest } from './internal/manifest';
import { Realm, fromRealm } from './internal/realm';
import {
  AppsScriptManifest,
  AuthModeName,
  DEFAULT_LIMITS,
  Execution,
  GasLimits,
  GasStats,
  Host,
  LogEntry,
  RequestRecord,
  emptyStats,
} from './internal/types';
import { CompiledFile, DATE_PATCH, FUNCTION_NAMES, INVOKE, compileFiles } from './internal/vmScripts';
import {
  CallOptions,
  ExecutionRecord,
  GasScriptError,
  TIME_LIMIT_MESSAGE,
  isCallOptions,
  translateError,
} from './execution';
import type { GasRuntimeOptions } from './options';
import { CacheStores, createCacheService } from './services/cache';
import { createHtmlService } from './services/html';
import { LockRegistry, createLockService } from './services/lock';
import { PropertyStores, createPropertiesService } from './services/properties';
import { AuthMode, createScriptApp, createSession } from './services/session';
import { TriggerRegistry, createTriggerBuilders } from './services/triggers';
import { createSpreadsheetApp } from './services/spreadsheet';
import { createCharts } from './services/charts';
import { SpreadsheetModel } from './services/spreadsheetModel';
import { UiRecorder } from './services/ui';
import { UrlFetchBackend, createUrlFetchApp } from './services/urlFetch';
import { createUtilities } from './services/utilities';
import { DocClient, RemoteCacheStore, remoteLock } from './concurrent/remote';
import { findSecret } from './secrets';
import { advanceClock } from './timeTravel';

export type {
  AppsScriptManifest,
  ExecutionKind,
  GasLimits,
  GasStats,
  LogEntry,
  RequestRecord,
  AuthModeName,
} from './internal/types';
export type { ScriptFile, GasRuntimeOptions } from './options';
export type { CallOptions, ExecutionRecord } from './execution';
export { GasScriptError } from './execution';
export { DEFAULT_LIMITS } from './internal/types';
export { Clock } from './internal/clock';
export { CacheStore, CacheStores } from './services/cache';
export { PropertyStore, PropertyStores } from './services/properties';
export { SpreadsheetModel, SheetModel } from './services/spreadsheetModel';
export { ChartModel } from './services/chartModel';
export type { ChartView, ChartPosition } from './services/chartModel';
export { UiRecorder } from './services/ui';
export { LockRegistry } from './services/lock';

export class GasRuntime {
  readonly clock: Clock;
  readonly stats: GasStats = emptyStats();
  readonly limits: GasLimits;
  /**
   * Google's daily quotas for the one user of this runtime, over a rolling 24 hours of `clock`: URL Fetch calls
   * (`limits.urlFetchDailyCalls`), Properties reads and writes, installable triggers' runtime.
   */
  readonly quotas: DailyQuotas = {
    urlfetch: new DailyQuota(() => this.limits.urlFetchDailyCalls),
    properties: new DailyQuota(() => this.limits.propertiesDailyOps),
    triggerRuntimeMs: new DailyQuota(() => this.limits.triggerDailyRuntimeMs),
  };
  readonly manifest: AppsScriptManifest | null;
  readonly timeZone: string;
  readonly owner: string;
  /** Email of the user at the keyboard for the next executions. */
  activeUser: string;
  readonly dir: string;
  readonly logs: LogEntry[] = [];
  readonly executions: ExecutionRecord[] = [];
  readonly caches: CacheStores;
  readonly properties = new PropertyStores();
  readonly spreadsheet = new SpreadsheetModel();
  readonly ui = new UiRecorder();
  /**
   * Tests: when set, the execution dies at the first service call for which it returns true
   * (`cap`: 'sheet.write', 'properties.write', 'urlfetch'...; `what`: 'setValues'...), before the
   * call happens, exactly as when the 6-minute limit strikes there: nothing in the script can
   * catch it. A kill at a chosen moment, instead of one that depends on timing.
   */
  killWhen: ((cap: string, what: string) => boolean) | null = null;
  /** Installable time-driven triggers; they fire in `advance`. */
  readonly triggers = new TriggerRegistry();
  readonly locks: LockRegistry;
  /** Every HTTP request made through UrlFetchApp, in order. */
  readonly requests: RequestRecord[];

  private readonly files: CompiledFile[];
  private readonly opts: GasRuntimeOptions;
  private readonly urlFetch: UrlFetchBackend;
  private readonly host: Host;
  private shared: Realm | null = null;
  private lastRealm: Realm | null = null;
  private exec: Execution | null = null;
  private nextId = 1;
  private readonly scopes: Set<string> | null;

  constructor(opts: GasRuntimeOptions) {
    this.opts = opts;
    this.clock = new Clock(opts.startAt, opts.startRealAt);
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    const firstPath = opts.files.find((f): f is string => typeof f === 'string');
    this.dir = path.resolve(opts.dir ?? (firstPath ? path.dirname(firstPath) : process.cwd()));
    this.manifest = loadManifest(opts.manifest, this.dir);
    this.timeZone = opts.timeZone ?? this.manifest?.timeZone ?? 'Etc/UTC';
    this.owner = opts.owner ?? 'owner@example.com';
    this.activeUser = opts.activeUser ?? this.owner;
    const enforce = opts.enforceScopes ?? Boolean(this.manifest?.oauthScopes);
    this.scopes = enforce ? new Set(this.manifest?.oauthScopes ?? []) : null;
    this.files = compileFiles(opts.files);
    this.urlFetch = new UrlFetchBackend({
      rewriteUrl: opts.rewriteUrl,
      enforceUrlFetchWhitelist: opts.enforceUrlFetchWhitelist,
      userAgent: opts.userAgent,
    });
    this.requests = this.urlFetch.requests;
    if (opts.startHttpThread) this.urlFetch.client.start();
    this.host = createHost(this, { execution: () => this.exec, scopes: this.scopes, opts });
    const shared = opts.sharedDocument;
    const doc = shared ? new DocClient(shared) : null;
    this.caches = new CacheStores(this.host, doc ? new RemoteCacheStore(doc, this.host) : undefined);
    this.locks = new LockRegistry(
      this.host,
      doc && shared ? { lock: remoteLock(doc), thread: shared.thread } : undefined,
    );
  }

  /** Clock time in ms (what the script's Date sees by default). */
  now(): number {
    return this.clock.now();
  }

  setActiveUser(email: string): void {
    this.activeUser = email;
  }

  /** Total size of the loaded files in bytes. */
  get bundleBytes(): number {
    return this.files.reduce((n, f) => n + f.bytes, 0);
  }

  /** The global scope of the latest execution (for debugging). */
  get context(): vm.Context | null {
    return this.lastRealm?.ctx ?? null;
  }

  /**
   * Runs global function `fnName` as one execution. A trailing plain object whose keys are all
   * CallOptions keys is taken as options (use `run` when the last argument is such an object).
   */
  call(fnName: string, ...args: unknown[]): any {
    const last = args[args.length - 1];
    if (isCallOptions(last)) return this.run(fnName, args.slice(0, -1), last);
    return this.run(fnName, args);
  }

  /** Runs a custom function as Sheets would for one cell (kind 'custom'). */
  custom(fnName: string, ...args: unknown[]): any {
    return this.run(fnName, args, { kind: 'custom' });
  }

  /** Runs a simple trigger (onOpen, onInstall, onEdit...) with an event object `{ authMode, source, user }`. */
  trigger(fnName: string, opts: { authMode?: AuthModeName; user?: string; event?: Record<string, unknown> } = {}): any {
    const authMode = opts.authMode ?? 'LIMITED';
    return this.execute(
      fnName,
      (realm) => {
        const g = realm.ctx as Record<string, any>;
        const e = realm.toRealm({ ...opts.event, authMode: AuthMode[authMode] });
        if (authMode !== 'NONE') e.source = g.SpreadsheetApp.getActiveSpreadsheet();
        return [e];
      },
      { kind: 'trigger', authMode, user: opts.user },
    );
  }

  /**
   * Time travel: moves the clock forward by `ms`, firing each installable time-driven trigger when
   * it is due (a 6-minute execution of the user who installed it; a failure is recorded in the
   * trigger's `runs`, as Apps Script would e-mail it, and does not stop the clock).
   * `beforeTrigger(now)`, if given, is called before each trigger runs (the Sheets preview moves
   * the sandbox's world to the same instant, so each hourly run sees the world of its hour).
   */
  advance(ms: number, beforeTrigger?: (now: number) => void): void {
    advanceClock(this, ms, beforeTrigger);
  }

  /** Runs global function `fnName` with `args` as one execution; returns its result (copied to the host realm). */
  run(fnName: string, args: unknown[] = [], opts: CallOptions = {}): any {
    return this.execute(fnName, (realm) => realm.toRealm(args), opts);
  }

  /** Evaluates `code` in the script's global scope as one execution (debugging and set-up). */
  evaluate(code: string, opts: CallOptions = {}): any {
    const script = new vm.Script(code, { filename: 'evaluate.js' });
    return this.execute('(evaluate)', () => [], opts, script);
  }

  /** Names of the global functions the loaded files define (what google.script.run can call). */
  globalFunctionNames(): string[] {
    const before = {
      executions: this.stats.executions,
      contexts: this.stats.contextsCreated,
      loadMs: this.stats.loadMsTotal,
    };
    try {
      return this.execute('(names)', () => [], { kind: 'script' }, FUNCTION_NAMES) as string[];
    } finally {
      // bookkeeping only: not an execution the tests should count
      this.executions.pop();
      this.stats.executions = before.executions;
      this.stats.contextsCreated = before.contexts;
      this.stats.loadMsTotal = before.loadMs;
    }
  }

  /**
   * Where `secret` shows up where it should not: logs, cache keys and values, request URLs and
   * bodies, responses' error texts, sheet cells, chart options (titles, labels), UI text,
   * execution errors. (Request headers and property stores are where a key legitimately lives, so
   * they are not searched.)
   */
  findSecret(secret: string): string[] {
    return findSecret(this, secret);
  }

  /** Lets go of the HTTP thread (shared by this thread's runtimes: it ends when none uses it). Call in afterAll. */
  async close(): Promise<void> {
    this.urlFetch.release();
  }

  /** Most requests the HTTP thread had in flight at once (proof that fetchAll is concurrent). */
  get maxConcurrentRequests(): number {
    return this.urlFetch.client.maxInFlight;
  }

  // ---------------------------------------------------------------- internals

  private execute(fnName: string, makeArgs: (realm: Realm) => unknown[], opts: CallOptions, script?: vm.Script): any {
    if (this.exec)
      throw new Error(
        `stand-in: ${fnName} called while execution ${this.exec.fnName} is running (executions do not nest)`,
      );
    const kind = opts.kind ?? 'script';
    const limitMs =
      opts.limitMs ??
      (kind === 'custom'
        ? this.limits.customFunctionMs
        : kind === 'trigger'
          ? this.limits.simpleTriggerMs
          : this.limits.scriptMs);
    const exec: Execution = {
      id: this.nextId++,
      fnName,
      kind,
      authMode: kind === 'custom' ? 'CUSTOM_FUNCTION' : kind === 'trigger' ? (opts.authMode ?? 'LIMITED') : 'FULL',
      user: opts.user ?? this.activeUser,
      startedAt: this.clock.now(),
      limitMs,
      timedOut: false,
      cell: opts.cell,
      locks: new Set(),
    };
    this.exec = exec;
    this.stats.executions++;
    const record: ExecutionRecord = { id: exec.id, fnName, kind, user: exec.user, ms: 0, loadMs: 0, ok: false };
    this.executions.push(record);
    const fail = (message: string, gasName: string, timedOut: boolean, original?: unknown): never => {
      record.error = `${gasName}: ${message}`;
      record.timedOut = timedOut;
      throw new GasScriptError(message, gasName, fnName, kind, exec.id, timedOut, original);
    };
    try {
      let realm: Realm;
      try {
        realm = this.realmFor(opts.freshContext ?? this.opts.freshContextPerCall ?? true, record);
      } catch (e) {
        return translateError(e, exec, this.clock.now(), fail);
      }
      let result: unknown;
      try {
        const g = realm.ctx as Record<string, unknown>;
        if (script) {
          result = script.runInContext(realm.ctx, { timeout: this.vmTimeout(exec) });
        } else {
          const fn = g[fnName];
          if (typeof fn !== 'function') return fail(`Script function not found: ${fnName}`, 'Exception', false);
          const args = makeArgs(realm);
          Object.defineProperty(g, '__gasInvoke__', {
            value: () => (fn as (...a: unknown[]) => unknown)(...args),
            configurable: true,
            writable: true,
            enumerable: false,
          });
          result = INVOKE.runInContext(realm.ctx, { timeout: this.vmTimeout(exec) });
        }
      } catch (e) {
        return translateError(e, exec, this.clock.now(), fail);
      }
      if (exec.timedOut || this.clock.now() - exec.startedAt > exec.limitMs)
        return fail(TIME_LIMIT_MESSAGE, 'Exception', true);
      record.ok = true;
      return fromRealm(result);
    } finally {
      record.ms = this.clock.now() - exec.startedAt;
      this.locks.releaseAll(exec.locks);
      this.exec = null;
    }
  }

  private vmTimeout(exec: Execution): number {
    return Math.max(1, Math.ceil(exec.limitMs - (this.clock.now() - exec.startedAt)));
  }

  private realmFor(fresh: boolean, record: ExecutionRecord): Realm {
    if (!fresh && this.shared) return (this.lastRealm = this.shared);
    const t0 = performance.now();
    const realm = new Realm(`gas-${record.id}`);
    this.install(realm);
    for (const f of this.files) f.script.runInContext(realm.ctx, { timeout: this.vmTimeout(this.exec as Execution) });
    const ms = performance.now() - t0;
    record.loadMs = ms;
    this.stats.contextsCreated++;
    this.stats.loadMsTotal += ms;
    this.stats.lastLoadMs = ms;
    this.stats.maxLoadMs = Math.max(this.stats.maxLoadMs, ms);
    if (!fresh) this.shared = realm;
    return (this.lastRealm = realm);
  }

  private install(realm: Realm): void {
    const host = this.host;
    const g = realm.ctx as Record<string, unknown>;
    const addonName = this.opts.addonName ?? 'Add-on';
    g.UrlFetchApp = createUrlFetchApp(host, realm, this.urlFetch);
    g.CacheService = createCacheService(host, realm, this.caches, this.opts.cacheTtlOverMax ?? 'throw');
    g.PropertiesService = createPropertiesService(host, realm, this.properties);
    g.Utilities = createUtilities(host, realm);
    g.LockService = createLockService(host, realm, this.locks);
    g.HtmlService = createHtmlService(realm, this.dir);
    g.SpreadsheetApp = createSpreadsheetApp(host, realm, this.spreadsheet, this.ui, addonName);
    g.Charts = createCharts();
    g.Session = createSession(host, realm);
    g.ScriptApp = {
      ...createScriptApp(this.opts.installationSource ?? 'NONE'),
      ...createTriggerBuilders(this.host, realm, this.triggers),
    };
    g.console = createConsole(host);
    g.Logger = createLogger(host, this.logs, () => this.exec?.id);
    if (this.opts.virtualDate ?? true)
      (DATE_PATCH.runInContext(realm.ctx) as (now: () => number) => void)(() => this.clock.now());
  }
}

/** Creates a runtime. See GasRuntimeOptions; call `close()` when done. */
export function createGasRuntime(opts: GasRuntimeOptions): GasRuntime {
  return new GasRuntime(opts);
}

export { toClientValue } from './internal/clientValue';
