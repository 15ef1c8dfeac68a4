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

$('usage-refresh').onclick = loadUsage;
$('usage-export').onclick = function () {
  call('igUsage').then(function (u) {
    showUsage(u);
    return call('igExportUsage', [['Day', 'What', 'Credits']].concat(usageRows(u)));
  }).then(function () { say('usage-message', 'Written to the sheet \u201cIG Data usage\u201d.', 'ok'); }, fail('usage-message'));
};
