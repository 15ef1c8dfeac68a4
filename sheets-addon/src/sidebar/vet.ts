// Vet these accounts: a column of accounts and the checks to run, each with its price; the cost
// first (per account, in all, what is kept and free, against the balance), then one click writes
// the scorecard sheet. Its checks are the document's bulk run, stepped from here (the hourly trigger
// goes on with it once the sidebar closes).
import { call, type Args } from './api';
import { $, errText, fail, fmt, say, state, type Job } from './base';
import { busyRunQuestion, count, selectionLabel } from './counts';
import { refreshBalance } from './settings';
import { loadUsage } from './usage';

/** The selection the last preview counted: Vet refuses another (the selection may move in between). */
let previewed = '';
let cancelling = false;

const boxes = () => Array.from(document.querySelectorAll<HTMLInputElement>('#vet-checks input'));

function request(): Args<'igVetStart'>[0] {
  const params: Record<string, string> = {
    sample: $('vet-sample').value.trim(),
    criteria: $('vet-criteria').value.trim(),
  };
  return {
    checks: boxes()
      .filter((b) => b.checked)
      .map((b) => b.value),
    params,
    cap: $('vet-cap').value,
    range: previewed,
  };
}

function invalidate(): void {
  $('vet-run').disabled = true;
  $('vet-replace').hidden = true;
}

export function refreshVetSelection(): Promise<void> {
  return call('igSelectionInfo').then((s) => {
    $('vet-selection').textContent = selectionLabel(s);
    invalidate();
  }, fail('vet-text'));
}

const fnOf = (job: Job) => (state.endpoints.find((e) => e.id === job.endpoint) || { fn: job.endpoint }).fn;

/** Steps the vet's checks until the last is done (or it stops: its cap, the balance, a cancel). */
function loop(job: Job, check: number, checks: number): Promise<void> {
  if (cancelling) {
    cancelling = false;
    return call('igBulkCancel', job.id).then(() => {
      $('vet-cancel').hidden = true;
      say('vet-text', 'Cancelled. The checks done are in the scorecard; Resume in Bulk lookup below continues.');
    }, fail('vet-text'));
  }
  return call('igBulkStep', job.id).then(
    (next) => {
      if (next.id !== job.id) check++;
      if (next.status === 'running') {
        say(
          'vet-text',
          'Check ' +
            check +
            ' of ' +
            checks +
            ' (' +
            fnOf(next) +
            '): ' +
            next.next +
            ' of ' +
            count(next.rows, 'account') +
            '\u2026 You can close this sidebar: it goes on in the background, about once an hour.',
        );
        return new Promise((r) => setTimeout(r, 0)).then(() => loop(next, check, checks));
      }
      $('vet-cancel').hidden = true;
      say(
        'vet-text',
        next.message || 'Stopped at check ' + check + ' of ' + checks + '.',
        next.status === 'done' ? 'ok' : 'error',
      );
      refreshBalance();
      loadUsage();
    },
    (e) => {
      $('vet-cancel').hidden = true;
      say(
        'vet-text',
        errText(e) + ' Resume in Bulk lookup below continues: finished rows are kept and not billed again.',
        'error',
      );
    },
  );
}

function start(replace: boolean): void {
  const req = request();
  $('vet-run').disabled = true;
  $('vet-replace').hidden = true;
  say('vet-text', 'Writing the scorecard\u2026');
  call('igVetStart', req, replace).then((r) => {
    $('vet-cancel').hidden = false;
    return loop(r.job, 1, r.checks);
  }, fail('vet-text'));
}

/**
 * Vets the selection, asking first when the document's bulk run is still going or paused (its
 * status says so): the vet takes its place only when the user presses "Vet instead".
 */
function vetOrAsk(): void {
  $('vet-run').disabled = true;
  call('igBulkStatus').then((current) => {
    if (!current || (current.status !== 'running' && current.status !== 'paused')) return start(false);
    say('vet-text', busyRunQuestion(current, `${fnOf(current)}, ${current.outSheet}`, 'Vet instead'), 'error');
    $('vet-replace').hidden = false;
  }, fail('vet-text'));
}

export function wireVet(): void {
  $('vet-use-selection').onclick = refreshVetSelection;
  for (const id of ['vet-sample', 'vet-cap'] as const) $(id).oninput = invalidate;
  call('igVetChoices').then((choices) => {
    choices.forEach((c) => {
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = c.id;
      box.checked = c.id === 'engagement' || c.id === 'audit' || c.id === 'niche';
      // Niche and summary both give the niche: one of them.
      box.onchange = () => {
        const other = c.id === 'niche' ? 'summary' : c.id === 'summary' ? 'niche' : '';
        boxes().forEach((b) => {
          if (box.checked && b.value === other) b.checked = false;
        });
        invalidate();
      };
      label.appendChild(box);
      label.appendChild(
        document.createTextNode(
          ' ' + c.id + ': ' + c.fields.join(', ') + ' (' + c.fn + ', ' + count(c.credits, 'credit') + ')',
        ),
      );
      $('vet-checks').appendChild(label);
    });
  }, fail('vet-text'));
  // Criteria typed: qualify is meant.
  $('vet-criteria').oninput = () => {
    boxes().forEach((b) => {
      if (b.value === 'qualify') b.checked = $('vet-criteria').value.trim() !== '';
    });
    invalidate();
  };
  $('vet-preview').onclick = () => {
    say('vet-text', 'Counting\u2026');
    call('igVetPreview', request()).then(
      (p) => {
        previewed = p.range;
        const parts = p.checks.map((c) => c.fn + ' ' + c.creditsEach + (c.kept ? ' (' + c.kept + ' kept)' : ''));
        const text =
          count(p.accounts, 'account') +
          ' \u00d7 ' +
          count(p.perAccount, 'credit') +
          ' (' +
          parts.join(' + ') +
          ') = ' +
          (p.exact ? '' : '~') +
          count(p.credits, 'credit') +
          (p.kept ? ', answers kept from earlier (' + p.kept + ') free' : '') +
          (p.credits > p.cap ? '; the cap of ' + fmt(p.cap) + ' stops it before' : '') +
          '.' +
          (typeof p.balance === 'number'
            ? ' You have ' + fmt(p.balance) + '.'
            : p.balanceMessage
              ? ' ' + p.balanceMessage
              : '');
        say('vet-text', text + (p.enough === false ? ' Not enough credits.' : ''), p.enough === false ? 'error' : '');
        $('vet-run').disabled = p.enough === false || !p.accounts;
      },
      (e) => {
        invalidate();
        fail('vet-text')(e);
      },
    );
  };
  $('vet-run').onclick = vetOrAsk;
  $('vet-replace').onclick = () => start(true);
  $('vet-cancel').onclick = () => {
    cancelling = true;
    $('vet-cancel').hidden = true;
    say('vet-text', 'Cancelling after the current step\u2026');
  };
}
