// Schedules: a bulk lookup the hourly trigger runs daily or weekly, with a cap per run.
import { call, type Answer } from './api';
import { $, deleteButton, fail, fillWhen, fmt, listItem, say, type Job } from './base';
import { count } from './counts';
import { invalidatePreview, request } from './bulk';
import { loadHistory } from './history';
import { refreshBalance } from './settings';

const repeatValue = () => ({
  every: $('repeat').value,
  weekday: Number($('weekday').value),
  hour: Number($('hour').value),
});

// Times come from the server in the spreadsheet's zone, the zone a schedule's hour is in.
function lastRun(job: Job | null, at: string | null | undefined): string {
  if (!job) return 'No run yet.';
  const counts =
    count(job.written, 'row') + ', ' + count(job.credits, 'credit') + ', ' + count(job.errors || 0, 'error');
  if (job.status === 'running')
    return 'Running since ' + at + ': ' + job.next + ' of ' + count(job.rows, 'row') + ' so far (' + counts + ').';
  return (
    'Last run ' +
    at +
    ': ' +
    (job.status === 'done' ? 'done' : job.status) +
    ', ' +
    counts +
    '.' +
    (job.message ? ' ' + job.message : '')
  );
}

function showSchedules(list: Answer<'igSchedules'>): void {
  const box = $('schedule-list');
  box.innerHTML = '';
  if (!list.length) {
    box.innerHTML =
      '<p class="muted">None yet: set up a Bulk lookup, then \u201cSchedule this lookup\u201d; ' +
      'trackers and watches list theirs here too.</p>';
    return;
  }
  list.forEach((s) => {
    const div = listItem('schedule', [
      ['strong', s.what],
      ['span', s.where],
      // (a benchmark made once has no next run)
      [
        'span',
        s.when + ', at most ' + count(s.cap, 'credit') + ' a run.' + (s.nextLabel ? ' Next: ' + s.nextLabel + '.' : ''),
      ],
      [
        'span',
        lastRun(s.run, s.runLabel) +
          (s.skippedAt ? ' The run due ' + s.skippedAt + ' was skipped: the one before was still going.' : ''),
      ],
    ]);
    const now = document.createElement('button');
    now.textContent = 'Run now';
    now.className = 'run-now';
    now.onclick = () => runNow(s.id, now);
    div.appendChild(now);
    // A schedule that is part of something (a tracker's) goes with its owner, not alone.
    if (s.owner)
      div.appendChild(
        listItem('muted', [['span', 'Part of ' + s.owner.title + ': delete the ' + s.owner.kind + ' to stop it.']]),
      );
    else
      div.appendChild(
        deleteButton('Delete this schedule?', () =>
          call('igScheduleDelete', s.id).then((l) => {
            showSchedules(l);
            say('schedules-message', 'Deleted. What it wrote stays.', 'ok');
          }, fail('schedules-message')),
        ),
      );
    box.appendChild(div);
  });
}

// A run now, stepped from here like a bulk run; if the sidebar closes, the hourly trigger goes on with it.
function runNow(id: string, btn: HTMLButtonElement): void {
  btn.disabled = true;
  say('schedules-message', 'Starting\u2026');
  const next = (job: Job): Promise<void> | undefined => {
    say(
      'schedules-message',
      (job.status === 'running' ? 'Running now: ' : 'Run now: ') +
        lastRun(job, 'now').replace(/^(Running since|Last run) now: /, ''),
      job.status === 'paused' ? 'error' : job.status === 'done' ? 'ok' : '',
    );
    if (job.status === 'running') return call('igScheduleStep', id, job.id).then(next);
    loadSchedules();
    loadHistory();
    refreshBalance();
  };
  call('igScheduleRunNow', id)
    .then(next)
    .catch((e) => {
      btn.disabled = false;
      fail('schedules-message')(e);
    });
}

export function loadSchedules(): Promise<void> {
  return call('igSchedules').then(showSchedules, fail('schedules-message'));
}

export function wireSchedules(): void {
  fillWhen('weekday', 'hour');
  $('repeat').onchange = () => {
    $('weekday').hidden = $('repeat').value === 'daily';
    invalidatePreview();
  };
  $('weekday').onchange = invalidatePreview;
  $('hour').onchange = invalidatePreview;
  $('cap').oninput = invalidatePreview;
  $('schedule-preview').onclick = () => {
    say('schedule-text', 'Counting…');
    call('igSchedulePreview', request(), repeatValue(), $('cap').value).then(
      (p) => {
        const per =
          count(p.perRun, 'credit') +
          ' per run at most (' +
          count(p.targets, 'target') +
          ' \u00d7 ' +
          p.creditsEach +
          (p.uncapped > p.perRun ? ', cut to the cap; ' + fmt(p.uncapped) + ' uncapped' : '') +
          ')' +
          (p.runsForAll > 1
            ? '; each run continues where the last one stopped, so every target is refreshed once every ' +
              p.runsForAll +
              ' runs'
            : '');
        say(
          'schedule-text',
          p.range +
            ', ' +
            p.when +
            ': ' +
            per +
            ', about ' +
            fmt(p.perMonth) +
            ' a month (' +
            p.runsPerMonth +
            ' runs). First run: ' +
            p.nextLabel +
            '.' +
            (typeof p.balance === 'number' ? ' You have ' + fmt(p.balance) + '.' : '') +
            ' Answers younger than the freshness setting and half the period are reused (free).',
        );
        $('schedule-save').disabled = false;
      },
      (e) => {
        $('schedule-save').disabled = true;
        fail('schedule-text')(e);
      },
    );
  };
  $('schedule-save').onclick = () => {
    $('schedule-save').disabled = true;
    call('igScheduleSave', request(), repeatValue(), $('cap').value).then((l) => {
      showSchedules(l);
      say(
        'schedule-text',
        'Saved: it runs in the background from ' + l[l.length - 1].nextLabel + ' (listed under Schedules).',
        'ok',
      );
      loadHistory();
    }, fail('schedule-text'));
  };
}
