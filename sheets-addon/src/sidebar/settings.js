// The key, the balance, the freshness setting and the base URL.
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

function showBalance(n) {
  state.balance = n;
  if (state.usage) showUsage(state.usage);
  $('balance').textContent = fmt(n) + ' credits';
  state.balanceAt = Date.now();
  $('balance-at').textContent = 'at ' + new Date().toTimeString().slice(0, 5);
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
