// IG Data sidebar: talks to the server functions of Code.js through google.script.run.
// Small and dependency-free on purpose. The API key never comes back from the server: only a mask.
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var state = { endpoints: [], job: null, previewed: false, cancelRequested: false, running: false, settings: null, balanceAt: 0 };
  /** While the sidebar is open, formulas spend credits: the balance is read again this often (free). */
  var BALANCE_EVERY_MS = 60000;

  function call(name) {
    var args = Array.prototype.slice.call(arguments, 1);
    return new Promise(function (resolve, reject) {
      var runner = google.script.run.withSuccessHandler(resolve).withFailureHandler(function (e) {
        reject(e && e.message ? e : new Error(String(e)));
      });
      runner[name].apply(runner, args);
    });
  }
  function say(id, text, kind) {
    var el = $(id);
    el.textContent = text || '';
    el.className = 'msg' + (kind ? ' ' + kind : '');
  }
  function fmt(n) { return typeof n === 'number' && isFinite(n) ? n.toLocaleString('en-US') : '–'; }
  function errText(e) { return String(e && e.message || e).replace(/^(Exception|Error): /, ''); }

  function showSettings(s) {
    state.settings = s;
    var link = $('dashboard-link');
    link.href = s.dashboardUrl || '';
    link.textContent = String(s.dashboardUrl || '').replace(/^https?:\/\//, '');
    $('get-key').hidden = s.hasKey || !s.dashboardUrl;
    if (s.hasKey) {
      var when = s.setAt ? ' on ' + s.setAt.slice(0, 10) : '';
      $('key-status').textContent = 'Key ' + s.masked + ' is set' + (s.setBy ? ' by ' + s.setBy : '') + when + '.';
      var owner = $('key-owner');
      owner.hidden = false;
      owner.textContent = s.othersKey
        ? 'This sheet spends the credits of ' + s.setBy + ', who set the key. Replacing it makes the sheet use yours.'
        : 'Everyone who edits this sheet uses this key: its formulas spend ' + (s.setBy ? s.setBy + '\u2019s' : 'the key owner\u2019s') + ' credits.';
    } else {
      $('key-status').textContent = 'No API key is set. Paste one below; it is stored in this document\u2019s properties and shown only masked.';
      $('key-owner').hidden = true;
    }
    $('remove-key').disabled = !s.hasKey;
    $('fresh').value = String(s.freshHours);
    $('base-url').value = s.baseUrl || '';
    $('base-url').placeholder = s.defaultBaseUrl;
    if (!$('key-label').value && s.you) $('key-label').value = s.you;
  }

  function endpointById(id) {
    for (var i = 0; i < state.endpoints.length; i++) if (state.endpoints[i].id === id) return state.endpoints[i];
    return null;
  }
  function showEndpoints() {
    var sel = $('endpoint');
    sel.innerHTML = '';
    state.endpoints.forEach(function (e) {
      var o = document.createElement('option');
      o.value = e.id;
      o.textContent = e.fn + ' \u2013 ' + e.summary + ' (' + e.cost + ')';
      sel.appendChild(o);
    });
    showParams();
  }
  function showParams() {
    var e = endpointById($('endpoint').value);
    var box = $('params');
    box.innerHTML = '';
    if (!e) return;
    e.params.forEach(function (p) {
      var l = document.createElement('label');
      l.textContent = p.name + (p.required ? '' : ' (optional)');
      l.htmlFor = 'param-' + p.name;
      var i = document.createElement('input');
      i.type = 'text';
      i.id = 'param-' + p.name;
      i.dataset.param = p.name;
      i.placeholder = p.default !== undefined && p.default !== null ? String(p.default) : '';
      i.title = p.description;
      box.appendChild(l);
      box.appendChild(i);
    });
    $('fields').placeholder = e.columns.join(',');
    // Lists: items per target, and many rows per target can only go to a new sheet.
    var list = e.shape === 'list';
    $('limit-box').hidden = !list;
    $('limit').disabled = !list || !e.paginated;
    $('limit-note').textContent = (e.paginated ? 'About ' + e.pageSize + ' items a page. ' : 'One page per target. ') +
      'Lists go to a new sheet: one row per item, the target in column A.';
    if (list) $('output-sheet').checked = true;
    $('output-beside').disabled = list;
    $('output-history').disabled = list;
    invalidatePreview();
  }
  function invalidatePreview() {
    state.previewed = false;
    $('run').disabled = true;
    say('preview-text', '');
    $('output-note').hidden = !$('output-history').checked;
    $('schedule-save').disabled = true;
    say('schedule-text', '');
  }
  function request() {
    var params = {};
    Array.prototype.forEach.call(document.querySelectorAll('#params input'), function (i) {
      if (i.value.trim() !== '') params[i.dataset.param] = i.value.trim();
    });
    var output = $('output-sheet').checked ? 'sheet' : $('output-history').checked ? 'history' : 'beside';
    var r = { endpoint: $('endpoint').value, params: params, fields: $('fields').value, output: output };
    var e = endpointById(r.endpoint);
    if (e && e.shape === 'list' && e.paginated && $('limit').value.trim() !== '') r.limit = $('limit').value.trim();
    return r;
  }

  function showJob(job) {
    state.job = job;
    var box = $('job');
    if (!job) { box.hidden = true; return; }
    box.hidden = false;
    var pct = job.rows ? Math.round((job.next / job.rows) * 100) : 100;
    $('progress-fill').style.width = pct + '%';
    $('progress').setAttribute('aria-valuenow', String(pct));
    var text = job.next + ' of ' + job.rows + ' rows (' + pct + '%), ' +
      (job.list ? fmt(job.items) + ' row' + (job.items === 1 ? '' : 's') + ' written, ' : '') + fmt(job.credits) + ' credits spent, ' + job.requests + ' requests, ' + job.cached + ' from cache';
    if (job.skipped) text += ', ' + job.skipped + ' already written';
    if (job.duplicates) text += ', ' + job.duplicates + ' repeated target' + (job.duplicates === 1 ? '' : 's') + ' skipped';
    if (job.status === 'done') text = 'Done: ' + text + '.';
    else if (job.status === 'cancelled') text = 'Cancelled at ' + text + '.';
    else if (job.status === 'paused') text = 'Paused at ' + text + '.';
    say('progress-text', text, job.status === 'done' ? 'ok' : '');
    if (job.message) say('bulk-message', job.message, job.status === 'paused' ? 'error' : '');
    else if (job.status === 'done') say('bulk-message', 'Written to ' + outputPlace(job) + '.', 'ok');
    var open = job.status !== 'done';
    // A run the sidebar is not stepping (it was closed) goes on through the hourly trigger.
    if (job.status === 'running' && !state.running) say('bulk-message', 'Going on in the background: Apps Script runs it about once an hour while this sidebar is closed. Resume continues it here now.');
    else if (job.status === 'running') say('bulk-message', 'You can close this sidebar: the run goes on in the background, about once an hour.');
    $('cancel').hidden = !(job.status === 'running' && state.running);
    $('resume').hidden = !(open && !state.running);
    $('resume').textContent = job.status === 'running' ? 'Continue here' : 'Resume';
  }

  function colName(n) { var s = ''; for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s; return s; }
  /** Where a run wrote: a new sheet is named, so it can be found among the tabs. */
  function outputPlace(job) {
    if (job.history) return 'the history sheet \u201c' + job.outSheet + '\u201d (a dated row per target)';
    if (job.copyTargets || job.list) return 'the new sheet \u201c' + job.outSheet + '\u201d (its tab is at the bottom of the window)';
    var n = (job.fields || []).length || 1;
    return 'columns ' + colName(job.outCol) + ':' + colName(job.outCol + n - 1) + ' of ' + job.outSheet;
  }

  function loop() {
    if (!state.job) return;
    if (state.cancelRequested) {
      state.cancelRequested = false;
      state.running = false;
      return call('igBulkCancel', state.job.id).then(showJob, fail('bulk-message'));
    }
    return call('igBulkStep', state.job.id).then(function (job) {
      state.running = job.status === 'running';
      showJob(job);
      // Yield to the page between steps, so a click on Cancel is seen before the next step.
      if (job.status === 'running') return new Promise(function (r) { setTimeout(r, 0); }).then(loop);
      if (job.status === 'done') {
        refreshBalance();
        if (job.history) loadHistory();
      }
    }, function (e) {
      state.running = false;
      showJob(state.job);
      say('bulk-message', errText(e) + ' Press Resume to continue: finished rows are kept and not billed again.', 'error');
    });
  }

  function fail(id) { return function (e) { say(id, errText(e), 'error'); }; }
  function showBalance(n) {
    state.balance = n;
    if (state.usage) showUsage(state.usage);
    $('balance').textContent = fmt(n) + ' credits';
    state.balanceAt = Date.now();
    $('balance-at').textContent = 'at ' + new Date().toTimeString().slice(0, 5);
  }
  // Usage: credits by day (UTC) and by what spent them (a formula: function and cell; a bulk run),
  // the last 7 days in detail, this month's total against the balance.
  function usageRows(u) {
    var rows = [];
    Object.keys(u).sort().reverse().forEach(function (d) {
      Object.keys(u[d]).sort().forEach(function (what) { rows.push([d, what, u[d][what]]); });
    });
    return rows;
  }
  function showUsage(u) {
    state.usage = u;
    var month = new Date().toISOString().slice(0, 7);
    var total = 0;
    var byDay = {};
    usageRows(u).forEach(function (r) {
      if (r[0].slice(0, 7) === month) total += r[2];
      byDay[r[0]] = (byDay[r[0]] || 0) + r[2];
    });
    $('usage-month').textContent = 'This month: ' + fmt(total) + ' credits spent' +
      (typeof state.balance === 'number' ? '; ' + fmt(state.balance) + ' left.' : '.');
    var table = $('usage-days');
    table.innerHTML = '';
    var row = function (cls, a, b) {
      var tr = table.insertRow();
      tr.className = cls;
      tr.insertCell().textContent = a;
      var n = tr.insertCell();
      n.className = 'n';
      n.textContent = fmt(b);
    };
    Object.keys(byDay).sort().reverse().slice(0, 7).forEach(function (d) {
      row('day', d, byDay[d]);
      Object.keys(u[d]).sort().forEach(function (what) { row('what', what, u[d][what]); });
    });
    if (!table.rows.length) $('usage-month').textContent += ' Nothing spent yet.';
  }
  function loadUsage() {
    return call('igUsage').then(showUsage, fail('usage-message'));
  }
  function refreshBalance() {
    return call('igGetBalance').then(function (b) {
      if (b.balance !== undefined && b.balance !== null) showBalance(b.balance);
      else $('balance').textContent = b.message || '–';
    }, fail('key-message'));
  }
  // Formulas in the sheet spend credits without the sidebar knowing: read the balance again every
  // minute while the sidebar is visible, when it gets the focus back, and when the page around it
  // asks (the Sheets preview does after each formula).
  function balanceIfStale(ms) {
    if (state.settings && state.settings.hasKey && Date.now() - state.balanceAt >= ms) refreshBalance();
  }
  setInterval(function () { if (document.visibilityState !== 'hidden') balanceIfStale(BALANCE_EVERY_MS - 1000); }, BALANCE_EVERY_MS);
  window.addEventListener('focus', function () { balanceIfStale(5000); });
  window.addEventListener('message', function (e) { if (e.data && e.data.igdataRefreshBalance) balanceIfStale(0); });
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

  /**
   * The server's key messages end with "Set it in Extensions > IG Data > Settings": right for a
   * cell, wrong here, where the user is in Settings. Here they say what happened to the key and
   * what to do next, chosen by the service's error code (never by the message's text).
   */
  function keyMessage(r, typed, saving) {
    var where = state.settings && state.settings.dashboardUrl ? ' from your dashboard at ' + state.settings.dashboardUrl.replace(/^https?:\/\//, '') : '';
    var kept = state.settings && state.settings.hasKey ? ' The sheet still uses the key ' + state.settings.masked + '.' : '';
    if (r.code === 'missing_api_key') {
      return (saving ? 'Nothing was saved: paste your API key in the box above first.' : 'Paste a key in the box above to test it.') + kept + ' (Not charged.)';
    }
    if (r.code === 'invalid_api_key') {
      return (saving ? 'This key was not saved: the service does not accept it (invalid API key).' : 'The service does not accept this key (invalid API key).') +
        ' Copy the whole key again' + where + ' and paste it above.' + kept + ' (Not charged.)';
    }
    return saving && r.saved ? 'Saved, but the key could not be tested: ' + r.message : r.message;
  }
  function refreshSelection() {
    return call('igSelectionInfo').then(function (s) {
      $('selection').textContent = s ? s.a1 + ' (' + s.rows + ' rows' + (s.columns > 1 ? ', select one column' : '') + ')' : 'none';
      invalidatePreview();
    }, fail('bulk-message'));
  }

  $('save-key').onclick = function () {
    var key = $('key').value;
    say('key-message', 'Testing the key…');
    call('igSetKey', key, $('key-label').value).then(function (r) {
      // a refused key stays in the box, to be corrected; a saved one never stays on screen
      if (r.saved !== false) $('key').value = '';
      showSettings(r.settings);
      say('key-message', r.ok ? 'Saved. ' + r.message : keyMessage(r, key, true), r.ok ? 'ok' : 'error');
      if (r.ok) showBalance(r.balance);
    }, fail('key-message'));
  };
  $('test-key').onclick = function () {
    say('key-message', 'Testing…');
    var typed = $('key').value;
    call('igTestKey', typed).then(function (r) {
      say('key-message', r.ok ? r.message : keyMessage(r, typed, false), r.ok ? 'ok' : 'error');
      if (r.ok) showBalance(r.balance);
    }, fail('key-message'));
  };
  // Removing the key stops every formula of the sheet: ask first.
  $('remove-key').onclick = function () {
    say('key-message', '');
    $('remove-confirm').hidden = false;
    $('remove-key').disabled = true;
    $('remove-no').focus();
  };
  $('remove-no').onclick = function () {
    $('remove-confirm').hidden = true;
    $('remove-key').disabled = !(state.settings && state.settings.hasKey);
    say('key-message', 'The key was kept.');
  };
  $('remove-yes').onclick = function () {
    $('remove-confirm').hidden = true;
    call('igDeleteKey').then(function (s) {
      showSettings(s);
      $('balance').textContent = '–';
      $('balance-at').textContent = '';
      say('key-message', 'The key was removed from this sheet.', 'ok');
    }, fail('key-message'));
  };
  $('usage-refresh').onclick = loadUsage;
  $('usage-export').onclick = function () {
    call('igUsage').then(function (u) {
      showUsage(u);
      return call('igExportUsage', [['Day', 'What', 'Credits']].concat(usageRows(u)));
    }).then(function () { say('usage-message', 'Written to the sheet \u201cIG Data usage\u201d.', 'ok'); }, fail('usage-message'));
  };
  $('fresh').onchange = function () {
    call('igSetFreshness', $('fresh').value).then(function (s) {
      showSettings(s);
      say('fresh-message', 'Saved: answers are reused for ' + $('fresh').selectedOptions[0].textContent + '.', 'ok');
    }, fail('fresh-message'));
  };
  $('save-base-url').onclick = function () {
    call('igSetBaseUrl', $('base-url').value).then(function (s) {
      showSettings(s);
      say('base-url-message', 'Saved: ' + s.baseUrl, 'ok');
    }, fail('base-url-message'));
  };
  $('refresh-balance').onclick = refreshBalance;
  $('use-selection').onclick = refreshSelection;
  $('endpoint').onchange = showParams;
  $('fields').oninput = invalidatePreview;
  $('output-beside').onchange = invalidatePreview;
  $('output-sheet').onchange = invalidatePreview;
  $('output-history').onchange = invalidatePreview;
  $('params').oninput = invalidatePreview;
  $('limit').oninput = invalidatePreview;

  $('preview').onclick = function () {
    say('preview-text', 'Counting…');
    call('igBulkPreview', request()).then(function (p) {
      var parts = [p.unique + ' unique target' + (p.unique === 1 ? '' : 's') + ' in ' + p.rows + ' rows'];
      if (p.cached) parts.push(p.cached + ' cached (free)');
      if (p.invalid) parts.push(p.invalid + ' invalid');
      var cost = (p.exact ? '' : '~') + fmt(p.credits) + ' credits (' + p.toFetch + ' \u00d7 ' + p.creditsEach + ')';
      if (p.list) {
        // Pages, not targets: the page count is known only after fetching, so this is an upper bound.
        var l = p.list;
        if (l.duplicates) parts.push(l.duplicates + ' repeated');
        var each = l.pageSize === null ? 'one page per target'
          : l.limit === null ? 'the first page of each target'
          : 'up to ' + l.pagesEach + ' page' + (l.pagesEach === 1 ? '' : 's') + ' of ' + l.pageSize + ' per target for ' + l.limit + ' items';
        cost = '~' + fmt(p.credits) + ' credits at most (' + fmt(l.pages) + ' page' + (l.pages === 1 ? '' : 's') + ' \u00d7 ' + p.creditsEach + '; ' + each + ')';
      }
      var bal = p.balance !== undefined && p.balance !== null ? ', you have ' + fmt(p.balance) : (p.balanceMessage ? '. ' + p.balanceMessage.replace(/\.$/, '') : '');
      var text = parts.join(', ') + ': ' + cost + bal + '. Output: ' + p.output + '.';
      var ok = p.enough !== false && p.output.indexOf('not empty') < 0;
      say('preview-text', text + (p.enough === false ? ' Not enough credits.' : ''), ok ? '' : 'error');
      state.previewed = true;
      $('run').disabled = !ok;
    }, function (e) { state.previewed = false; $('run').disabled = true; fail('preview-text')(e); });
  };
  $('run').onclick = function () {
    if (!state.previewed) return;
    $('run').disabled = true;
    say('bulk-message', '');
    call('igBulkStart', request()).then(function (job) {
      state.running = true;
      state.cancelRequested = false;
      showJob(job);
      return loop();
    }, fail('bulk-message'));
  };
  $('cancel').onclick = function () {
    state.cancelRequested = true;
    $('cancel').disabled = true;
    say('bulk-message', 'Cancelling after the current step…');
  };
  $('resume').onclick = function () {
    if (!state.job) return;
    say('bulk-message', '');
    call('igBulkResume', state.job.id).then(function (job) {
      state.running = true;
      state.cancelRequested = false;
      $('cancel').disabled = false;
      showJob(job);
      return loop();
    }, fail('bulk-message'));
  };

  // ---- Schedules: a bulk lookup the hourly trigger runs daily or weekly, with a cap per run.
  var DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  DAYS.forEach(function (d, i) { $('weekday').add(new Option(d, String(i), i === 1, i === 1)); });
  for (var h = 0; h < 24; h++) $('hour').add(new Option((h < 10 ? '0' : '') + h + ':00', String(h), h === 7, h === 7));
  function repeatValue() { return { every: $('repeat').value, weekday: Number($('weekday').value), hour: Number($('hour').value) }; }
  function when(iso) { return iso ? new Date(iso).toLocaleString([], { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }) : '–'; }
  function lastRun(job) {
    if (!job) return 'No run yet.';
    var counts = fmt(job.written) + ' rows, ' + fmt(job.credits) + ' credits, ' + fmt(job.errors || 0) + ' errors';
    if (job.status === 'running') return 'Running since ' + when(job.startedAt) + ': ' + job.next + ' of ' + job.rows + ' rows so far (' + counts + ').';
    return 'Last run ' + when(job.startedAt) + ': ' + (job.status === 'done' ? 'done' : job.status) + ', ' + counts + '.' + (job.message ? ' ' + job.message : '');
  }
  function showSchedules(list) {
    var box = $('schedule-list');
    box.innerHTML = '';
    if (!list.length) { box.innerHTML = '<p class="muted">None yet: set up a lookup above, then \u201cSchedule this lookup\u201d.</p>'; return; }
    list.forEach(function (s) {
      var div = document.createElement('div');
      div.className = 'schedule';
      [['strong', s.what], ['span', s.where], ['span', s.when + ', at most ' + fmt(s.cap) + ' credits a run. Next: ' + when(s.nextAt) + '.'],
        ['span', lastRun(s.run) + (s.skippedAt ? ' The run due ' + when(s.skippedAt) + ' was skipped: the one before was still going.' : '')]].forEach(function (x) {
        var p = document.createElement('p');
        var el = document.createElement(x[0]);
        el.textContent = x[1];
        p.appendChild(el);
        div.appendChild(p);
      });
      var del = document.createElement('button');
      del.textContent = 'Delete';
      del.onclick = function () {
        if (del.textContent === 'Delete') { del.textContent = 'Delete this schedule?'; del.className = 'danger'; return; }
        call('igScheduleDelete', s.id).then(function (l) { showSchedules(l); say('schedules-message', 'Deleted. What it wrote stays.', 'ok'); }, fail('schedules-message'));
      };
      div.appendChild(del);
      box.appendChild(div);
    });
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
        (p.uncapped > p.perRun ? ', cut to the cap; ' + fmt(p.uncapped) + ' uncapped' : '') + ')';
      say('schedule-text', p.range + ', ' + p.when + ': ' + per + ', about ' + fmt(p.perMonth) + ' a month (' + p.runsPerMonth + ' runs). First run: ' + when(p.nextAt) + '.' +
        (typeof p.balance === 'number' ? ' You have ' + fmt(p.balance) + '.' : '') + ' Answers younger than the freshness setting and half the period are reused (free).');
      $('schedule-save').disabled = false;
    }, function (e) { $('schedule-save').disabled = true; fail('schedule-text')(e); });
  };
  $('schedule-save').onclick = function () {
    $('schedule-save').disabled = true;
    call('igScheduleSave', request(), repeatValue(), $('cap').value).then(function (l) {
      showSchedules(l);
      say('schedule-text', 'Saved: it runs in the background from ' + when(l[l.length - 1].nextAt) + ' (listed under Schedules).', 'ok');
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
})();
