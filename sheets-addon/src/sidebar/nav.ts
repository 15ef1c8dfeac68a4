// One view at a time: the home list (the jobs, then the settings) or one section, so that at the
// sidebar's 300 px width every job is in sight without scrolling. Any element with data-open="<view>"
// goes there; with a key set the sidebar opens on the list, without one on the key form.
import { $, type Settings } from './base';

const VIEWS = [
  'menu',
  'settings',
  'tracker',
  'benchmark',
  'vet',
  'watch',
  'bulk',
  'schedules',
  'history',
  'usage',
] as const;
export type View = (typeof VIEWS)[number];

/** Shows one view, the others hidden; the back link everywhere but on the list. */
export function show(view: View): void {
  for (const v of VIEWS) {
    const el = document.getElementById(v);
    if (el) el.hidden = v !== view;
  }
  $('back').hidden = view === 'menu';
  $('title').hidden = view !== 'menu';
  document.body.setAttribute('data-view', view);
  window.scrollTo(0, 0);
}

export function wireNav(): void {
  document.addEventListener('click', (e) => {
    const to = e.target instanceof Element ? e.target.closest('[data-open]') : null;
    const view = to && to.getAttribute('data-open');
    if (view && (VIEWS as readonly string[]).includes(view)) show(view as View);
  });
}

/** Whether the user has a key to work with: one for everyone, or their own (only for them). */
export const hasAKey = (s: Settings): boolean => s.hasKey || s.scope === 'mine';
