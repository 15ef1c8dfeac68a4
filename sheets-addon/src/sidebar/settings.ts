// The key, the balance, the freshness setting and the base URL.
import { call, type Answer } from './api';
import { $, fail, say, state, type Settings } from './base';
import { count } from './counts';
import { hasAKey } from './nav';
import { showUsage } from './usage';

/** While the sidebar is open, formulas spend credits: the balance is read again this often (free). */
const BALANCE_EVERY_MS = 60000;

/** The scope chosen for the next key saved. */
const chosenScope = (): 'everyone' | 'mine' => ($('key-scope-mine').checked ? 'mine' : 'everyone');

/**
 * Before a key is saved: where the chosen scope stores it and who can see and use it, for how this copy of IG Data
 * was installed (a script bound to the sheet, which every editor can open, or an add-on, which they cannot).
 */
function scopeNote(scope: 'everyone' | 'mine', installedAs: string): string {
  const bound = installedAs === 'bound';
  if (scope === 'everyone')
    return bound
      ? 'For everyone who edits this sheet: stored in the document properties of this sheet\u2019s script. Every ' +
          'editor\u2019s formulas, runs and schedules spend its credits, any editor can replace or remove it, and ' +
          'any ' +
          'editor can read the key itself by running code in Extensions > Apps Script (IG Data is a script bound to ' +
          'this sheet). The sidebar shows it masked only.'
      : 'For everyone who edits this sheet: stored in IG Data\u2019s properties of this document. Every ' +
          'editor\u2019s formulas, runs and schedules spend its credits and any editor can replace or remove it, but ' +
          'nobody can read the key itself: the sidebar shows it masked only, and the add-on\u2019s code and ' +
          'properties are out of editors\u2019 reach.';
  return (
    (bound
      ? 'Only for me: stored in your own user properties of this sheet\u2019s script, which other people\u2019s ' +
        'executions cannot read. Editors can still change that script in Extensions > Apps Script, and code they add ' +
        'runs as you when you open IG Data: choose this only with editors you trust. '
      : 'Only for me: stored in your own user properties of IG Data, for this sheet; ' +
        'nobody else can read or use it. ') +
    'It is used by what you do in this sidebar (bulk runs while it is open, tests, the balance). Formulas (Sheets ' +
    'runs them as an anonymous user) and the hourly background runs (schedules, runs after the sidebar closes, ' +
    'whoever\u2019s trigger runs them) cannot use it: they need the key for everyone.'
  );
}

/** "set by you on 2026-12-07" when Apps Script knows it was this user; else the typed name, said to be unconfirmed. */
function setBy(s: Settings): string {
  const when = s.setAt ? ' on ' + s.setAt.slice(0, 10) : '';
  if (s.setByYou) return ' by you' + when;
  if (!s.setBy) return when;
  return (
    when + ' by someone who signed \u201c' + s.setBy + '\u201d (a name they typed: Apps Script does not confirm it)'
  );
}

export function showSettings(s: Settings): void {
  state.settings = s;
  const link = $('dashboard-link');
  link.href = s.dashboardUrl || '';
  link.textContent = String(s.dashboardUrl || '').replace(/^https?:\/\//, '');
  $('get-key').hidden = s.hasKey || !s.dashboardUrl;
  $('menu-key').hidden = hasAKey(s);
  const owner = $('key-owner');
  owner.hidden = !s.hasKey;
  if (s.scope === 'mine') {
    $('key-status').textContent =
      'Your own key ' +
      s.masked +
      ' is set, only for you' +
      (s.setAt ? ' (on ' + s.setAt.slice(0, 10) + ')' : '') +
      '.';
    owner.textContent = s.sharedKey
      ? 'Formulas and background runs in this sheet use the key for everyone.'
      : 'No key is set for everyone: formulas and background runs in this sheet have none.';
  } else if (s.hasKey) {
    $('key-status').textContent = 'Key ' + s.masked + ' is set for everyone who edits this sheet' + setBy(s) + '.';
    owner.textContent = s.setByYou
      ? 'Everyone who edits this sheet uses this key: its formulas spend your credits.'
      : 'This sheet spends the credits of whoever set this key' +
        (s.setBy ? ' (signed \u201c' + s.setBy + '\u201d)' : '') +
        '. Replacing it for everyone makes the sheet use yours.';
  } else {
    $('key-status').textContent = 'No API key is set. Paste one below, choose who uses it, and save.';
  }
  $('key-scope-note').textContent = scopeNote(chosenScope(), s.installedAs);
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

  const rescope = () => {
    if (state.settings) $('key-scope-note').textContent = scopeNote(chosenScope(), state.settings.installedAs);
  };
  $('key-scope-everyone').onchange = rescope;
  $('key-scope-mine').onchange = rescope;
  $('save-key').onclick = () => {
    say('key-message', 'Testing the key…');
    call('igSetKey', $('key').value, $('key-label').value, chosenScope()).then((r) => {
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
    const own = state.settings && state.settings.scope === 'mine';
    call('igDeleteKey').then((s) => {
      showSettings(s);
      $('balance').textContent = '–';
      $('balance-at').textContent = '';
      say(
        'key-message',
        own
          ? 'Your own key was removed.' + (s.hasKey ? ' What you do here now uses the key for everyone.' : '')
          : 'The key was removed from this sheet.',
        'ok',
      );
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
