// Usage: credits by day (UTC) and by what spent them (a formula: function and cell; a bulk run),
// the last 7 days in detail, this month's total against the balance.
import { call } from './api';
import { $, fail, fmt, say, state, type Usage } from './base';
import { count } from './counts';

/** [day, what, credits], the newest day first. */
function usageRows(u: Usage): [string, string, number][] {
  const rows: [string, string, number][] = [];
  Object.keys(u)
    .sort()
    .reverse()
    .forEach((d) => {
      Object.keys(u[d])
        .sort()
        .forEach((what) => rows.push([d, what, u[d][what]]));
    });
  return rows;
}

export function showUsage(u: Usage): void {
  state.usage = u;
  const month = new Date().toISOString().slice(0, 7);
  let total = 0;
  const byDay: Record<string, number> = {};
  usageRows(u).forEach((r) => {
    if (r[0].slice(0, 7) === month) total += r[2];
    byDay[r[0]] = (byDay[r[0]] || 0) + r[2];
  });
  $('usage-month').textContent =
    'This month: ' +
    count(total, 'credit') +
    ' spent' +
    (typeof state.balance === 'number' ? '; ' + fmt(state.balance) + ' left.' : '.');
  const table = $('usage-days');
  table.innerHTML = '';
  const row = (cls: string, a: string, b: number) => {
    const tr = table.insertRow();
    tr.className = cls;
    tr.insertCell().textContent = a;
    const n = tr.insertCell();
    n.className = 'n';
    n.textContent = fmt(b);
  };
  Object.keys(byDay)
    .sort()
    .reverse()
    .slice(0, 7)
    .forEach((d) => {
      row('day', d, byDay[d]);
      Object.keys(u[d])
        .sort()
        .forEach((what) => row('what', what, u[d][what]));
    });
  if (!table.rows.length) $('usage-month').textContent += ' Nothing spent yet.';
}

export function loadUsage(): Promise<void> {
  return call('igUsage').then(showUsage, fail('usage-message'));
}

export function wireUsage(): void {
  $('usage-refresh').onclick = loadUsage;
  $('usage-export').onclick = () => {
    call('igUsage')
      .then((u) => {
        showUsage(u);
        return call('igExportUsage', [['Day', 'What', 'Credits'], ...usageRows(u)]);
      })
      .then(() => say('usage-message', 'Written to the sheet \u201cIG Data usage\u201d.', 'ok'), fail('usage-message'));
  };
}
