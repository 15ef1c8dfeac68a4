/**
 * The server functions the sidebar calls (google.script.run), listed once in SIDEBAR_API: the
 * bundle exposes this object, the generated Code.js gets one top-level stub per entry (codegen.ts)
 * and the build checks that every name the sidebar's script calls is here. Everything the sidebar receives
 * about the key is its masked form.
 */
import { DASHBOARD_URL, DEFAULT_BASE_URL, counted } from '@igdata/core';
import { cancel, resume, start } from './bulk/control';
import { jobStore, stalled } from './bulk/job';
import { preview } from './bulk/plan';
import { readBalance } from './engine/balance';
import { keyRefused } from './engine/error-facts';
import { clientConfig } from './engine/messages';
import { gasContext } from './gas/context';
import { growthView, historyChoices } from './gas/growth-sheet';
import { gasIO } from './gas/http';
import { ensureKeepTrigger } from './gas/keep-trigger';
import { refreshSelection } from './gas/refresh';
import {
  currentUserEmail,
  currentUserKey,
  installedAs,
  maskKey,
  readSettings,
  removeKey,
  saveBaseUrl,
  saveFreshHours,
  saveKey,
} from './gas/settings';
import { activeSelection } from './gas/ui';
import { exportUsage } from './gas/usage';
import type { Context } from './context/context';
import { recordUsage } from './context/usage-log';
import { OWNERS } from './owners';
import { runNow } from './schedule/start';
import { deleteSchedule, previewSchedule, saveSchedule, scheduleViews } from './schedule/schedules';
import { stepScheduled, stepSidebarRun } from './schedule/step';
import { previewVet, startVet, vetChoices } from './vet/vet';
import { createTracker, deleteTracker, previewTracker, stepTracker, trackerViews } from './tracker/trackers';
import { DEFAULT_FIELDS, trackableFields } from './tracker/read';
import { createWatch, deleteWatch, previewWatch, watchViews } from './watch/watches';
import { addAlert, alertViews, deleteAlert } from './tracker/alerts';
import {
  benchmarkChoices,
  benchmarkViews,
  createBenchmark,
  deleteBenchmark,
  previewBenchmark,
  stepBenchmark,
} from './benchmark/benchmarks';

function settingsView() {
  const s = readSettings();
  const you = currentUserEmail();
  const yourKey = currentUserKey();
  return {
    hasKey: !!s.apiKey,
    masked: maskKey(s.apiKey),
    /** Whose key this user's runs use: their own ("only for me"), the sheet's, or none. */
    scope: s.keyScope ?? (s.apiKey ? 'everyone' : ''),
    /** Whether the sheet has a shared key: formulas use that one alone (they cannot read a personal key). */
    sharedKey: !!s.sharedKey,
    /** The name typed by whoever saved the shared key (theirs to choose: Apps Script does not confirm it). */
    setBy: s.keySetBy,
    setAt: s.keySetAt,
    /** Whether Apps Script knows the shared key was saved by this user (its temporary user key, 30 days). */
    setByYou: !!s.keySetByUser && !!yourKey && s.keySetByUser === yourKey,
    you,
    /** `bound`: every editor can open the script and read its properties; `addon`: installed from the Marketplace. */
    installedAs: installedAs(),
    baseUrl: s.baseUrl,
    defaultBaseUrl: DEFAULT_BASE_URL,
    /** Where keys are created (the sidebar links to it when there is no key or a key is refused). */
    dashboardUrl: DASHBOARD_URL,
    /** Hours an answer is reused (1-720). */
    freshHours: s.freshHours,
  };
}

/** Tests a key (the one typed, or the stored one) against the free credits endpoint. */
function testKey(key?: string): { ok: boolean; balance?: number; message: string; code?: string } {
  const s = readSettings();
  const apiKey = String(key ?? '').trim() || s.apiKey;
  const b = readBalance({ config: clientConfig({ apiKey, baseUrl: s.baseUrl }), io: gasIO() });
  return b.ok ? { ok: true, balance: b.balance, message: `The key works: ${counted(b.balance, 'credit')} left.` } : b;
}

/** A server function that runs `f` in this execution's context. */
const inContext =
  <A extends unknown[], R>(f: (ctx: Context, ...args: A) => R) =>
  (...args: A): R =>
    f(gasContext(), ...args);

/** A change, answered with what the sidebar shows of it as it is now (it redraws that). */
const thenShow =
  <A extends unknown[], V>(change: (ctx: Context, ...args: A) => unknown, show: (ctx: Context) => V) =>
  (...args: A): V => {
    const ctx = gasContext();
    change(ctx, ...args);
    return show(ctx);
  };

/** A settings change, answered with the settings as they are now. */
const thenSettings =
  <A extends unknown[]>(change: (...args: A) => unknown) =>
  (...args: A) => {
    change(...args);
    return settingsView();
  };

/** The document's bulk run, if any (one the hourly runs stopped moving says so: job.ts stalled). */
const currentJob = () => {
  const ctx = gasContext();
  const job = jobStore(ctx.props).load();
  return job && stalled(job, ctx.now(), (t) => ctx.book.formatTime(t));
};

/** Server functions by their global name in Code.js (what google.script.run calls). */
export const SIDEBAR_API = {
  igSidebarState: () => {
    // Opening the sidebar (a full-authorisation execution) installs the hourly keep trigger once.
    ensureKeepTrigger();
    // The endpoints the sidebar offers are written into Sidebar.html by the build (sidebar-endpoints.ts).
    return { settings: settingsView(), job: currentJob() };
  },
  /** The freshness setting: answers fetched within this many hours are reused (free). */
  igSetFreshness: thenSettings(saveFreshHours),
  igRefreshSelection: refreshSelection,
  /** Credits by day and by what spent them; the sidebar sums the month against the balance. */
  igUsage: () => {
    const ctx = gasContext();
    return ctx.lock.withLock(() => recordUsage(ctx));
  },
  igExportUsage: exportUsage,
  /** The answer carries the service's error code: the sidebar words key problems by it. */
  igTestKey: testKey,
  /** Saves the key after testing it; a key the service refuses is not stored. */
  igSetKey: (key: string, label?: string, scope?: string) => {
    const clean = String(key ?? '').trim();
    const test = testKey(clean || '\u0000');
    const saved = test.ok || !keyRefused(test.code);
    if (saved)
      saveKey(
        clean,
        String(label ?? '')
          .trim()
          .slice(0, 120) || currentUserEmail(),
        scope === 'mine' ? 'mine' : 'everyone',
      );
    return { ...test, saved, settings: settingsView() };
  },
  igDeleteKey: thenSettings(removeKey),
  igSetBaseUrl: thenSettings(saveBaseUrl),
  igGetBalance: () => {
    const b = readBalance(gasContext().client);
    return b.ok ? { balance: b.balance } : { message: b.message };
  },
  igSelectionInfo: activeSelection,
  igBulkPreview: inContext(preview),
  igBulkStart: inContext(start),
  // (not step itself: its budget and slot are not the sidebar's to choose; its owners' hooks follow:
  // a vet's next check)
  igBulkStep: (jobId: string) => stepSidebarRun(gasContext(), OWNERS, jobId),
  igBulkCancel: inContext(cancel),
  igBulkResume: inContext(resume),
  igBulkStatus: currentJob,
  /** Scheduled lookups: cost per run and per month, save, list (with each one's last run), delete. */
  igSchedulePreview: inContext(previewSchedule),
  igScheduleSave: thenShow(saveSchedule, scheduleViews),
  igSchedules: inContext(scheduleViews),
  igScheduleDelete: thenShow(deleteSchedule, scheduleViews),
  /**
   * Runs a schedule now, stepped by the sidebar like a bulk run (the hourly trigger goes on with it if the sidebar
   * closes).
   */
  igScheduleRunNow: inContext(runNow),
  igScheduleStep: (id: string, jobId: string) => stepScheduled(gasContext(), OWNERS, id, jobId),
  /**
   * Track these accounts: the fields offered, the cost preview, create (first run stepped by the sidebar), step, list,
   * delete.
   */
  igTrackerChoices: () => ({ fields: trackableFields(), defaults: DEFAULT_FIELDS }),
  igTrackerPreview: inContext(previewTracker),
  igTrackerCreate: inContext(createTracker),
  igTrackerStep: inContext(stepTracker),
  igTrackers: inContext(trackerViews),
  igTrackerDelete: thenShow(deleteTracker, trackerViews),
  /**
   * Alerts on a tracker: its rules (with what the last run's check found and whether its email went), add one in
   * words with its addresses, delete one.
   */
  igAlerts: inContext(alertViews),
  igAlertAdd: inContext(addAlert),
  igAlertDelete: inContext(deleteAlert),
  /**
   * Benchmark these accounts: the measures offered, the cost preview (what is kept is free), create (its first run
   * stepped by the sidebar), step, list, delete (its report and history sheets stay).
   */
  igBenchmarkChoices: benchmarkChoices,
  igBenchmarkPreview: inContext(previewBenchmark),
  igBenchmarkCreate: inContext(createBenchmark),
  igBenchmarkStep: inContext(stepBenchmark),
  igBenchmarks: inContext(benchmarkViews),
  igBenchmarkDelete: thenShow(deleteBenchmark, benchmarkViews),
  /**
   * Vet these accounts: the checks offered with their prices, the cost preview, start (its checks
   * are then stepped as the bulk run).
   */
  igVetChoices: vetChoices,
  igVetPreview: inContext(previewVet),
  igVetStart: inContext(startVet),
  /** Watch a hashtag: the cost from the tags' newest pages, create (its first run now), list, delete. */
  igWatchPreview: inContext(previewWatch),
  igWatchCreate: thenShow(createWatch, watchViews),
  igWatches: inContext(watchViews),
  igWatchDelete: thenShow(deleteWatch, watchViews),
  /** History sheets with their fields, and the growth view (a sheet with Sheets' own line chart). */
  igHistoryChoices: historyChoices,
  igGrowthView: growthView,
};
