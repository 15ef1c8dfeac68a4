// The sidebar's entry (scripts/build/sheets.mjs bundles it into Sidebar.html): wires the views
// (nav.ts: the home list of jobs and settings, one section at a time), loads what the server
// knows, and reads again what time changed around it.
import { call } from './api';
import { loadBenchmarks, refreshBenchSelection, wireBenchmark } from './benchmark';
import { fail, state, type Endpoint } from './base';
import { refreshSelection, showEndpoints, showJob, wireBulk } from './bulk';
import { loadHistory, wireHistory } from './history';
import { hasAKey, show, wireNav } from './nav';
import { loadSchedules, wireSchedules } from './schedules';
import { balanceIfStale, refreshBalance, showSettings, wireSettings } from './settings';
import { loadUsage, wireUsage } from './usage';
import { loadTrackers, refreshTrackerSelection, wireTracker } from './tracker';
import { refreshVetSelection, wireVet } from './vet';
import { loadWatches, wireWatch } from './watch';

/** The bulk lookup's endpoints: the build writes them in (esbuild `define`, from sidebar-endpoints.ts). */
declare const IG_ENDPOINTS: Endpoint[];

// Before the wiring: the tracker's picker titles its groups with these endpoints' summaries.
state.endpoints = IG_ENDPOINTS;
wireNav();
wireSettings();
wireTracker();
wireBenchmark();
wireVet();
wireWatch();
wireBulk();
wireUsage();
wireSchedules();
wireHistory();

// Time moved on around the sidebar (the Sheets preview's clock): the hourly trigger may have run
// schedules and background bulk steps, so everything they change is read again.
window.addEventListener('message', (e) => {
  if (!e.data || !e.data.igdataRefresh) return;
  if (!state.running) call('igBulkStatus').then(showJob, fail('bulk-message'));
  loadTrackers();
  loadBenchmarks();
  loadWatches();
  loadSchedules();
  loadHistory();
  loadUsage();
  balanceIfStale(0);
});

call('igSidebarState').then((s) => {
  showSettings(s.settings);
  // With a key the work comes first; without one, the key form (nothing else works before it).
  show(hasAKey(s.settings) ? 'menu' : 'settings');
  showEndpoints();
  showJob(s.job);
  if (s.settings.hasKey) refreshBalance();
  refreshSelection();
  refreshTrackerSelection();
  refreshBenchSelection();
  refreshVetSelection();
  loadTrackers();
  loadBenchmarks();
  loadWatches();
  loadUsage();
  loadSchedules();
  loadHistory();
}, fail('key-message'));
