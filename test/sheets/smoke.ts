/**
 * The smoke test of an installed add-on, whichever way it got into the sheet (clasp's push of
 * sheets-addon/dist, or the paste-in files of docs/install-sheets.md): the menu, a formula over a
 * column against the sandbox, the sidebar, the hourly trigger's function.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';

/** What the smoke test saw, for one `expect(...).toEqual(...)`. */
export function smoke(rt: GasRuntime) {
  rt.trigger('onOpen', { authMode: 'NONE' });
  const menu = rt.ui.menus[0];
  rt.run('showSidebar', [], { kind: 'script' });
  return {
    menu: menu?.caption,
    settings: JSON.stringify(menu?.items ?? []).includes('showSidebar'),
    followers: rt.run('IGPROFILE', [[['nasa'], ['@natgeo']], 'followers'], { kind: 'custom' }),
    // the sidebar file the add-on opens by name, whole: its title and its script
    sidebar: [rt.ui.lastSidebar?.title, /<script>[\s\S]*google\.script\.run/.test(rt.ui.lastSidebar?.content ?? '')],
    hourly: typeof rt.run('igKeepAnswers', [], { kind: 'script' }),
  };
}

export const SMOKE_PASSED = {
  menu: 'IG Data',
  settings: true,
  followers: [[97400000], [283000000]],
  sidebar: ['IG Data', true],
  hourly: 'number',
};
