// IG Data sidebar, shared helpers. The build joins the parts (SIDEBAR_PARTS in scripts/build/sheets.mjs)
// in one function scope inside Sidebar.html: they talk to the server functions of Code.js through
// google.script.run, small and dependency-free on purpose. The API key never comes back from the
// server: only a mask.
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

function colName(n) { var s = ''; for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s; return s; }

function fail(id) { return function (e) { say(id, errText(e), 'error'); }; }
