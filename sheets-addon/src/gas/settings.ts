/**
 * Settings in properties. Everything but a personal key is in document properties: custom functions run for the owner
 * and for every editor of the sheet, and all of them can read the document's properties. A key saved "only for me" is
 * in the user's own properties, which only that user's executions can read, and only what the user does at the
 * keyboard uses it (the sidebar, the menu): never a custom function (Sheets runs those as an anonymous user) nor the
 * hourly trigger (each editor's trigger runs the whole document's schedules and background runs, so a personal key
 * there would spend one person's credits on everyone's work). Those use the sheet's shared key alone. Every property
 * name the add-on uses is here; the README lists them.
 */
import { DEFAULT_BASE_URL, baseUrlRefusal } from '@igdata/core';
import { freshHours } from '../engine/keep';
import type { PropertyStore, Settings } from '../context/context';
import { PROP } from '../context/property-names';
import { PropertiesQuotaError } from '../context/store-quota';

export { PROP };

/** Google's sentence at the daily quota of Properties reads and writes (the stand-in's wording, by analogy). */
const PROPERTIES_QUOTA = /Service invoked too many times for one day: properties\./;

/** `f`, with Google's daily quota of Properties calls as a PropertiesQuotaError (the entry points know it by that). */
function counted<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (PROPERTIES_QUOTA.test(String((e as Error)?.message ?? e))) throw new PropertiesQuotaError();
    throw e;
  }
}

type Store = Pick<
  GoogleAppsScript.Properties.Properties,
  'getProperty' | 'getProperties' | 'setProperty' | 'setProperties' | 'deleteProperty'
>;

/** A Properties store whose every call says the daily quota as a PropertiesQuotaError. */
const guarded = (p: GoogleAppsScript.Properties.Properties): Store => ({
  getProperty: (k) => counted(() => p.getProperty(k)),
  getProperties: () => counted(() => p.getProperties()),
  setProperty: (k, v) => counted(() => p.setProperty(k, v)),
  setProperties: (all: Record<string, string>) => counted(() => p.setProperties(all)),
  deleteProperty: (k) => counted(() => p.deleteProperty(k)),
});

export function props(): Store {
  const p = PropertiesService.getDocumentProperties();
  if (!p) throw new Error('IG Data needs a spreadsheet: open it from a Google Sheet (Extensions > IG Data).');
  return guarded(p);
}

/** The user's own properties (this script's, this user's: no other user's execution reads them). */
const userProps = (): Store => guarded(PropertiesService.getUserProperties());

/**
 * A personal key is for this spreadsheet only: user properties are per user and per script, and a published add-on is
 * one script for every document it is used in.
 */
const mine = (name: string): string => `${name}:${SpreadsheetApp.getActive().getId()}`;

/** The document's properties as a PropertyStore. */
export const documentProps = (): PropertyStore => ({
  get: (key) => props().getProperty(key),
  set: (key, value) => {
    props().setProperty(key, value);
  },
  delete: (key) => {
    props().deleteProperty(key);
  },
});

/**
 * The settings of this execution. `personal`: the user at the keyboard (sidebar, menu), whose own key comes first; a
 * custom function or the hourly trigger reads the document's properties alone.
 */
export function readSettings(personal = true): Settings {
  const all = props().getProperties();
  const own: Record<string, string> = personal ? userProps().getProperties() : {};
  const ownKey = own[mine(PROP.apiKey)] || '';
  return {
    apiKey: ownKey || all[PROP.apiKey] || '',
    keyScope: ownKey ? 'mine' : all[PROP.apiKey] ? 'everyone' : '',
    sharedKey: !!all[PROP.apiKey],
    baseUrl: all[PROP.baseUrl] || DEFAULT_BASE_URL,
    keySetBy: ownKey ? '' : all[PROP.keySetBy] || '',
    keySetByUser: ownKey ? '' : all[PROP.keySetByUser] || '',
    keySetAt: ownKey ? own[mine(PROP.keySetAt)] || '' : all[PROP.keySetAt] || '',
    freshHours: freshHours(all[PROP.freshHours]),
    refreshMarks: all[PROP.refresh] || '',
    claims: all[PROP.claims] || '',
  };
}

/** "••••••••wxyz": enough to recognise a key, never enough to use it. */
export const maskKey = (key: string): string => (key ? '•'.repeat(8) + (key.length > 8 ? key.slice(-4) : '') : '');

/** The user at the keyboard, when Apps Script tells (not without the userinfo.email scope, which we do not ask). */
export function currentUserEmail(): string {
  try {
    return Session.getActiveUser().getEmail() || Session.getEffectiveUser().getEmail() || '';
  } catch {
    return '';
  }
}

/**
 * Who is at the keyboard, as Apps Script tells it without any scope: a key unique to the user and this script that
 * does not reveal who they are, and changes every 30 days. Enough to tell "you" from "someone else".
 */
export function currentUserKey(): string {
  try {
    return Session.getTemporaryActiveUserKey() || '';
  } catch {
    return '';
  }
}

/**
 * How this copy of the add-on was installed: `bound`, a script of this spreadsheet (every editor can open it in
 * Extensions > Apps Script, read its properties and change its code), or `addon`, installed from the Marketplace (its
 * code and properties are out of the editors' reach). Apps Script says which: getInstallationSource() is NONE when the
 * script is not running as an add-on.
 */
export function installedAs(): 'bound' | 'addon' {
  try {
    return ScriptApp.getInstallationSource() === ScriptApp.InstallationSource.NONE ? 'bound' : 'addon';
  } catch {
    return 'bound'; // the stricter warning when Apps Script does not say
  }
}

function normalizeBaseUrl(input: unknown): string {
  const text = String(input ?? '')
    .trim()
    .replace(/\/+$/, '');
  if (!text) return '';
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(text)) {
    throw new Error(`The base URL must look like https://api.example.com; got ${JSON.stringify(text.slice(0, 80))}.`);
  }
  const refused = baseUrlRefusal(text); // the key's rule, the same in every product
  if (refused) throw new Error(refused);
  return text;
}

/** Where a key is saved: for everyone who edits this sheet (document properties), or only for the user saving it. */
export type KeyScope = 'everyone' | 'mine';

/** Stores a key (`key`: trimmed by the caller, the sidebar's igSetKey). */
export function saveKey(key: string, setBy: string, scope: KeyScope = 'everyone'): void {
  if (!key) throw new Error('Enter an API key first.');
  if (/\s/.test(key) || key.length > 512)
    throw new Error('That does not look like an API key (no spaces, at most 512 characters).');
  const at = new Date().toISOString();
  if (scope === 'mine') {
    userProps().setProperties({ [mine(PROP.apiKey)]: key, [mine(PROP.keySetAt)]: at });
    return;
  }
  props().setProperties({
    [PROP.apiKey]: key,
    [PROP.keySetBy]: setBy,
    [PROP.keySetByUser]: currentUserKey(),
    [PROP.keySetAt]: at,
  });
}

/** Removes the key this user's runs use: their own one if they have one, else the sheet's. */
export function removeKey(): void {
  const own = userProps();
  if (own.getProperty(mine(PROP.apiKey))) {
    for (const k of [PROP.apiKey, PROP.keySetAt]) own.deleteProperty(mine(k));
    return;
  }
  const p = props();
  for (const k of [PROP.apiKey, PROP.keySetBy, PROP.keySetByUser, PROP.keySetAt]) p.deleteProperty(k);
}

export function saveBaseUrl(url: unknown): string {
  const clean = normalizeBaseUrl(url);
  if (!clean || clean === DEFAULT_BASE_URL) props().deleteProperty(PROP.baseUrl);
  else props().setProperty(PROP.baseUrl, clean);
  return clean || DEFAULT_BASE_URL;
}

/** Saves the freshness setting (hours; the sidebar offers 1 hour to 30 days, anything else is the default). */
export const saveFreshHours = (hours: unknown) => props().setProperty(PROP.freshHours, String(freshHours(hours)));
