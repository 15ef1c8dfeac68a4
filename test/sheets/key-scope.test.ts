/**
 * A shared sheet's key (issue 38), with the built add-on in the Apps Script stand-in against the sandbox: a key saved
 * "for everyone who edits this sheet" (document properties) or "only for me" (the user's own properties, for this
 * spreadsheet). Who pays is read from the sandbox's balances. A personal key is used by what its owner does at the
 * keyboard only: never by a formula (Sheets runs custom functions as an anonymous user, and the add-on reads no user
 * property there) nor by the hourly trigger (each editor's trigger runs the whole document's work). "Set by" says what
 * Apps Script knows: "you" from the temporary user key, otherwise a typed name said to be unconfirmed.
 */
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import { DEMO_KEY, PROP, sandboxedAddon } from './harness';

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const HOUR = 3600000;

const env = sandboxedAddon();

function sheet(opts: Parameters<ReturnType<typeof sandboxedAddon>['runtime']>[0] = {}): GasRuntime {
  const rt = env.runtime({ key: null, owner: OWNER, ...opts });
  rt.spreadsheet.sheet('Sheet1').setValues('A1', [['handle'], ['nasa'], ['natgeo']]);
  rt.spreadsheet.select('Sheet1!A2:A3');
  return rt;
}
/** A sidebar call by `user` at the keyboard. */
const as = (rt: GasRuntime, user: string, fn: string, ...args: unknown[]) => rt.run(fn, args, { kind: 'script', user });
const settings = (rt: GasRuntime, user: string) => as(rt, user, 'igSidebarState').settings;

test('for everyone: the document holds it; "set by you" only for whoever Apps Script knows saved it, a typed name otherwise', async () => {
  const rt = sheet();
  const saved = as(rt, OWNER, 'igSetKey', DEMO_KEY, 'maya@example.com', 'everyone');
  expect(saved).toMatchObject({ ok: true, saved: true });
  expect(rt.properties.document.get(PROP.apiKey)).toBe(DEMO_KEY);
  expect(settings(rt, OWNER)).toMatchObject({ scope: 'everyone', setByYou: true, sharedKey: true });
  // An editor sees a name typed by someone, never "you", and the key masked only.
  const theirs = settings(rt, EDITOR);
  expect(theirs).toMatchObject({ scope: 'everyone', setByYou: false, setBy: 'maya@example.com', installedAs: 'bound' });
  expect(JSON.stringify(theirs)).not.toContain(DEMO_KEY);
  // The temporary user key is stored, no email (the add-on has no email scope).
  expect(rt.properties.document.get('IGDATA_KEY_SET_BY_USER')).toMatch(/^[\w-]{20,}$/);
});

test('only for me: the editor’s sidebar runs use their key; formulas and the hourly trigger use the sheet’s; nobody else sees it', async () => {
  const rt = sheet();
  as(rt, OWNER, 'igSetKey', DEMO_KEY, 'owner', 'everyone');
  const mine = await env.sandbox.createKey(1000);
  expect(as(rt, EDITOR, 'igSetKey', mine, '', 'mine')).toMatchObject({ ok: true, saved: true });
  // Stored in the editor's own properties, for this spreadsheet; the document's key unchanged.
  expect(rt.properties.document.get(PROP.apiKey)).toBe(DEMO_KEY);
  expect(Object.values(rt.properties.user(EDITOR).toObject())).toContain(mine);
  expect(rt.properties.user(OWNER).toObject()).toEqual({});
  expect(settings(rt, EDITOR)).toMatchObject({ scope: 'mine', sharedKey: true, masked: `••••••••${mine.slice(-4)}` });
  expect(settings(rt, OWNER)).toMatchObject({ scope: 'everyone', masked: `••••••••${DEMO_KEY.slice(-4)}` });

  // The editor's bulk run from the sidebar spends the editor's credits.
  const before = { mine: await env.sandbox.balance(mine), demo: await env.sandbox.balance(DEMO_KEY) };
  let job = as(rt, EDITOR, 'igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'beside' });
  while (job.status === 'running') job = as(rt, EDITOR, 'igBulkStep', job.id);
  expect(job).toMatchObject({ status: 'done', credits: 2 });
  expect(await env.sandbox.balance(mine)).toBe(before.mine - 2);
  expect(await env.sandbox.balance(DEMO_KEY)).toBe(before.demo);

  // A formula, whoever is at the keyboard, spends the sheet's key, and reads no user property.
  expect(typeof rt.run('IGPROFILE', ['nike', 'followers'], { kind: 'custom', user: EDITOR })).toBe('number');
  expect(await env.sandbox.balance(DEMO_KEY)).toBe(before.demo - 1);
  expect(await env.sandbox.balance(mine)).toBe(before.mine - 2);
  expect(rt.stats.customUserPropertyReads).toBe(0);

  // The editor's hourly trigger finishes a run in the background with the sheet's key, not theirs.
  rt.spreadsheet.sheet('Sheet1').setValues('A4', [['starbucks']]);
  rt.spreadsheet.select('Sheet1!A4:A4');
  as(rt, EDITOR, 'igBulkStart', { endpoint: 'profile', fields: 'followers', output: 'sheet' });
  expect(rt.triggers.installed.map((t) => t.user).sort()).toEqual([EDITOR, OWNER]);
  rt.advance(HOUR);
  expect(as(rt, EDITOR, 'igBulkStatus')).toMatchObject({ status: 'done', credits: 1 });
  expect(await env.sandbox.balance(mine)).toBe(before.mine - 2);
  expect(await env.sandbox.balance(DEMO_KEY)).toBe(before.demo - 2);

  // Removing it removes the editor's own key only; the sheet's stays.
  expect(as(rt, EDITOR, 'igDeleteKey')).toMatchObject({ scope: 'everyone', hasKey: true });
  expect(Object.values(rt.properties.user(EDITOR).toObject())).not.toContain(mine);
  expect(rt.properties.document.get(PROP.apiKey)).toBe(DEMO_KEY);
  expect(rt.findSecret(mine)).toEqual([]);
});

test('only for me with no key for everyone: formulas say no key is set; installed from the Marketplace, the sidebar says so', async () => {
  const rt = sheet({ installationSource: 'WEB_STORE_ADD_ON' });
  const mine = await env.sandbox.createKey(1000);
  as(rt, OWNER, 'igSetKey', mine, '', 'mine');
  expect(settings(rt, OWNER)).toMatchObject({ scope: 'mine', sharedKey: false, installedAs: 'addon' });
  expect(String(rt.run('IGPROFILE', ['nasa', 'followers'], { kind: 'custom', user: OWNER }))).toMatch(/API key/);
  expect(await env.sandbox.balance(mine)).toBe(1000);
  expect(rt.stats.customUserPropertyReads).toBe(0);
});
