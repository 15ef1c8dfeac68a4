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
} = { endpoints: [], job: null, previewed: false, cancelRequested: false, running: false, settings: null, balanceAt: 0 };

export function say(id: Id, text: string, kind?: string): void {
  const el = $(id);
  el.textContent = text || '';
  el.className = 'msg' + (kind ? ' ' + kind : '');
}
export const fmt = (n: unknown): string => (typeof n === 'number' && isFinite(n) ? n.toLocaleString('en-US') : '–');
export const errText = (e: unknown): string => String((e && (e as Error).message) || e).replace(/^(Exception|Error): /, '');

export function colName(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export const fail = (id: Id) => (e: unknown): void => say(id, errText(e), 'error');
