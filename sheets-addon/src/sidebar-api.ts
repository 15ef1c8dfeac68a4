/**
 * The server functions the sidebar calls (google.script.run), listed once in SIDEBAR_API: the
 * bundle exposes this object, the generated Code.js gets one top-level stub per entry (codegen.ts)
 * and the build checks that every name the sidebar's script calls is here. Everything the sidebar receives
 * about the key is its masked form.
 */
import { DASHBOARD_URL, DEFAULT_BASE_URL } from '@igdata/core';
import { cancel, resume, start, step } from './bulk/control';
import { jobStore } from './bulk/job';
import type { BulkRequest } from './bulk/plan';
import { preview } from './bulk/plan';
import { readBalance } from './engine/balance';
import { keyRefused } from './engine/error-facts';
import { clientConfig } from './engine/messages';
import { gasContext } from './gas/context';
import { growthView, historyChoices } from './gas/growth-sheet';
import { gasIO } from './gas/http';
import { ensureKeepTrigger } from './gas/keep-trigger';
import { refreshSelection } from './gas/refresh';
import { currentUserEmail, maskKey, readSettings, removeKey, saveBaseUrl, saveFreshHours, saveKey } from './gas/settings';
import { activeSelection } from './gas/ui';
import { exportUsage } from './gas/usage';
import { recordUsage } from './run/usage-log';
import { runNow } from './schedule/start';
import { deleteSchedule, previewSchedule, saveSchedule, scheduleViews } from './schedule/schedules';
import type { TrackerRequest } from './tracker/trackers';
import { DEFAULT_FIELDS, afterRunStep, createTracker, deleteTracker, previewTracker, stepTracker, trackableFields, trackerViews } from './tracker/trackers';

function settingsView() {
  const s = readSettings();
  const you = currentUserEmail();
  return {
    hasKey: !!s.apiKey,
    masked: maskKey(s.apiKey),
    setBy: s.keySetBy,
    setAt: s.keySetAt,
    you,
    /** True when someone else's key (and credits) is used by this sheet. */
    othersKey: !!s.apiKey && !!s.keySetBy && !!you && s.keySetBy !== you,
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
  return b.ok ? { ok: true, balance: b.balance, message: `The key works: ${b.balance.toLocaleString('en-US')} credits left.` } : b;
}

/** Server functions by their global name in Code.js (what google.script.run calls). */
export const SIDEBAR_API = {
  igSidebarState: () => {
    // Opening the sidebar (a full-authorisation execution) installs the hourly keep trigger once.
    ensureKeepTrigger();
    // The endpoints the sidebar offers are written into Sidebar.html by the build (sidebar-endpoints.ts).
    return { settings: settingsView(), job: jobStore(gasContext().props).load() };
  },
  /** The freshness setting: answers fetched within this many hours are reused (free). */
  igSetFreshness: (hours: number | string) => {
    saveFreshHours(hours);
    return settingsView();
  },
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
  igSetKey: (key: string, label?: string) => {
    const clean = String(key ?? '').trim();
    const test = testKey(clean || '\u0000');
    if (!test.ok && keyRefused(test.code)) return { ...test, saved: false, settings: settingsView() };
    saveKey(clean, String(label ?? '').trim().slice(0, 120) || currentUserEmail());
    return { ...test, saved: true, settings: settingsView() };
  },
  igDeleteKey: () => {
    removeKey();
    return settingsView();
  },
  igSetBaseUrl: (url: string) => {
    saveBaseUrl(url);
    return settingsView();
  },
  igGetBalance: () => {
    const b = readBalance(gasContext().client);
    return b.ok ? { balance: b.balance } : { message: b.message };
  },
  igSelectionInfo: activeSelection,
  igBulkPreview: (req: BulkRequest) => preview(gasContext(), req),
  igBulkStart: (req: BulkRequest) => start(gasContext(), req),
  igBulkStep: (jobId: string) => step(gasContext(), jobId),
  igBulkCancel: (jobId: string) => cancel(gasContext(), jobId),
  igBulkResume: (jobId: string) => resume(gasContext(), jobId),
  igBulkStatus: () => jobStore(gasContext().props).load(),
  /** Scheduled lookups: cost per run and per month, save, list (with each one's last run), delete. */
  igSchedulePreview: (req: BulkRequest, repeat: unknown, cap: unknown) => previewSchedule(gasContext(), req, repeat, cap),
  igScheduleSave: (req: BulkRequest, repeat: unknown, cap: unknown) => {
    const ctx = gasContext();
    saveSchedule(ctx, req, repeat, cap);
    return scheduleViews(ctx);
  },
  igSchedules: () => scheduleViews(gasContext()),
  igScheduleDelete: (id: string) => {
    const ctx = gasContext();
    deleteSchedule(ctx, String(id));
    return scheduleViews(ctx);
  },
  /** Runs a schedule now, stepped by the sidebar like a bulk run (the hourly trigger goes on with it if the sidebar closes). */
  igScheduleRunNow: (id: string) => runNow(gasContext(), String(id)),
  igScheduleStep: (id: string, jobId: string) => {
    const ctx = gasContext();
    const job = step(ctx, String(jobId), undefined, String(id));
    if (job.status !== 'running') afterRunStep(ctx, String(id)); // a tracker's view follows its runs
    return job;
  },
  /** Track these accounts: the fields offered, the cost preview, create (first run stepped by the sidebar), step, list, delete. */
  igTrackerChoices: () => ({ fields: trackableFields(), defaults: DEFAULT_FIELDS }),
  igTrackerPreview: (req: TrackerRequest) => previewTracker(gasContext(), req),
  igTrackerCreate: (req: TrackerRequest) => createTracker(gasContext(), req),
  igTrackerStep: (id: string) => stepTracker(gasContext(), String(id)),
  igTrackers: () => trackerViews(gasContext()),
  igTrackerDelete: (id: string) => {
    const ctx = gasContext();
    deleteTracker(ctx, String(id));
    return trackerViews(ctx);
  },
  /** History sheets with their fields, and the growth view (a sheet with Sheets' own line chart). */
  igHistoryChoices: historyChoices,
  igGrowthView: growthView,
};
