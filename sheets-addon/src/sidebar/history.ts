// History: the growth view of a history sheet (a sheet with Sheets' own line chart).
import { call, type Answer } from './api';
import { $, fail, say } from './base';
import { count } from './counts';

let histories: Answer<'igHistoryChoices'> = [];

function showFields(): void {
  const h = histories.find((x) => x.name === $('history-sheet').value);
  const sel = $('history-field');
  sel.innerHTML = '';
  (h ? h.fields : []).forEach((f) => sel.add(new Option(f, f)));
}

export function loadHistory(): Promise<void> {
  return call('igHistoryChoices').then((list) => {
    histories = list;
    $('history-none').hidden = list.length > 0;
    $('history-form').hidden = !list.length;
    const sel = $('history-sheet');
    const was = sel.value;
    sel.innerHTML = '';
    list.forEach((h) => sel.add(new Option(h.name, h.name, false, h.name === was)));
    showFields();
  }, fail('history-message'));
}

export function wireHistory(): void {
  $('history-sheet').onchange = showFields;
  $('growth').onclick = () => {
    say('history-message', 'Building…');
    call('igGrowthView', {
      sheet: $('history-sheet').value,
      field: $('history-field').value,
      accounts: $('history-accounts').value,
    }).then((g) => {
      say(
        'history-message',
        'Written to \u201c' +
          g.sheet +
          '\u201d: ' +
          count(g.accounts, 'account') +
          ', ' +
          count(g.snapshots, 'snapshot') +
          ', a chart of ' +
          g.charted +
          '.',
        'ok',
      );
    }, fail('history-message'));
  };
}
