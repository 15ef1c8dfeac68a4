/** The add-on's menu and sidebar, and what the sidebar is told about the selection. */
import { gasBook } from './book';

const PRODUCT = 'IG Data';
/** The menu item, and the title of its cost question (gas/refresh.ts). */
export const REFRESH = 'Refresh selected cells';

export function onOpen(): void {
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem('Settings', 'showSidebar')
    .addItem('Bulk lookup', 'showSidebar')
    .addItem(REFRESH, 'igRefreshSelection')
    .addToUi();
}

export function showSidebar(): void {
  const html = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle(PRODUCT);
  SpreadsheetApp.getUi().showSidebar(html);
}

export function activeSelection(): { a1: string; rows: number; columns: number } | null {
  const r = gasBook().selection();
  return r && { a1: `${r.sheet}!${r.a1}`, rows: r.rows, columns: r.cols };
}
