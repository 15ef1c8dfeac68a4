/**
 * Settings in document properties: custom functions run for the owner and for every editor of the
 * sheet, and all of them can read the document's properties (user properties would be per person).
 * Every property name the add-on uses is here; the README lists them.
 */
import { DEFAULT_BASE_URL, baseUrlRefusal } from '@igdata/core';
import { freshHours } from '../engine/keep';
import type { PropertyStore, Settings } from '../context/context';
import { PROP } from '../context/property-names';

export { PROP };

export function props(): GoogleAppsScript.Properties.Properties {
  const p = PropertiesService.getDocumentProperties();
  if (!p) throw new Error('IG Data needs a spreadsheet: open it from a Google Sheet (Extensions > IG Data).');
  return p;
}

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

export function readSettings(): Settings {
  const all = props().getProperties();
  return {
    apiKey: all[PROP.apiKey] || '',
    baseUrl: all[PROP.baseUrl] || DEFAULT_BASE_URL,
    keySetBy: all[PROP.keySetBy] || '',
    keySetAt: all[PROP.keySetAt] || '',
    freshHours: freshHours(all[PROP.freshHours]),
    refreshMarks: all[PROP.refresh] || '',
    claims: all[PROP.claims] || '',
  };
}

/** "••••••••wxyz": enough to recognise a key, never enough to use it. */
export const maskKey = (key: string): string => (key ? '•'.repeat(8) + (key.length > 8 ? key.slice(-4) : '') : '');

/** The user at the keyboard, when Apps Script tells (it may not without the email scope). */
export function currentUserEmail(): string {
  try {
    return Session.getActiveUser().getEmail() || Session.getEffectiveUser().getEmail() || '';
  } catch {
    return '';
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

/** Stores a key (`key`: trimmed by the caller, the sidebar's igSetKey). */
export function saveKey(key: string, setBy: string): void {
  if (!key) throw new Error('Enter an API key first.');
  if (/\s/.test(key) || key.length > 512)
    throw new Error('That does not look like an API key (no spaces, at most 512 characters).');
  props().setProperties({ [PROP.apiKey]: key, [PROP.keySetBy]: setBy, [PROP.keySetAt]: new Date().toISOString() });
}

export function removeKey(): void {
  const p = props();
  for (const k of [PROP.apiKey, PROP.keySetBy, PROP.keySetAt]) p.deleteProperty(k);
}

export function saveBaseUrl(url: unknown): string {
  const clean = normalizeBaseUrl(url);
  if (!clean || clean === DEFAULT_BASE_URL) props().deleteProperty(PROP.baseUrl);
  else props().setProperty(PROP.baseUrl, clean);
  return clean || DEFAULT_BASE_URL;
}

/** Saves the freshness setting (hours; the sidebar offers 1 hour to 30 days, anything else is the default). */
export const saveFreshHours = (hours: unknown) => props().setProperty(PROP.freshHours, String(freshHours(hours)));
