/**
 * Menu, sidebar and the server functions the sidebar calls (google.script.run). Everything the
 * sidebar receives about the key is its masked form.
 */
import type { EndpointDef } from '@igdata/core';
import { DASHBOARD_URL, DEFAULT_BASE_URL, describeCost, endpoints, fieldPaths, isIgError, prepare, runSync, send, userMessage } from '@igdata/core';
import * as bulk from './bulk';
import { CELL_RETRY, KEY_WHERE } from './functions/engine';
import { gasIO } from './gas-io';
import { targetParam } from './functions/layout';
import { currentUserEmail, maskKey, readSettings, removeKey, saveBaseUrl, saveKey } from './settings';

export const PRODUCT = 'IG Data';

export function onOpen(): void {
  SpreadsheetApp.getUi().createAddonMenu().addItem('Settings', 'showSidebar').addItem('Bulk lookup', 'showSidebar').addToUi();
}

export function showSidebar(): void {
  const html = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle(PRODUCT);
  SpreadsheetApp.getUi().showSidebar(html);
}

export interface EndpointInfo {
  id: string;
  fn: string;
  summary: string;
  target: string;
  params: { name: string; description: string; required: boolean; min?: number; max?: number; default?: number | string }[];
  columns: string[];
  fields: string[];
  cost: string;
  /** Bulk runs of list endpoints ask for items per target and write to a new sheet. */
  shape: 'single' | 'list';
  paginated: boolean;
  /** Items per page used for the cost estimate (null: one page). */
  pageSize: number | null;
}

const info = (e: EndpointDef): EndpointInfo => {
  const t = targetParam(e)!;
  return {
    id: e.id, fn: e.fn, summary: e.summary, target: t.name,
    params: e.params.filter((p) => p !== t && p.kind !== 'cursor').map((p) => ({ name: p.name, description: p.description, required: p.required, min: p.min, max: p.max, default: p.default })),
    columns: e.columns, fields: fieldPaths(e.schema), cost: describeCost(e),
    shape: e.shape, paginated: e.paginated, pageSize: bulk.pageSizeOf(e),
  };
};

function settingsView() {
  const s = readSettings();
  const you = currentUserEmail();
  return {
    hasKey: !!s.apiKey,
    masked: maskKey(s.apiKey),
    setBy: s.keySetBy,
    setAt: s.keySetAt,
    you,
    /** True when someone else's key (and credits) is used by this sheet. */
    othersKey: !!s.apiKey && !!s.keySetBy && !!you && s.keySetBy !== you,
    baseUrl: s.baseUrl,
    defaultBaseUrl: DEFAULT_BASE_URL,
    /** Where keys are created (the sidebar links to it when there is no key or a key is refused). */
    dashboardUrl: DASHBOARD_URL,
  };
}

export function sidebarState() {
  return { settings: settingsView(), endpoints: bulk.bulkEndpoints(endpoints).map(info), job: bulk.loadJob() };
}

/** Tests a key (the one typed, or the stored one) against the free credits endpoint. */
export function testKey(key?: string): { ok: boolean; balance?: number; message: string } {
  const s = readSettings();
  const apiKey = String(key ?? '').trim() || s.apiKey;
  if (!apiKey) return { ok: false, message: `No API key is set. Set it in ${KEY_WHERE}.` };
  try {
    const r = runSync(send({ apiKey, baseUrl: s.baseUrl, retry: CELL_RETRY }, prepare('credits', {})), gasIO());
    const v = r.data.credits_remaining ?? r.creditsRemaining;
    const balance = typeof v === 'number' ? v : Number(v);
    return { ok: true, balance, message: `The key works: ${balance.toLocaleString('en-US')} credits left.` };
  } catch (e) {
    if (isIgError(e)) return { ok: false, message: userMessage(e, { keyWhere: KEY_WHERE }) };
    throw e;
  }
}

/** Saves the key after testing it; a key the service refuses is not stored. */
export function setKey(key: string, label?: string) {
  const clean = String(key ?? '').trim();
  const test = testKey(clean || '\u0000');
  if (!test.ok && /Invalid API key|No API key/.test(test.message)) return { ...test, saved: false, settings: settingsView() };
  saveKey(clean, String(label ?? '').trim().slice(0, 120) || currentUserEmail());
  return { ...test, saved: true, settings: settingsView() };
}

export function deleteKey() {
  removeKey();
  return settingsView();
}

export function setBaseUrl(url: string) {
  saveBaseUrl(url);
  return settingsView();
}

export function getBalance() {
  return bulk.balance();
}

export function selectionInfo() {
  const r = SpreadsheetApp.getActiveRange();
  if (!r) return null;
  return { a1: `${r.getSheet().getName()}!${r.getA1Notation()}`, rows: r.getNumRows(), columns: r.getNumColumns() };
}
