// Bulk lookup: the lookup's form, the cost preview, and the run the sidebar steps (or the hourly trigger, once it
// closes).
import { call, type Args } from './api';
import { $, colName, errText, fail, fmt, say, state, type Job } from './base';
import { busyRunQuestion, count, selectionLabel } from './counts';
import { loadHistory } from './history';
import { refreshBalance } from './settings';

/** What the form asks for (the bulk preview, start and the schedule's preview and save take it). */
export type BulkRequest = Args<'igBulkPreview'>[0];

const endpointById = (id: string) => state.endpoints.find((e) => e.id === id) ?? null;

export function showEndpoints(): void {
  const sel = $('endpoint');
  sel.innerHTML = '';
  state.endpoints.forEach((e) => {
    const o = document.createElement('option');
    o.value = e.id;
    o.textContent = e.fn + ' \u2013 ' + e.summary + ' (' + e.cost + ')';
    sel.appendChild(o);
  });
  showParams();
}

function showParams(): void {
  const e = endpointById($('endpoint').value);
  const box = $('params');
  box.innerHTML = '';
  if (!e) return;
  e.params.forEach((p) => {
    const l = document.createElement('label');
    l.textContent = p.name + (p.required ? '' : ' (optional)');
    l.htmlFor = 'param-' + p.name;
    const i = document.createElement('input');
    i.type = 'text';
    i.id = 'param-' + p.name;
    i.dataset.param = p.name;
    i.placeholder = p.default === undefined ? '' : String(p.default);
    i.title = p.description;
    box.appendChild(l);
    box.appendChild(i);
  });
  $('fields').placeholder = e.columns.join(',');
  // Lists: items per target, and many rows per target can only go to a new sheet.
  const list = e.shape === 'list';
  $('limit-box').hidden = !list;
  $('limit').disabled = !list || !e.paginated;
  $('limit-note').textContent =
    (e.paginated ? 'About ' + count(e.pageSize, 'item') + ' a page. ' : 'One page per target. ') +
    'Lists go to a new sheet: one row per item, the target in column A.';
  if (list) $('output-sheet').checked = true;
  $('output-beside').disabled = list;
  $('output-history').disabled = list;
  invalidatePreview();
}

/** The form changed: the cost preview (and the schedule's) must be made again before a run or a save. */
export function invalidatePreview(): void {
  state.previewed = false;
  $('run').disabled = true;
  say('preview-text', '');
  $('output-note').hidden = !$('output-history').checked;
  $('schedule-save').disabled = true;
  say('schedule-text', '');
}

export function request(): BulkRequest {
  const params: Record<string, string> = {};
  document.querySelectorAll<HTMLInputElement>('#params input').forEach((i) => {
    if (i.value.trim() !== '') params[i.dataset.param!] = i.value.trim();
  });
  const output = $('output-sheet').checked ? 'sheet' : $('output-history').checked ? 'history' : 'beside';
  const r: BulkRequest = { endpoint: $('endpoint').value, params, fields: $('fields').value, output };
  const e = endpointById(r.endpoint);
  if (e && e.shape === 'list' && e.paginated && $('limit').value.trim() !== '') r.limit = $('limit').value.trim();
  return r;
}

export function showJob(job: Job | null): void {
  state.job = job;
  const box = $('job');
  if (!job) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const pct = job.rows ? Math.round((job.next / job.rows) * 100) : 100;
  $('progress-fill').style.width = pct + '%';
  $('progress').setAttribute('aria-valuenow', String(pct));
  let text =
    job.next +
    ' of ' +
    count(job.rows, 'row') +
    ' (' +
    pct +
    '%), ' +
    (job.kind === 'list' ? count(job.items, 'row') + ' written, ' : '') +
    count(job.credits, 'credit') +
    ' spent, ' +
    count(job.requests, 'request') +
    ', ' +
    job.cached +
    ' from cache';
  if (job.skipped) text += ', ' + job.skipped + ' already written';
  if (job.kind !== 'rows' && job.duplicates) text += ', ' + count(job.duplicates, 'repeated target') + ' skipped';
  if (job.status === 'done') text = 'Done: ' + text + '.';
  else if (job.status === 'cancelled') text = 'Cancelled at ' + text + '.';
  else if (job.status === 'paused') text = 'Paused at ' + text + '.';
  say('progress-text', text, job.status === 'done' ? 'ok' : '');
  // A run waiting for Google's daily quota is not in error: it goes on by itself (its message says when).
  if (job.message) say('bulk-message', job.message, job.status === 'paused' && !job.resumeAt ? 'error' : '', job.docs);
  else if (job.status === 'done') say('bulk-message', 'Written to ' + outputPlace(job) + '.', 'ok');
  const open = job.status !== 'done';
  // A run the sidebar is not stepping (it was closed) goes on through the hourly trigger.
  if (job.status === 'running' && !state.running)
    say(
      'bulk-message',
      'Going on in the background: Apps Script runs it about once an hour ' +
        'while this sidebar is closed. Resume continues it here now.',
    );
  else if (job.status === 'running')
    say('bulk-message', 'You can close this sidebar: the run goes on in the background, about once an hour.');
  $('cancel').hidden = !(job.status === 'running' && state.running);
  $('resume').hidden = !(open && !state.running);
  $('resume').textContent = job.status === 'running' ? 'Continue here' : 'Resume';
}

/** Where a run wrote: a new sheet is named, so it can be found among the tabs. */
function outputPlace(job: Job): string {
  if (job.kind === 'history') return 'the history sheet \u201c' + job.outSheet + '\u201d (a dated row per target)';
  if (job.kind === 'list' || job.copyTargets)
    return 'the new sheet \u201c' + job.outSheet + '\u201d (its tab is at the bottom of the window)';
  const n = (job.fields || []).length || 1;
  return 'columns ' + colName(job.outCol) + ':' + colName(job.outCol + n - 1) + ' of ' + job.outSheet;
}

/** Starts the run the form describes (`replace`: in place of an unfinished one, as the user confirmed) and steps it. */
function begin(replace: boolean): void {
  call('igBulkStart', request(), replace).then(
    (job) => {
      state.running = true;
      state.cancelRequested = false;
      $('cancel').disabled = false;
      showJob(job);
      return loop();
    },
    (e) => {
      $('run').disabled = !state.previewed;
      fail('bulk-message')(e);
    },
  );
}

/** Asks before a new run replaces one still going or paused: what it would leave undone. */
function askReplace(current: Job): void {
  if (!state.job || state.job.id !== current.id) showJob(current);
  say('replace-question', busyRunQuestion(current, outputPlace(current), 'Run this one instead'));
  $('replace-confirm').hidden = false;
  $('replace-no').focus();
}

/** Steps the run until it stops, or cancels it after the current step when asked. */
function loop(): Promise<void> | undefined {
  const current = state.job;
  if (!current) return;
  if (state.cancelRequested) {
    state.cancelRequested = false;
    state.running = false;
    return call('igBulkCancel', current.id).then(showJob, fail('bulk-message'));
  }
  return call('igBulkStep', current.id).then(
    (job) => {
      if (state.job && state.job.id !== current.id) return; // replaced by a run started here: that one's loop goes on
      state.running = job.status === 'running';
      showJob(job);
      // Yield to the page between steps, so a click on Cancel is seen before the next step.
      if (job.status === 'running') return new Promise((r) => setTimeout(r, 0)).then(loop);
      // Whatever stopped it (done, out of credits, its cap), the balance at the top is now old.
      refreshBalance();
      if (job.status === 'done' && job.kind === 'history') loadHistory();
    },
    (e) => {
      if (state.job && state.job.id !== current.id) return;
      state.running = false;
      showJob(state.job);
      say(
        'bulk-message',
        errText(e) + ' Press Resume to continue: finished rows are kept and not billed again.',
        'error',
      );
    },
  );
}

export function refreshSelection(): Promise<void> {
  return call('igSelectionInfo').then((s) => {
    $('selection').textContent = selectionLabel(s);
    invalidatePreview();
  }, fail('bulk-message'));
}

export function wireBulk(): void {
  $('use-selection').onclick = refreshSelection;
  $('endpoint').onchange = showParams;
  $('fields').oninput = invalidatePreview;
  $('output-beside').onchange = invalidatePreview;
  $('output-sheet').onchange = invalidatePreview;
  $('output-history').onchange = invalidatePreview;
  $('params').oninput = invalidatePreview;
  $('limit').oninput = invalidatePreview;

  $('preview').onclick = () => {
    say('preview-text', 'Counting…');
    call('igBulkPreview', request()).then(
      (p) => {
        const parts = [count(p.unique, 'unique target') + ' in ' + count(p.rows, 'row')];
        if (p.cached) parts.push(p.cached + ' cached (free)');
        if (p.invalid) parts.push(p.invalid + ' invalid');
        let cost =
          (p.exact ? '' : '~') + count(p.credits, 'credit') + ' (' + p.toFetch + ' \u00d7 ' + p.creditsEach + ')';
        if (p.list) {
          // Pages, not targets: the page count is known only after fetching, so this is an upper bound.
          const l = p.list;
          if (l.duplicates) parts.push(l.duplicates + ' repeated');
          const each =
            l.pageSize === null
              ? 'one page per target'
              : l.limit === null
                ? 'the first page of each target'
                : 'up to ' +
                  count(l.pagesEach, 'page') +
                  ' of ' +
                  l.pageSize +
                  ' per target for ' +
                  count(l.limit, 'item');
          cost =
            '~' +
            count(p.credits, 'credit') +
            ' at most (' +
            count(l.pages, 'page') +
            ' \u00d7 ' +
            p.creditsEach +
            '; ' +
            each +
            ')';
        }
        const bal =
          p.balance !== undefined && p.balance !== null
            ? ', you have ' + fmt(p.balance)
            : p.balanceMessage
              ? '. ' + p.balanceMessage.replace(/\.$/, '')
              : '';
        const text = parts.join(', ') + ': ' + cost + bal + '. Output: ' + p.output + '.';
        const ok = p.enough !== false && p.outputFree;
        say('preview-text', text + (p.enough === false ? ' Not enough credits.' : ''), ok ? '' : 'error');
        state.previewed = true;
        $('run').disabled = !ok;
      },
      (e) => {
        state.previewed = false;
        $('run').disabled = true;
        fail('preview-text')(e);
      },
    );
  };
  // The document has one bulk run: one still going or paused is replaced only after the user says so.
  $('run').onclick = () => {
    if (!state.previewed) return;
    $('run').disabled = true;
    say('bulk-message', '');
    call('igBulkStatus').then((current) => {
      if (current && (current.status === 'running' || current.status === 'paused')) askReplace(current);
      else begin(false);
    }, fail('bulk-message'));
  };
  $('replace-yes').onclick = () => {
    $('replace-confirm').hidden = true;
    begin(true);
  };
  $('replace-no').onclick = () => {
    $('replace-confirm').hidden = true;
    $('run').disabled = !state.previewed;
    if (state.job) showJob(state.job);
    say(
      'bulk-message',
      'Nothing was started: that run was kept. ' +
        (state.running
          ? 'It goes on here; run this one when it is done.'
          : 'Resume it, or cancel it and run this one.'),
    );
  };
  $('cancel').onclick = () => {
    state.cancelRequested = true;
    $('cancel').disabled = true;
    say('bulk-message', 'Cancelling after the current step…');
  };
  $('resume').onclick = () => {
    if (!state.job) return;
    say('bulk-message', '');
    call('igBulkResume', state.job.id).then((job) => {
      state.running = true;
      state.cancelRequested = false;
      $('cancel').disabled = false;
      showJob(job);
      return loop();
    }, fail('bulk-message'));
  };
}
