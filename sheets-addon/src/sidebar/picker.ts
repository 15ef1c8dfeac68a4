// The tracker's field picker: the fields grouped by the function that returns them (what an account
// costs is per function), each group titled by what it looks up, and a search box that keeps the
// fields (and groups) whose name, function or topic holds every word typed.
import { $, state } from './base';
import { count } from './counts';

interface Choice {
  field: string;
  fn: string;
  credits: number;
}

/** A group's title: what its function looks up (the bulk lookup's summary), its name and price. */
function groupTitle(fn: string, credits: number): string {
  const e = state.endpoints.find((x) => x.fn === fn);
  const what = e ? e.summary.replace(/\.$/, '') : fn;
  return what + ' \u00b7 ' + fn + ' \u00b7 ' + count(credits, 'credit') + ' an account';
}

/** Fills the picker; `toggle` hears a box ticked or cleared. */
export function fillPicker(choices: Choice[], toggle: (field: string, on: boolean) => void): void {
  const box = $('tracker-picker');
  box.innerHTML = '';
  const fns = choices.map((c) => c.fn).filter((fn, i, all) => all.indexOf(fn) === i);
  for (const fn of fns) {
    const members = choices.filter((c) => c.fn === fn);
    const group = document.createElement('div');
    group.className = 'pick-group';
    const title = document.createElement('p');
    title.className = 'pick-title';
    title.textContent = groupTitle(fn, members[0].credits);
    group.appendChild(title);
    group.setAttribute('data-topic', title.textContent.toLowerCase());
    for (const c of members) {
      const label = document.createElement('label');
      label.className = 'pick';
      const b = document.createElement('input');
      b.type = 'checkbox';
      b.value = c.field;
      b.onchange = () => toggle(c.field, b.checked);
      label.appendChild(b);
      label.appendChild(document.createTextNode(' ' + c.field));
      label.setAttribute('data-field', c.field);
      group.appendChild(label);
    }
    box.appendChild(group);
  }
}

/** Shows the fields matching every word of `query` (in the field's name or its group's title); all when empty. */
export function filterPicker(query: string): void {
  const words = query
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(Boolean);
  $('tracker-picker')
    .querySelectorAll<HTMLDivElement>('.pick-group')
    .forEach((group) => {
      const topic = group.getAttribute('data-topic') || '';
      let shown = 0;
      group.querySelectorAll<HTMLLabelElement>('label.pick').forEach((label) => {
        const name =
          String(label.getAttribute('data-field')).replace(/_/g, ' ') + ' ' + label.getAttribute('data-field');
        const hit = words.every((w) => name.includes(w) || topic.includes(w));
        label.hidden = !hit;
        if (hit) shown++;
      });
      group.hidden = shown === 0;
    });
}
