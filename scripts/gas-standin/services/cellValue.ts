/** What a cell of the in-memory spreadsheet holds (empty is ''): the leaf the sheet and chart models share. */
export type CellValue = string | number | boolean | Date;
