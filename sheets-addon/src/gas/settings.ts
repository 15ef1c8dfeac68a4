/**
 * Settings in document properties: custom functions run for the owner and for every editor of the
 * sheet, and all of them can read the document's properties (user properties would be per person).
 * Every property name the add-on uses is here; the README lists them.
 */
import { DEFAULT_BASE_URL } from '@igdata/core';
import { freshHours } from '../engine/keep';

export const PROP = {
  /** The API key (secret). Never shown back: the sidebar gets only its masked form. */
  apiKey: 'IGDATA_API_KEY',
  /** Email (or label) of who set the key: an editor is told whose credits the sheet spends. */
  keySetBy: 'IGDATA_KEY_SET_BY',
  /** ISO time when the key was set. */
  keySetAt: 'IGDATA_KEY_SET_AT',
  /** Base URL override; absent = the production address. */
  baseUrl: 'IGDATA_BASE_URL',
  /** The bulk job (small JSON, see bulk/job.ts). */
  job: 'IGDATA_BULK_JOB',
  /** Hours an answer is reused (1-720; absent = 168, 7 days): engine/keep.ts. */
  freshHours: 'IGDATA_FRESH_HOURS',
  /** Cells marked by "Refresh selected cells" (gas/refresh.ts). */
  refresh: 'IGDATA_REFRESH',
  /** Credits by day and by what spent them (engine/usage.ts). */
  usage: 'IGDATA_USAGE',
  /** Scheduled lookups (schedule/schedules.ts); each one's run is in IGDATA_BULK_JOB:<its id>. */
  schedules: 'IGDATA_SCHEDULES',
  /** "off" turns claims off (engine/claim-store.ts), for the benchmark and to see the tests fail. */
  claims: 'IGDATA_CLAIMS',
} as const;

export function props(): GoogleAppsScript.Properties.Properties {
  const p = PropertiesService.getDocumentProperties();
  if (!p) throw new Error('IG Data needs a spreadsheet: open it from a Google Sheet (Extensions > IG Data).');
  return p;
}

export interface Settings {
  apiKey: string;
  baseUrl: string;
  keySetBy: string;
  keySetAt: string;
  freshHours: number;
  refreshMarks: string;
  claims: string;
}

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
export function maskKey(key: string): string {
  if (!key) return '';
  const tail = key.length > 8 ? key.slice(-4) : '';
  return `${'•'.repeat(8)}${tail}`;
}

/** The user at the keyboard, when Apps Script tells (it may not without the email scope). */
export function currentUserEmail(): string {
  try {
    return Session.getActiveUser().getEmail() || Session.getEffectiveUser().getEmail() || '';
  } catch {
    return '';
  }
}

function normalizeBaseUrl(input: unknown): string {
  const text = String(input ?? '').trim().replace(/\/+$/, '');
  if (!text) return '';
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(text)) {
    throw new Error(`The base URL must look like https://api.example.com; got ${JSON.stringify(text.slice(0, 80))}.`);
  }
  return text;
}

export function saveKey(key: string, setBy: string): void {
  const clean = String(key ?? '').trim();
  if (!clean) throw new Error('Enter an API key first.');
  if (/\s/.test(clean) || clean.length > 512) throw new Error('That does not look like an API key (no spaces, at most 512 characters).');
  props().setProperties({ [PROP.apiKey]: clean, [PROP.keySetBy]: setBy, [PROP.keySetAt]: new Date().toISOString() });
}

export function removeKey(): void {
  const p = props();
  p.deleteProperty(PROP.apiKey);
  p.deleteProperty(PROP.keySetBy);
  p.deleteProperty(PROP.keySetAt);
}

export function saveBaseUrl(url: unknown): string {
  const clean = normalizeBaseUrl(url);
  if (!clean || clean === DEFAULT_BASE_URL) props().deleteProperty(PROP.baseUrl);
  else props().setProperty(PROP.baseUrl, clean);
  return clean || DEFAULT_BASE_URL;
}

/** Saves the freshness setting (hours; the sidebar offers 1 hour to 30 days, anything else is the default). */
export const saveFreshHours = (hours: unknown) => props().setProperty(PROP.freshHours, String(freshHours(hours)));

/** A new id (bulk jobs). */
export const newId = (): string => Utilities.getUuid();
