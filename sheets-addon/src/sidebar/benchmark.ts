// Benchmark these accounts: a column of accounts (ours among them, the first unless chosen), the measures to
// compare, how often to refresh and a cap; the cost first (now, what is free, per month, against the balance), then
// one click makes the benchmark, steps its first run from here and names its report sheet.
import { call, type Answer, type Args } from './api';
import { $, deleteButton, fail, fillWhen, listItem, say } from './base';
import { benchmarkCostText, count, selectionLabel } from './counts';
import { stepFirstRun } from './first-run';
import { loadSchedules } from './schedules';
import { refreshBalance } from './settings';
import { loadUsage } from './usage';

/** The selection the last preview counted: Create refuses another (the selection may move in between). */
let previewed = '';

const boxes = () => Array.from(document.querySelectorAll<HTMLInputElement>('#bench-measures input'));

function request(): Args<'igBenchmarkCreate'>[0] {
  return {
    measures: boxes()
      .filter((b) => b.checked)
      .map((b) => b.value),
    ours: $('bench-ours').value,
    every: $('bench-repeat').value,
    weekday: Number($('bench-weekday').value),
    hour: Number($('bench-hour').value),
    cap: $('bench-cap').value,
    name: $('bench-name').value,
    range: previewed,
  };
}

function invalidate(): void {
  $('bench-create').disabled = true;
}

/** Our account: the first of the selection until a preview lists its accounts to choose from. */
function offerOurs(handles: readonly string[], chosen: string): void {
  const select = $('bench-ours');
  select.innerHTML = '';
  if (!handles.length) select.add(new Option('the first account (preview to choose)', ''));
  handles.forEach((h) => select.add(new Option('@' + h, h, false, h === chosen)));
}

export function refreshBenchSelection(): Promise<void> {
  return call('igSelectionInfo').then((s) => {
    $('bench-selection').textContent = selectionLabel(s);
    offerOurs([], '');
    invalidate();
  }, fail('bench-text'));
}

function showBenchmarks(list: Answer<'igBenchmarks'>): void {
  const box = $('bench-list');
  box.innerHTML = '';
  list.forEach((b) => {
    const div = listItem('schedule benchmark', [
      ['strong', b.name + ': ' + count(b.accounts, 'account') + (b.ours ? ', ours @' + b.ours : '')],
      [
        'span',
        b.when !== 'not refreshed'
          ? b.when + ', at most ' + count(b.cap, 'credit') + ' a run. Next: ' + b.nextLabel + '.'
          : 'Not refreshed: the report stays as its first run left it.',
      ],
      ['span', 'Report: \u201c' + b.view + '\u201d.'],
    ]);
    div.appendChild(
      deleteButton('Delete this benchmark? Its refreshes stop; the report and history sheets stay.', () =>
        call('igBenchmarkDelete', b.id).then((l) => {
          showBenchmarks(l);
          loadSchedules();
          say('benchmarks-message', 'Deleted. Its report and history sheets stay.', 'ok');
        }, fail('benchmarks-message')),
      ),
    );
    box.appendChild(div);
  });
}

export function loadBenchmarks(): Promise<void> {
  return call('igBenchmarks').then(showBenchmarks, fail('benchmarks-message'));
}

/** The first run, stepped from here (first-run.ts). */
function firstRun(id: string, view: string): Promise<void> {
  return stepFirstRun({
    step: () => call('igBenchmarkStep', id),
    text: 'bench-text',
    unit: 'lookup',
    doneText: (credits) => 'Benchmarked: ' + credits + '. The report is the sheet \u201c' + view + '\u201d.',
    after: () => {
      loadBenchmarks();
      loadSchedules();
      loadUsage();
      refreshBalance();
    },
  });
}

export function wireBenchmark(): void {
  fillWhen('bench-weekday', 'bench-hour');
  offerOurs([], '');
  $('bench-use-selection').onclick = refreshBenchSelection;
  $('bench-repeat').onchange = () => {
    $('bench-weekday').hidden = $('bench-repeat').value !== 'weekly';
    $('bench-hour').hidden = $('bench-repeat').value === 'never';
    // Growth is the change between two runs: none when the benchmark is made once.
    const growth = boxes().find((b) => b.value === 'growth');
    if (growth) {
      if ($('bench-repeat').value === 'never') growth.checked = false;
      growth.disabled = $('bench-repeat').value === 'never';
    }
    invalidate();
  };
  for (const id of ['bench-weekday', 'bench-hour'] as const) $(id).onchange = invalidate;
  for (const id of ['bench-cap', 'bench-name'] as const) $(id).oninput = invalidate;
  call('igBenchmarkChoices').then((c) => {
    c.measures.forEach((m) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = m.id;
      box.checked = m.ticked;
      box.onchange = invalidate;
      label.appendChild(box);
      label.appendChild(document.createTextNode(' ' + m.label + ' '));
      const price = document.createElement('span');
      price.className = 'muted';
      price.textContent = '(' + m.fn + ', ' + count(m.credits, 'credit') + ')';
      label.appendChild(price);
      $('bench-measures').appendChild(label);
    });
  }, fail('bench-text'));
  $('bench-preview').onclick = () => {
    say('bench-text', 'Counting\u2026');
    call('igBenchmarkPreview', request()).then(
      (p) => {
        previewed = p.range;
        offerOurs(p.handles, p.ours);
        say('bench-text', benchmarkCostText(p), p.enough === false ? 'error' : '');
        $('bench-create').disabled = p.enough === false;
      },
      (e) => {
        invalidate();
        fail('bench-text')(e);
      },
    );
  };
  $('bench-create').onclick = () => {
    $('bench-create').disabled = true;
    say('bench-text', 'Setting up\u2026');
    call('igBenchmarkCreate', request())
      .then((r) => firstRun(r.tracker.id, r.tracker.view))
      .catch(fail('bench-text'));
  };
}
