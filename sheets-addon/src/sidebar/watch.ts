// Watch a hashtag: tags (or a location), how often and a cap; the cost from the tags' newest pages
// first, then one confirmation makes the watch and runs it once now (the hourly trigger does the rest).
import { call, type Answer } from './api';
import { noun } from '@igdata/core';
import { $, deleteButton, fail, fmt, listItem, say } from './base';
import { count } from './counts';
import { refreshBalance } from './settings';
import { loadUsage } from './usage';

function request() {
  return {
    tags: $('watch-tags').value,
    location: $('watch-location').value,
    every: $('watch-repeat').value,
    hour: Number($('watch-hour').value),
    cap: $('watch-cap').value,
    name: $('watch-name').value,
  };
}

const invalidate = (): void => void ($('watch-create').disabled = true);
const credits = (n: number): string => count(n, 'credit');

function showWatches(list: Answer<'igWatches'>): void {
  const box = $('watch-list');
  box.innerHTML = '';
  list.forEach((w) => {
    const last = w.last
      ? 'Last run ' +
        w.lastLabel +
        ': ' +
        count(w.last.rows, 'new post') +
        ', ' +
        credits(w.last.credits) +
        '.' +
        (w.last.message ? ' ' + w.last.message : '')
      : '';
    const div = listItem('schedule watch', [
      ['strong', w.name + ': ' + w.what],
      ['span', w.when + ', at most ' + credits(w.cap) + ' a run. Next: ' + w.nextLabel + '.'],
      ['span', last],
      ['span', 'Sheet: \u201c' + w.sheet + '\u201d.'],
    ]);
    div.appendChild(
      deleteButton('Delete this watch? Its runs stop; its sheet stays.', () =>
        call('igWatchDelete', w.id).then((l) => {
          showWatches(l);
          say('watches-message', 'Deleted. Its sheet stays.', 'ok');
        }, fail('watches-message')),
      ),
    );
    box.appendChild(div);
  });
}

export function loadWatches(): Promise<void> {
  return call('igWatches').then(showWatches, fail('watches-message'));
}

export function wireWatch(): void {
  for (let h = 0; h < 24; h++)
    $('watch-hour').add(new Option((h < 10 ? '0' : '') + h + ':00', String(h), h === 7, h === 7));
  $('watch-repeat').onchange = () => {
    $('watch-hour').hidden = $('watch-repeat').value === 'hourly';
    invalidate();
  };
  $('watch-hour').onchange = invalidate;
  for (const id of ['watch-tags', 'watch-location', 'watch-cap', 'watch-name'] as const) $(id).oninput = invalidate;
  $('watch-preview').onclick = () => {
    say('watch-text', 'Reading the newest posts\u2026');
    call('igWatchPreview', request()).then(
      (p) => {
        const rates = p.targets
          .map(
            (t) => t.label + ': ' + count(t.perHour, 'post') + ' an hour lately (' + count(t.pages, 'page') + ' a run)',
          )
          .join(', ');
        say(
          'watch-text',
          rates +
            '. About ' +
            credits(p.perRun) +
            ' a run' +
            (p.uncapped > p.perRun ? ' (cut to the cap: each run continues where the last stopped)' : '') +
            ', about ' +
            fmt(p.perMonth) +
            ' a month (' +
            p.when +
            '). This preview read the newest ' +
            noun(p.targets.length, 'page') +
            ': ' +
            credits(p.previewCredits) +
            '.' +
            (typeof p.balance === 'number' ? ' You have ' + fmt(p.balance) + '.' : ''),
        );
        $('watch-create').disabled = false;
      },
      (e) => {
        invalidate();
        fail('watch-text')(e);
      },
    );
  };
  $('watch-create').onclick = () => {
    $('watch-create').disabled = true;
    say('watch-text', 'Setting up\u2026');
    call('igWatchCreate', request()).then((list) => {
      const w = list[list.length - 1];
      say(
        'watch-text',
        'Watching. First run: ' +
          count(w.last ? w.last.rows : 0, 'post') +
          ' in the sheet \u201c' +
          w.sheet +
          '\u201d; next ' +
          w.nextLabel +
          '.',
        'ok',
      );
      showWatches(list);
      loadUsage();
      refreshBalance();
    }, fail('watch-text'));
  };
}
