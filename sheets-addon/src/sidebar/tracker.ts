// Track these accounts: a column of accounts, fields, how often and a cap; the cost first, then one
// confirmation makes the schedule, runs it now (stepped from here) and writes the tracker sheet.
import { alertsSection } from './alerts';
import { call, type Answer } from './api';
import { $, deleteButton, fail, fillWhen, fmt, listItem, say } from './base';
import { count, selectionLabel } from './counts';
import { stepFirstRun } from './first-run';
import { loadHistory } from './history';
import { fillPicker, filterPicker } from './picker';
import { loadSchedules } from './schedules';
import { refreshBalance } from './settings';
import { loadUsage } from './usage';

const fields = () =>
  $('tracker-fields')
    .value.split(',')
    .map((f) => f.trim())
    .filter(Boolean);

/** The column the last preview counted: Track refuses another (the selection may move in between). */
let previewed = '';

function request() {
  return {
    range: previewed,
    fields: fields().join(','),
    every: $('tracker-repeat').value,
    weekday: Number($('tracker-weekday').value),
    hour: Number($('tracker-hour').value),
    cap: $('tracker-cap').value,
    name: $('tracker-name').value,
    sortBy: $('tracker-sort').value,
  };
}

/** The sort choices follow the fields typed. */
function showSort(): void {
  const chosen = $('tracker-sort').value;
  $('tracker-sort').innerHTML = '';
  fields().forEach((f) => $('tracker-sort').add(new Option(f, f, false, f === chosen)));
}

/** The picker's boxes follow the fields typed. */
function showPicked(): void {
  const chosen = fields();
  $('tracker-picker')
    .querySelectorAll('input')
    .forEach((b) => (b.checked = chosen.includes(b.value)));
}

function invalidate(): void {
  $('tracker-create').disabled = true;
}

export function refreshTrackerSelection(): Promise<void> {
  return call('igSelectionInfo').then((s) => {
    $('tracker-selection').textContent = selectionLabel(s);
    invalidate();
  }, fail('tracker-text'));
}

function showTrackers(list: Answer<'igTrackers'>): void {
  const box = $('tracker-list');
  box.innerHTML = '';
  list.forEach((t) => {
    const div = listItem('schedule tracker', [
      ['strong', t.name + ': ' + count(t.accounts, 'account') + ', ' + t.fields.join(', ')],
      ['span', t.when + ', at most ' + count(t.cap, 'credit') + ' a run. Next: ' + t.nextLabel + '.'],
      ['span', 'Sheet: \u201c' + t.view + '\u201d.'],
    ]);
    div.appendChild(alertsSection(t.id));
    div.appendChild(
      deleteButton('Delete this tracker? Its schedule stops; the history and tracker sheets stay.', () =>
        call('igTrackerDelete', t.id).then((l) => {
          showTrackers(l);
          loadSchedules();
          say('trackers-message', 'Deleted. Its history and tracker sheets stay.', 'ok');
        }, fail('trackers-message')),
      ),
    );
    box.appendChild(div);
  });
}

export function loadTrackers(): Promise<void> {
  return call('igTrackers').then(showTrackers, fail('trackers-message'));
}

/** The first run, stepped from here (first-run.ts). */
function firstRun(id: string, view: string): Promise<void> {
  return stepFirstRun({
    step: () => call('igTrackerStep', id),
    text: 'tracker-text',
    unit: 'row',
    doneText: (credits) =>
      'Tracking. First run done: ' + credits + '. The tracker is the sheet \u201c' + view + '\u201d.',
    after: () => {
      loadTrackers();
      loadSchedules();
      loadHistory();
      loadUsage();
      refreshBalance();
    },
  });
}

export function wireTracker(): void {
  fillWhen('tracker-weekday', 'tracker-hour');
  $('tracker-use-selection').onclick = refreshTrackerSelection;
  $('tracker-repeat').onchange = () => {
    $('tracker-weekday').hidden = $('tracker-repeat').value === 'daily';
    invalidate();
  };
  for (const id of ['tracker-weekday', 'tracker-hour', 'tracker-sort'] as const) $(id).onchange = invalidate;
  for (const id of ['tracker-cap', 'tracker-name'] as const) $(id).oninput = invalidate;
  $('tracker-fields').oninput = () => {
    showSort();
    showPicked();
    invalidate();
  };
  $('tracker-field-search').oninput = () => filterPicker($('tracker-field-search').value);
  call('igTrackerChoices').then((c) => {
    $('tracker-fields').value = c.defaults.join(', ');
    fillPicker(c.fields, (field, on) => {
      const list = fields().filter((f) => f !== field);
      $('tracker-fields').value = (on ? [...list, field] : list).join(', ');
      showSort();
      invalidate();
    });
    showPicked();
    $('tracker-fields-note').textContent = 'An account costs each function it needs once.';
    showSort();
  }, fail('tracker-text'));
  $('tracker-preview').onclick = () => {
    say('tracker-text', 'Counting\u2026');
    call('igTrackerPreview', request()).then(
      (p) => {
        previewed = p.range;
        const per =
          count(p.accounts, 'account') +
          ' \u00d7 ' +
          count(p.creditsEach, 'credit') +
          ' (' +
          p.functions.join(' + ') +
          ') = ' +
          count(p.uncapped, 'credit') +
          ' a run' +
          (p.uncapped > p.perRun
            ? ', cut to the cap of ' +
              fmt(p.perRun) +
              ' (each run continues where the last stopped: every account once every ' +
              p.runsForAll +
              ' runs)'
            : '');
        say(
          'tracker-text',
          per +
            ', about ' +
            fmt(p.perMonth) +
            ' a month (' +
            p.when +
            '). First run: now; then ' +
            p.nextLabel +
            '.' +
            (typeof p.balance === 'number' ? ' You have ' + fmt(p.balance) + '.' : '') +
            ' Answers still fresh are reused (free).',
        );
        $('tracker-create').disabled = false;
      },
      (e) => {
        invalidate();
        fail('tracker-text')(e);
      },
    );
  };
  $('tracker-create').onclick = () => {
    $('tracker-create').disabled = true;
    say('tracker-text', 'Setting up\u2026');
    call('igTrackerCreate', request())
      .then((r) => firstRun(r.tracker.id, r.tracker.view))
      .catch(fail('tracker-text'));
  };
}
