/**
 * The bundle's entry: everything the generated Code.js stubs call, under the global `IGDATA`.
 * Built by scripts/build/sheets.mjs as a minified IIFE (dist/bundle.js).
 */
import { customFunction } from './functions/engine';
import * as bulk from './bulk';
import * as menu from './menu';
import { getMany, putMany } from './cache';

/** Entry of every IG... custom function: `IGDATA.fn('profile', [handle, fields, header, refresh])`. */
export const fn = customFunction;
export const onOpen = menu.onOpen;
export const showSidebar = menu.showSidebar;
export const sidebarState = menu.sidebarState;
export const testKey = menu.testKey;
export const setKey = menu.setKey;
export const deleteKey = menu.deleteKey;
export const setBaseUrl = menu.setBaseUrl;
export const getBalance = menu.getBalance;
export const selectionInfo = menu.selectionInfo;
export const bulkPreview = bulk.preview;
export const bulkStart = bulk.start;
export const bulkStep = bulk.step;
export const bulkCancel = bulk.cancel;
export const bulkResume = bulk.resume;
export const bulkStatus = bulk.loadJob;

/** Internal: the cache's chunked read and write, exposed for the built-bundle tests. */
export const _cache = { getMany, putMany };
