/**
 * The Range object of the stand-in's SpreadsheetApp: values, formulas, formats, notes and the
 * rest the add-on calls on a range. Apart from spreadsheet.ts (SpreadsheetApp, Spreadsheet and
 * Sheet) because it is the largest facade; both share the SheetContext spreadsheet.ts builds.
 */
import type { Host } from '../internal/types';
import { Realm, fromRealm, isDate } from '../internal/realm';
import { toA1 } from './a1';
import type { GridRange, SheetModel, SpreadsheetModel } from './spreadsheetModel';

/** What the facades of one SpreadsheetApp share: the model, the permission checks, the Ranges handed out. */
export interface SheetContext {
  host: Host;
  realm: Realm;
  model: SpreadsheetModel;
  fail: (m: string) => never;
  read: (what: string) => void;
  write: (what: string) => void;
  checkBounds: (sheet: SheetModel, row: number, col: number, numRows: number, numCols: number) => void;
  /** The cells behind each Range object handed out (charts take Ranges as arguments). */
  grids: WeakMap<object, GridRange>;
  sheetFacade: (sheet: SheetModel) => Record<string, unknown>;
}

export function createRangeFacade(ctx: SheetContext, g: GridRange): Record<string, unknown> {
  const { host, realm, model, fail, read, write, checkBounds, grids, sheetFacade } = ctx;
  const rangeFacade = (other: GridRange) => createRangeFacade(ctx, other);
  const { sheet, row, col, numRows, numCols } = g;
  const values = (display: boolean) => {
    const out: unknown[][] = [];
    for (let r = 0; r < numRows; r++) {
      const rowVals: unknown[] = [];
      for (let c = 0; c < numCols; c++) {
        const v = sheet.get(row + r, col + c);
        rowVals.push(display ? (isDate(v) ? (v as Date).toString() : String(v)) : v);
      }
      out.push(rowVals);
    }
    return realm.toRealm(out);
  };
  const self: Record<string, unknown> = {
    getValues: () => (read('Range.getValues'), values(false)),
    getDisplayValues: () => (read('Range.getDisplayValues'), values(true)),
    getValue: () => (read('Range.getValue'), realm.toRealm(sheet.get(row, col))),
    getDisplayValue: () => (read('Range.getDisplayValue'), String(sheet.get(row, col))),
    setValues(vals: unknown) {
      write('setValues');
      if (!Array.isArray(vals)) fail('Invalid argument: values');
      const v = fromRealm(vals) as unknown[][];
      if (v.length !== numRows)
        fail(
          `The number of rows in the data does not match the number of rows in the range. The data has ${v.length} but the range has ${numRows}.`,
        );
      v.forEach((rowVals) => {
        if (!Array.isArray(rowVals) || rowVals.length !== numCols) {
          fail(
            `The number of columns in the data does not match the number of columns in the range. The data has ${Array.isArray(rowVals) ? rowVals.length : 0} but the range has ${numCols}.`,
          );
        }
      });
      v.forEach((rowVals, r) => rowVals.forEach((x, c) => sheet.enter(row + r, col + c, x, host.timeZone)));
      return self;
    },
    setValue(val: unknown) {
      write('setValue');
      const x = fromRealm(val);
      for (let r = 0; r < numRows; r++)
        for (let c = 0; c < numCols; c++) sheet.enter(row + r, col + c, x, host.timeZone);
      return self;
    },
    clearContent() {
      write('clearContent');
      for (let r = 0; r < numRows; r++) for (let c = 0; c < numCols; c++) sheet.set(row + r, col + c, '');
      return self;
    },
    clear() {
      return (self.clearContent as () => unknown)();
    },
    getFormulas: () => {
      read('Range.getFormulas');
      return realm.toRealm(
        Array.from({ length: numRows }, (_, r) =>
          Array.from({ length: numCols }, (_, c) => sheet.formulas.get(`${row + r},${col + c}`) ?? ''),
        ),
      );
    },
    getFormula: () => (read('Range.getFormula'), sheet.formulas.get(`${row},${col}`) ?? ''),
    setFormula(f: unknown) {
      write('setFormula');
      for (let r = 0; r < numRows; r++)
        for (let c = 0; c < numCols; c++) {
          sheet.set(row + r, col + c, '');
          sheet.formulas.set(`${row + r},${col + c}`, String(f));
        }
      model.formulaWrites.push({ sheet: sheet.name, a1: toA1(row, col, numRows, numCols), formula: String(f) });
      return self;
    },
    setFormulas(fs: unknown) {
      // Apps Script: a 2D array of exactly the range's size, one formula (or '') a cell.
      write('setFormulas');
      const rows = fromRealm(fs) as unknown[][];
      if (
        !Array.isArray(rows) ||
        rows.length !== numRows ||
        rows.some((r) => !Array.isArray(r) || r.length !== numCols)
      ) {
        throw new Error(
          `The number of rows or columns in the data does not match the range: the data has ${Array.isArray(rows) ? rows.length : 0} rows, the range ${numRows}.`,
        );
      }
      rows.forEach((cells, r) =>
        cells.forEach((f, c) => {
          sheet.set(row + r, col + c, '');
          if (f === '' || f === null) sheet.formulas.delete(`${row + r},${col + c}`);
          else sheet.formulas.set(`${row + r},${col + c}`, String(f));
        }),
      );
      model.formulaWrites.push({
        sheet: sheet.name,
        a1: toA1(row, col, numRows, numCols),
        formula: rows.map((r) => r.join('\t')).join('\n'),
      });
      return self;
    },
    setNumberFormat(f: unknown) {
      write('setNumberFormat');
      for (let r = 0; r < numRows; r++)
        for (let c = 0; c < numCols; c++) sheet.numberFormats.set(`${row + r},${col + c}`, String(f));
      return self;
    },
    setNumberFormats(fs: unknown) {
      write('setNumberFormats');
      const rows = fromRealm(fs) as unknown[][];
      if (
        !Array.isArray(rows) ||
        rows.length !== numRows ||
        rows.some((r) => !Array.isArray(r) || r.length !== numCols)
      )
        fail('Invalid argument: numberFormats');
      rows.forEach((cells, r) => cells.forEach((f, c) => sheet.numberFormats.set(`${row + r},${col + c}`, String(f))));
      return self;
    },
    // An automatic cell's format reads as "General" here (the stand-in's choice: Sheets' own text for it is not documented).
    getNumberFormat: () => (read('Range.getNumberFormat'), sheet.numberFormats.get(`${row},${col}`) ?? 'General'),
    getNumberFormats: () => {
      read('Range.getNumberFormats');
      return realm.toRealm(
        Array.from({ length: numRows }, (_, r) =>
          Array.from({ length: numCols }, (_, c) => sheet.numberFormats.get(`${row + r},${col + c}`) ?? 'General'),
        ),
      );
    },
    setFontWeight: () => (write('setFontWeight'), self),
    getA1Notation: () => toA1(row, col, numRows, numCols),
    getRow: () => row,
    getColumn: () => col,
    getRowIndex: () => row,
    getNumRows: () => numRows,
    getNumColumns: () => numCols,
    getHeight: () => numRows,
    getWidth: () => numCols,
    getLastRow: () => row + numRows - 1,
    getLastColumn: () => col + numCols - 1,
    getSheet: () => sheetFacade(sheet),
    getCell(r: number, c: number) {
      if (r < 1 || c < 1 || r > numRows || c > numCols) fail('Cell reference out of range');
      return rangeFacade({ sheet, row: row + r - 1, col: col + c - 1, numRows: 1, numCols: 1 });
    },
    offset(dr: number, dc: number, nr?: number, nc?: number) {
      const g2 = {
        sheet,
        row: row + Number(dr),
        col: col + Number(dc),
        numRows: nr === undefined ? numRows : Number(nr),
        numCols: nc === undefined ? numCols : Number(nc),
      };
      checkBounds(sheet, g2.row, g2.col, g2.numRows, g2.numCols);
      return rangeFacade(g2);
    },
    activate() {
      model.activeSheet = sheet;
      model.activeRange = g;
      return self;
    },
    toString: () => 'Range',
  };
  grids.set(self, g);
  return self;
}
