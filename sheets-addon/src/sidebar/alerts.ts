// Alerts on a tracker: a small section of each tracker's item, made here (no elements in
// sidebar.html): its rules in words, what the last run's check found and whether its email went, a
// rule to add (a measure, down/up/under/over, a number, since the previous run or over N days, the
// addresses to email) and Delete on each rule. Text is set as text: rules and addresses are typed.
import { call, type Answer, type Args } from './api';
import { deleteButton, errText } from './base';

type View = Answer<'igAlerts'>;

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text = ''): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  e.textContent = text;
  return e;
};

const select = (choices: [string, string][]): HTMLSelectElement => {
  const s = el('select');
  choices.forEach(([value, label]) => s.add(new Option(label, value)));
  return s;
};

function render(box: HTMLElement, trackerId: string, v: View): void {
  box.replaceChildren();
  const msg = el('p');
  msg.className = 'msg';
  const show = (next: View) => render(box, trackerId, next);
  const failed = (e: unknown) => {
    msg.textContent = errText(e);
    msg.className = 'msg error';
  };
  v.rules.forEach((r) => {
    const p = el('p', r.words + ' \u2192 ' + r.emails.join(', ') + ' ');
    p.appendChild(deleteButton('Delete this rule?', () => call('igAlertDelete', trackerId, r.id).then(show, failed)));
    box.appendChild(p);
  });
  if (!v.rules.length) box.appendChild(el('p', 'No alert rules yet.'));
  if (v.last) box.appendChild(el('p', 'Last run (' + v.last.run + '): ' + v.last.fired + ' fired. ' + v.last.mail));
  const measure = select(v.measures.map((m) => [m.key, m.words + (m.tracked ? '' : ' (not tracked)')]));
  const comparison = select([
    ['down', 'down'],
    ['up', 'up'],
    ['under', 'under'],
    ['over', 'over'],
  ]);
  const threshold = el('input');
  threshold.type = 'number';
  threshold.value = '5';
  threshold.title = 'A change in %; a value in the measure\u2019s unit (% for a rate)';
  const baseline = select([
    ['previous', 'since the previous run'],
    ['7', 'over 7 days'],
    ['30', 'over 30 days'],
  ]);
  comparison.onchange = () => (baseline.hidden = comparison.value === 'under' || comparison.value === 'over');
  const emails = el('input');
  emails.placeholder = 'you@example.com, ...';
  const add = el('button', 'Add rule');
  add.onclick = () => {
    const value = comparison.value === 'under' || comparison.value === 'over';
    // The server checks the rule (core's words for what is wrong) and says it back in words.
    const rule = {
      measure: measure.value,
      comparison: comparison.value,
      threshold: Number(threshold.value),
      ...(value ? {} : { baseline: baseline.value === 'previous' ? 'previous' : Number(baseline.value) }),
    } as Args<'igAlertAdd'>[1];
    call('igAlertAdd', trackerId, rule, emails.value).then(show, failed);
  };
  for (const e of [measure, comparison, threshold, baseline, emails, add, msg]) box.appendChild(e);
}

/** The "Alerts" section of a tracker's item: loads its rules when opened. */
export function alertsSection(trackerId: string): HTMLDetailsElement {
  const details = el('details');
  details.appendChild(el('summary', 'Alerts'));
  const box = el('div');
  details.appendChild(box);
  details.ontoggle = () => {
    if (details.open)
      call('igAlerts', trackerId).then(
        (v) => render(box, trackerId, v),
        (e) => (box.textContent = errText(e)),
      );
  };
  return details;
}
