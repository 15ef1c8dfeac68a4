// ---- Schedules: a bulk lookup the hourly trigger runs daily or weekly, with a cap per run.
var DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
DAYS.forEach(function (d, i) { $('weekday').add(new Option(d, String(i), i === 1, i === 1)); });
for (var h = 0; h < 24; h++) $('hour').add(new Option((h < 10 ? '0' : '') + h + ':00', String(h), h === 7, h === 7));
function repeatValue() { return { every: $('repeat').value, weekday: Number($('weekday').value), hour: Number($('hour').value) }; }
// Times come from the server in the spreadsheet's zone, the zone a schedule's hour is in.
function lastRun(job, at) {
  if (!job) return 'No run yet.';
  var counts = fmt(job.written) + ' rows, ' + fmt(job.credits) + ' credits, ' + fmt(job.errors || 0) + ' errors';
  if (job.status === 'running') return 'Running since ' + at + ': ' + job.next + ' of ' + job.rows + ' rows so far (' + counts + ').';
  return 'Last run ' + at + ': ' + (job.status === 'done' ? 'done' : job.status) + ', ' + counts + '.' + (job.message ? ' ' + job.message : '');
}
function showSchedules(list) {
  var box = $('schedule-list');
  box.innerHTML = '';
  if (!list.length) { box.innerHTML = '<p class="muted">None yet: set up a lookup above, then \u201cSchedule this lookup\u201d.</p>'; return; }
  list.forEach(function (s) {
    var div = document.createElement('div');
    div.className = 'schedule';
    [['strong', s.what], ['span', s.where], ['span', s.when + ', at most ' + fmt(s.cap) + ' credits a run. Next: ' + s.nextLabel + '.'],
      ['span', lastRun(s.run, s.runLabel) + (s.skippedAt ? ' The run due ' + s.skippedAt + ' was skipped: the one before was still going.' : '')]].forEach(function (x) {
      var p = document.createElement('p');
      var el = document.createElement(x[0]);
      el.textContent = x[1];
      p.appendChild(el);
      div.appendChild(p);
    });
    var now = document.createElement('button');
    now.textContent = 'Run now';
    now.className = 'run-now';
    now.onclick = function () { runNow(s, now); };
    div.appendChild(now);
    var del = document.createElement('button');
    del.textContent = 'Delete';
    del.className = 'delete';
    del.onclick = function () {
      if (del.textContent === 'Delete') { del.textContent = 'Delete this schedule?'; del.className = 'delete danger'; return; }
      call('igScheduleDelete', s.id).then(function (l) { showSchedules(l); say('schedules-message', 'Deleted. What it wrote stays.', 'ok'); }, fail('schedules-message'));
    };
    div.appendChild(del);
    box.appendChild(div);
  });
}
// A run now, stepped from here like a bulk run; if the sidebar closes, the hourly trigger goes on with it.
function runNow(s, btn) {
  btn.disabled = true;
  say('schedules-message', 'Starting\u2026');
  var next = function (job) {
    say('schedules-message', (job.status === 'running' ? 'Running now: ' : 'Run now: ') + lastRun(job, 'now').replace(/^(Running since|Last run) now: /, ''), job.status === 'paused' ? 'error' : job.status === 'done' ? 'ok' : '');
    if (job.status === 'running') return call('igScheduleStep', s.id, job.id).then(next);
    loadSchedules();
    loadHistory();
    refreshBalance();
  };
  call('igScheduleRunNow', s.id).then(next).catch(function (e) { btn.disabled = false; fail('schedules-message')(e); });
}
function loadSchedules() { return call('igSchedules').then(showSchedules, fail('schedules-message')); }
$('repeat').onchange = function () { $('weekday').hidden = $('repeat').value === 'daily'; invalidatePreview(); };
$('weekday').onchange = invalidatePreview;
$('hour').onchange = invalidatePreview;
$('cap').oninput = invalidatePreview;
$('schedule-preview').onclick = function () {
  say('schedule-text', 'Counting…');
  call('igSchedulePreview', request(), repeatValue(), $('cap').value).then(function (p) {
    var per = fmt(p.perRun) + ' credits per run at most (' + p.targets + ' target' + (p.targets === 1 ? '' : 's') + ' \u00d7 ' + p.creditsEach +
      (p.uncapped > p.perRun ? ', cut to the cap; ' + fmt(p.uncapped) + ' uncapped' : '') + ')' +
      (p.runsForAll > 1 ? '; each run continues where the last one stopped, so every target is refreshed once every ' + p.runsForAll + ' runs' : '');
    say('schedule-text', p.range + ', ' + p.when + ': ' + per + ', about ' + fmt(p.perMonth) + ' a month (' + p.runsPerMonth + ' runs). First run: ' + p.nextLabel + '.' +
      (typeof p.balance === 'number' ? ' You have ' + fmt(p.balance) + '.' : '') + ' Answers younger than the freshness setting and half the period are reused (free).');
    $('schedule-save').disabled = false;
  }, function (e) { $('schedule-save').disabled = true; fail('schedule-text')(e); });
};
$('schedule-save').onclick = function () {
  $('schedule-save').disabled = true;
  call('igScheduleSave', request(), repeatValue(), $('cap').value).then(function (l) {
    showSchedules(l);
    say('schedule-text', 'Saved: it runs in the background from ' + l[l.length - 1].nextLabel + ' (listed under Schedules).', 'ok');
    loadHistory();
  }, fail('schedule-text'));
};

// ---- History: the growth view of a history sheet (a sheet with Sheets' own line chart).
var histories = [];
function showFields() {
  var h = histories.filter(function (x) { return x.name === $('history-sheet').value; })[0];
  var sel = $('history-field');
  sel.innerHTML = '';
  (h ? h.fields : []).forEach(function (f) { sel.add(new Option(f, f)); });
}
function loadHistory() {
  return call('igHistoryChoices').then(function (list) {
    histories = list;
    $('history-none').hidden = list.length > 0;
    $('history-form').hidden = !list.length;
    var sel = $('history-sheet');
    var was = sel.value;
    sel.innerHTML = '';
    list.forEach(function (h) { sel.add(new Option(h.name, h.name, false, h.name === was)); });
    showFields();
  }, fail('history-message'));
}
$('history-sheet').onchange = showFields;
$('growth').onclick = function () {
  say('history-message', 'Building…');
  call('igGrowthView', { sheet: $('history-sheet').value, field: $('history-field').value, accounts: $('history-accounts').value }).then(function (g) {
    say('history-message', 'Written to \u201c' + g.sheet + '\u201d: ' + g.accounts + ' accounts, ' + g.snapshots + ' snapshots, a chart of ' + g.charted + '.', 'ok');
  }, fail('history-message'));
};
