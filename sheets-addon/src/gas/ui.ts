/** The add-on's menu and sidebar, and what the sidebar is told about the selection. */
const PRODUCT = 'IG Data';
/** The menu item, and the title of its cost question (gas/refresh.ts). */
export const REFRESH = 'Refresh selected cells';

export function onOpen(): void {
  SpreadsheetApp.getUi().createAddonMenu().addItem('Settings', 'showSidebar').addItem('Bulk lookup', 'showSidebar').addItem(REFRESH, 'igRefreshSelection').addToUi();
}

export function showSidebar(): void {
  const html = HtmlService.createHtmlOutputFromFile('Sidebar').setTitle(PRODUCT);
  SpreadsheetApp.getUi().showSidebar(html);
}

export function activeSelection(): { a1: string; rows: number; columns: number } | null {
  const r = SpreadsheetApp.getActiveRange();
  if (!r) return null;
  return { a1: `${r.getSheet().getName()}!${r.getA1Notation()}`, rows: r.getNumRows(), columns: r.getNumColumns() };
}
