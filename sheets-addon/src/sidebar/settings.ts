// The key, the balance, the freshness setting and the base URL.
import { call, type Answer } from './api';
import { $, fail, say, state, type Settings } from './base';
import { count } from './counts';
import { showUsage } from './usage';

/** While the sidebar is open, formulas spend credits: the balance is read again this often (free). */
const BALANCE_EVERY_MS = 60000;

export function showSettings(s: Settings): void {
  state.settings = s;
  const link = $('dashboard-link');
  link.href = s.dashboardUrl || '';
  link.textContent = String(s.dashboardUrl || '').replace(/^https?:\/\//, '');
  $('get-key').hidden = s.hasKey || !s.dashboardUrl;
  $('menu-key').hidden = s.hasKey;
  if (s.hasKey) {
    const when = s.setAt ? ' on ' + s.setAt.slice(0, 10) : '';
    $('key-status').textContent = 'Key ' + s.masked + ' is set' + (s.setBy ? ' by ' + s.setBy : '') + when + '.';
    const owner = $('key-owner');
    owner.hidden = false;
    owner.textContent = s.othersKey
      ? 'This sheet spends the credits of ' + s.setBy + ', who set the key. Replacing it makes the sheet use yours.'
      : 'Everyone who edits this sheet uses this key: its formulas spend ' +
        (s.setBy ? s.setBy + '\u2019s' : 'the key owner\u2019s') +
        ' credits.';
  } else {
    $('key-status').textContent =
      'No API key is set. Paste one below; it is stored in this document\u2019s properties and shown only masked.';
    $('key-owner').hidden = true;
  }
  $('remove-key').disabled = !s.hasKey;
  $('fresh').value = String(s.freshHours);
  $('base-url').value = s.baseUrl || '';
  $('base-url').placeholder = s.defaultBaseUrl;
  if (!$('key-label').value && s.you) $('key-label').value = s.you;
}

/** A balance read now (absent: shown as –, as fmt shows what is not a number). */
export function showBalance(n: number | null | undefined): void {
  state.balance = n;
  if (state.usage) showUsage(state.usage);
  $('balance').textContent = count(n, 'credit');
  $('top-balance').textContent = count(n, 'credit');
  state.balanceAt = Date.now();
  $('balance-at').textContent = 'at ' + new Date().toTimeString().slice(0, 5);
}

export function refreshBalance(): Promise<void> {
  return call('igGetBalance').then((b) => {
    if (typeof b.balance === 'number') showBalance(b.balance);
    else $('balance').textContent = b.message || '–';
  }, fail('key-message'));
}

/** Reads the balance again when the last reading is at least `ms` old (and there is a key). */
export function balanceIfStale(ms: number): void {
  if (state.settings && state.settings.hasKey && Date.now() - state.balanceAt >= ms) refreshBalance();
}

/**
 * The server's key messages end with "Set it in Extensions > IG Data > Settings": right for a
 * cell, wrong here, where the user is in Settings. Here they say what happened to the key and
 * what to do next, chosen by the service's error code (never by the message's text).
 */
function keyMessage(r: Answer<'igTestKey'> & { saved?: boolean }, saving: boolean): string {
  const where =
    state.settings && state.settings.dashboardUrl
      ? ' from your dashboard at ' + state.settings.dashboardUrl.replace(/^https?:\/\//, '')
      : '';
  const kept =
    state.settings && state.settings.hasKey ? ' The sheet still uses the key ' + state.settings.masked + '.' : '';
  if (r.code === 'missing_api_key') {
    return (
      (saving
        ? 'Nothing was saved: paste your API key in the box above first.'
        : 'Paste a key in the box above to test it.') +
      kept +
      ' (Not charged.)'
    );
  }
  if (r.code === 'invalid_api_key') {
    return (
      (saving
        ? 'This key was not saved: the service does not accept it (invalid API key).'
        : 'The service does not accept this key (invalid API key).') +
      ' Copy the whole key again' +
      where +
      ' and paste it above.' +
      kept +
      ' (Not charged.)'
    );
  }
  return saving && r.saved ? 'Saved, but the key could not be tested: ' + r.message : r.message;
}

export function wireSettings(): void {
  // Formulas in the sheet spend credits without the sidebar knowing: read the balance again every
  // minute while the sidebar is visible, when it gets the focus back, and when the page around it
  // asks (the Sheets preview does after each formula).
  setInterval(() => {
    if (document.visibilityState !== 'hidden') balanceIfStale(BALANCE_EVERY_MS - 1000);
  }, BALANCE_EVERY_MS);
  window.addEventListener('focus', () => balanceIfStale(5000));
  window.addEventListener('message', (e) => {
    if (e.data && e.data.igdataRefreshBalance) balanceIfStale(0);
  });

  $('save-key').onclick = () => {
    say('key-message', 'Testing the key…');
    call('igSetKey', $('key').value, $('key-label').value).then((r) => {
      // a refused key stays in the box, to be corrected; a saved one never stays on screen
      if (r.saved !== false) $('key').value = '';
      showSettings(r.settings);
      say('key-message', r.ok ? 'Saved. ' + r.message : keyMessage(r, true), r.ok ? 'ok' : 'error');
      if (r.ok) showBalance(r.balance);
    }, fail('key-message'));
  };
  $('test-key').onclick = () => {
    say('key-message', 'Testing…');
    call('igTestKey', $('key').value).then((r) => {
      say('key-message', r.ok ? r.message : keyMessage(r, false), r.ok ? 'ok' : 'error');
      if (r.ok) showBalance(r.balance);
    }, fail('key-message'));
  };
  // Removing the key stops every formula of the sheet: ask first.
  $('remove-key').onclick = () => {
    say('key-message', '');
    $('remove-confirm').hidden = false;
    $('remove-key').disabled = true;
    $('remove-no').focus();
  };
  $('remove-no').onclick = () => {
    $('remove-confirm').hidden = true;
    $('remove-key').disabled = !(state.settings && state.settings.hasKey);
    say('key-message', 'The key was kept.');
  };
  $('remove-yes').onclick = () => {
    $('remove-confirm').hidden = true;
    call('igDeleteKey').then((s) => {
      showSettings(s);
      $('balance').textContent = '–';
      $('balance-at').textContent = '';
      say('key-message', 'The key was removed from this sheet.', 'ok');
    }, fail('key-message'));
  };

  $('fresh').onchange = () => {
    call('igSetFreshness', $('fresh').value).then((s) => {
      showSettings(s);
      say('fresh-message', 'Saved: answers are reused for ' + $('fresh').selectedOptions[0].textContent + '.', 'ok');
    }, fail('fresh-message'));
  };
  $('save-base-url').onclick = () => {
    call('igSetBaseUrl', $('base-url').value).then((s) => {
      showSettings(s);
      say('base-url-message', 'Saved: ' + s.baseUrl, 'ok');
    }, fail('base-url-message'));
  };
  $('refresh-balance').onclick = refreshBalance;
}
