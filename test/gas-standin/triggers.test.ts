/**
 * The stand-in's installable time-driven triggers with the add-on limits, time travel
 * (`runtime.advance`), and the spreadsheet rules the kept answers rely on (formulas, hidden
 * sheets, 50,000 characters a cell, custom functions that may read but not write), on small
 * hand-written scripts.
 */
import { GasRuntime, createGasRuntime } from '../../scripts/gas-standin/runtime';
import { TEST_START } from '../support/clock';

const SCOPES = [
  'https://www.googleapis.com/auth/spreadsheets.currentonly',
  'https://www.googleapis.com/auth/script.scriptapp',
];
const CODE = `
function install(hours) { ScriptApp.newTrigger('tick').timeBased().everyHours(hours || 1).create(); return ScriptApp.getProjectTriggers().length; }
function installMinutes() { ScriptApp.newTrigger('tick').timeBased().everyMinutes(5).create(); }
function tick(e) {
  var sheet = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Log');
  sheet.appendRow([e.triggerUid, new Date().toISOString()]);
}
function slow() { Utilities.sleep(5 * 60 * 1000); Utilities.sleep(2 * 60 * 1000); }
function installSlow() { ScriptApp.newTrigger('slow').timeBased().everyHours(1).create(); }
function removeAll() { ScriptApp.getProjectTriggers().forEach(function (t) { ScriptApp.deleteTrigger(t); }); }
function writeHidden(text) {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var s = ss.getSheetByName('Hidden') || ss.insertSheet('Hidden');
  s.hideSheet();
  s.getRange(1, 1).setValue(text);
  return s.isSheetHidden();
}
function readHidden() { return SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Hidden').getRange(1, 1).getValue(); }
function formulas(a1) { return SpreadsheetApp.getActiveSpreadsheet().getRange(a1).getFormulas(); }
function reenter(a1) { var r = SpreadsheetApp.getActiveSpreadsheet().getRange(a1); r.setFormula(r.getFormula()); }
`;

const runtimes: GasRuntime[] = [];
function rt(scopes: string[] | null = SCOPES): GasRuntime {
  const r = createGasRuntime({
    files: [{ name: 'Code.js', code: CODE }],
    startAt: TEST_START,
    manifest: scopes ? { oauthScopes: scopes } : null,
  });
  r.spreadsheet.addSheet('Log');
  runtimes.push(r);
  return r;
}
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.close()));
});

const HOUR = 3600000;

describe('time-driven triggers', () => {
  test('fire hourly as the clock moves (advance), each its own execution, as the user who installed them', () => {
    const r = rt();
    const t0 = r.now();
    expect(r.call('install')).toBe(1);
    r.advance(3 * HOUR + 1000);
    expect(r.spreadsheet.sheet('Log').getValues()).toHaveLength(3);
    expect(r.triggers.installed[0].runs.map((x) => Math.round((x.at - t0) / HOUR))).toEqual([1, 2, 3]);
    expect(r.executions.filter((e) => e.fnName === 'tick').map((e) => [e.kind, e.user])).toEqual(
      Array(3).fill(['script', 'owner@example.com']),
    );
    expect(r.now() - t0).toBeGreaterThanOrEqual(3 * HOUR + 1000);
    r.call('removeAll');
    r.advance(5 * HOUR);
    expect(r.spreadsheet.sheet('Log').getValues()).toHaveLength(3);
  });

  test('add-on limits: one time-driven trigger per user per document, at most hourly', () => {
    const r = rt();
    r.call('install');
    expect(() => r.call('install', 2)).toThrow(
      'This add-on has created too many time-based triggers in this document for this Google user account.',
    );
    expect(r.run('install', [], { user: 'editor@example.com' })).toBe(1); // another user has their own
    expect(() => r.run('installMinutes', [], { user: 'third@example.com' })).toThrow(/more often than once an hour/);
  });

  test('custom functions and LIMITED simple triggers may not create triggers; the manifest must list script.scriptapp', () => {
    expect(() => rt().custom('install')).toThrow('You do not have permission to call ScriptApp.newTrigger');
    expect(() => rt().trigger('install')).toThrow('You do not have permission to call ScriptApp.newTrigger');
    expect(() => rt(['https://www.googleapis.com/auth/spreadsheets.currentonly']).call('install')).toThrow(
      /Required permissions: https:\/\/www.googleapis.com\/auth\/script.scriptapp/,
    );
  });

  test('a trigger execution has the 6-minute limit; its failure is recorded and the clock goes on', () => {
    const r = rt();
    r.call('installSlow');
    r.advance(2 * HOUR);
    expect(r.triggers.installed[0].runs).toMatchObject([
      { ok: false, error: expect.stringContaining('Exceeded maximum execution time') },
      { ok: false, error: expect.stringContaining('Exceeded maximum execution time') },
    ]);
  });
});

describe('spreadsheet rules the kept answers rely on', () => {
  test('a custom function may read a (hidden) sheet but not write one', () => {
    const r = rt(null);
    expect(r.call('writeHidden', 'kept')).toBe(true);
    expect(r.spreadsheet.findSheet('Hidden')?.hidden).toBe(true);
    expect(r.custom('readHidden')).toBe('kept');
    expect(() => r.custom('writeHidden', 'x')).toThrow(/You do not have permission/);
  });

  test('a cell holds at most 50,000 characters', () => {
    const r = rt(null);
    expect(r.call('writeHidden', 'x'.repeat(50000))).toBe(true);
    expect(() => r.call('writeHidden', 'x'.repeat(50001))).toThrow(
      'Your input contains more than the maximum of 50000 characters in a single cell.',
    );
  });

  test('formulas: read with getFormulas, entered again with setFormula (recorded)', () => {
    const r = rt(null);
    r.spreadsheet.sheet('Sheet1').setFormula('B2', '=IGPROFILE(A2:A9)');
    expect(r.call('formulas', 'Sheet1!A2:B2')).toEqual([['', '=IGPROFILE(A2:A9)']]);
    r.call('reenter', 'Sheet1!B2');
    expect(r.spreadsheet.formulaWrites).toEqual([{ sheet: 'Sheet1', a1: 'B2', formula: '=IGPROFILE(A2:A9)' }]);
  });
});
