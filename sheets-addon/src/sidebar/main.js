// Loading the sidebar, and reading again what time changed around it.
// Time moved on around the sidebar (the Sheets preview's clock): the hourly trigger may have run
// schedules and background bulk steps, so everything they change is read again.
window.addEventListener('message', function (e) {
  if (!e.data || !e.data.igdataRefresh) return;
  if (!state.running) call('igBulkStatus').then(showJob, fail('bulk-message'));
  loadSchedules();
  loadHistory();
  loadUsage();
  balanceIfStale(0);
});


call('igSidebarState').then(function (s) {
  state.endpoints = IG_ENDPOINTS; // written into Sidebar.html by the build
  showSettings(s.settings);
  showEndpoints();
  showJob(s.job);
  if (s.settings.hasKey) refreshBalance();
  refreshSelection();
  loadUsage();
  loadSchedules();
  loadHistory();
}, fail('key-message'));
