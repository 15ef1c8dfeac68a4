// Shared helpers and the sidebar's state. The sidebar talks to the server functions of Code.js
// through call() (api.ts); small and dependency-free on purpose. The API key never comes back from
// the server: only a mask.
import type { Answer } from './api';
import type { ELEMENTS } from './elements';
import type { sidebarEndpoints } from '../sidebar-endpoints';

type Id = keyof typeof ELEMENTS;
/** The element of sidebar.html with this id, typed by its tag (elements.ts). */
export const $ = <K extends Id>(id: K) => document.getElementById(id) as HTMLElementTagNameMap[(typeof ELEMENTS)[K]];

/** An endpoint the bulk lookup offers (IG_ENDPOINTS, written into the page by the build). */
export type Endpoint = ReturnType<typeof sidebarEndpoints>[number];
export type Settings = Answer<'igDeleteKey'>;
export type Job = NonNullable<Answer<'igBulkStatus'>>;
export type Usage = Answer<'igUsage'>;

export const state: {
  endpoints: Endpoint[];
  job: Job | null;
  previewed: boolean;
  cancelRequested: boolean;
  running: boolean;
  settings: Settings | null;
  balance?: number | null;
  balanceAt: number;
  usage?: Usage;
} = {
  endpoints: [],
  job: null,
  previewed: false,
  cancelRequested: false,
  running: false,
  settings: null,
  balanceAt: 0,
};

/**
 * A message in the element `id`; `docs` (a job's reference page for the error that stopped it, which core kept only
 * on the base URL's origin) follows as a link opening in a new tab.
 */
export function say(id: Id, text: string, kind?: string, docs?: string | null): void {
  const el = $(id);
  el.textContent = text || '';
  el.className = 'msg' + (kind ? ' ' + kind : '');
  if (!docs || !/^https?:\/\//.test(docs)) return;
  const a = document.createElement('a');
  a.href = docs;
  a.target = '_blank';
  a.rel = 'noopener';
  a.textContent = 'More about this error';
  el.append(' ', a);
}
export const fmt = (n: unknown): string => (typeof n === 'number' && isFinite(n) ? n.toLocaleString('en-US') : '–');

export const errText = (e: unknown): string =>
  String((e && (e as Error).message) || e).replace(/^(Exception|Error): /, '');

export function colName(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export const fail =
  (id: Id) =>
  (e: unknown): void =>
    say(id, errText(e), 'error');

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Fills a day and an hour select (Monday and 07:00 chosen), as a schedule's, a tracker's and a benchmark's. */
export function fillWhen(
  weekday: 'weekday' | 'tracker-weekday' | 'bench-weekday',
  hour: 'hour' | 'tracker-hour' | 'bench-hour',
): void {
  DAYS.forEach((d, i) => $(weekday).add(new Option(d, String(i), i === 1, i === 1)));
  for (let h = 0; h < 24; h++) $(hour).add(new Option((h < 10 ? '0' : '') + h + ':00', String(h), h === 7, h === 7));
}

/** A listed item (a schedule, a tracker): its lines, the first strong, each its own paragraph. */
export function listItem(className: string, lines: readonly (readonly ['strong' | 'span', string])[]): HTMLDivElement {
  const div = document.createElement('div');
  div.className = className;
  lines.forEach(([tag, text]) => {
    const p = document.createElement('p');
    const el = document.createElement(tag);
    el.textContent = text;
    p.appendChild(el);
    div.appendChild(p);
  });
  return div;
}

/** A Delete button that asks first: the first click turns it into the question, the second does it. */
export function deleteButton(question: string, onConfirm: () => void): HTMLButtonElement {
  const del = document.createElement('button');
  del.textContent = 'Delete';
  del.className = 'delete';
  del.onclick = () => {
    if (del.textContent === 'Delete') {
      del.textContent = question;
      del.className = 'delete danger';
      return;
    }
    onConfirm();
  };
  return del;
}
