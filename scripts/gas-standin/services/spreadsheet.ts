/**
 * SpreadsheetApp over the in-memory spreadsheet of spreadsheetModel.ts: SpreadsheetApp, the
 * Spreadsheet and its Sheets (Range objects are rangeFacade.ts's). Custom functions may read but not
 * write (Apps Script's rule).
 */
import type { Host } from '../internal/types';
import { Realm, fromRealm } from '../internal/realm';
import { parseA1 } from './a1';
import { shiftChartsForInsertedRows } from './chartModel';
import { createChartFacades } from './charts';
import { ColorRule, GridRange, SheetModel, SpreadsheetModel, resolveRange } from './spreadsheetModel';
import { UiRecorder, createUi } from './ui';
import { createRangeFacade } from './rangeFacade';
import type { SheetContext } from './rangeFacade';

export function createSpreadsheetApp(
  host: Host,
  realm: Realm,
  model: SpreadsheetModel,
  ui: UiRecorder,
  addonName: string,
) {
  const fail = (m: string): never => {
    throw realm.exception(m);
  };
  const read = (what: string) => {
    host.ensure('sheet.read', what, realm);
    host.checkDeadline(realm);
  };
  const write = (what: string) => {
    host.ensure('sheet.write', what, realm);
    host.checkDeadline(realm);
  };

  function checkBounds(sheet: SheetModel, row: number, col: number, numRows: number, numCols: number): void {
    if (!(row >= 1)) fail('The starting row of the range is too small.');
    if (!(col >= 1)) fail('The starting column of the range is too small.');
    if (!(numRows >= 1)) fail('The number of rows in the range must be at least 1.');
    if (!(numCols >= 1)) fail('The number of columns in the range must be at least 1.');
    if (row + numRows - 1 > sheet.maxRows || col + numCols - 1 > sheet.maxCols) {
      fail('The coordinates of the range are outside the dimensions of the sheet.');
    }
  }

  /** The cells behind each Range object handed out (charts take Ranges as arguments). */
  const grids = new WeakMap<object, GridRange>();
  const chartMethods = createChartFacades({
    realm,
    model,
    fail,
    read,
    write,
    rangeFacade: (g) => rangeFacade(g),
    gridOf: (r) => (r !== null && typeof r === 'object' ? grids.get(r) : undefined),
  });

  /** The rules behind each ConditionalFormatRule handed out. */
  const colorRules = new WeakMap<object, ColorRule>();
  function ruleFacade(rule: ColorRule): Record<string, unknown> {
    const self: Record<string, unknown> = { toString: () => 'ConditionalFormatRule' };
    colorRules.set(self, rule);
    return self;
  }
  /**
   * SpreadsheetApp.newConditionalFormatRule(): the text-equals and custom-formula conditions and a background, the parts
   * the add-on uses.
   */
  function ruleBuilder(): Record<string, unknown> {
    const rule: ColorRule = { text: '', background: '', ranges: [] };
    const self: Record<string, unknown> = {
      whenTextEqualTo: (t: unknown) => ((rule.text = String(t)), self),
      whenFormulaSatisfied: (f: unknown) => ((rule.formula = String(f)), self),
      setBackground: (c: unknown) => ((rule.background = String(c)), self),
      setRanges(rs: unknown) {
        // (not fromRealm: it would copy the Range objects this map knows)
        if (!Array.isArray(rs)) fail('Invalid argument: ranges');
        rule.ranges = [...(rs as object[])].map((r) => {
          const g = grids.get(r);
          if (!g) fail('Invalid argument: ranges');
          return { row: g!.row, col: g!.col, numRows: g!.numRows, numCols: g!.numCols };
        });
        return self;
      },
      build: () => ruleFacade({ ...rule, ranges: [...rule.ranges] }),
      toString: () => 'ConditionalFormatRuleBuilder',
    };
    return self;
  }

  const ctx: SheetContext = {
    host,
    realm,
    model,
    fail,
    read,
    write,
    checkBounds,
    grids,
    sheetFacade: (sheet) => sheetFacade(sheet),
  };
  function rangeFacade(g: GridRange): Record<string, unknown> {
    return createRangeFacade(ctx, g);
  }

  function sheetFacade(sheet: SheetModel): Record<string, unknown> {
    /** setColumnWidth(s): kept by column for the preview (nothing is drawn here). */
    const setWidths = (start: unknown, howMany: unknown, width: unknown): void => {
      write('setColumnWidths');
      const [c, n, w] = [Number(start), Number(howMany), Number(width)];
      if (!Number.isInteger(c) || c < 1 || c > sheet.maxCols) fail('Invalid argument: columnPosition');
      if (!Number.isInteger(n) || n < 1 || c + n - 1 > sheet.maxCols) fail('Invalid argument: numColumns');
      if (!Number.isInteger(w) || w < 0) fail('Invalid argument: width');
      for (let i = 0; i < n; i++) sheet.columnWidths.set(c + i, w);
    };
    const self: Record<string, unknown> = {
      getName: () => sheet.name,
      setName(name: unknown) {
        write('Sheet.setName');
        sheet.name = String(name);
        return self;
      },
      getSheetId: () => sheet.sheetId,
      getIndex: () => model.sheets.indexOf(sheet) + 1,
      getMaxRows: () => sheet.maxRows,
      getMaxColumns: () => sheet.maxCols,
      getLastRow: () => (read('Sheet.getLastRow'), sheet.lastRow()),
      getLastColumn: () => (read('Sheet.getLastColumn'), sheet.lastCol()),
      getRange(a: unknown, b?: unknown, c?: unknown, d?: unknown) {
        read('Sheet.getRange');
        if (typeof a === 'string' && b === undefined) {
          const ref = parseA1(a);
          if (!ref || ref.sheetName) fail('Range not found');
          const g = resolveRange(sheet, a as string);
          checkBounds(sheet, g.row, g.col, g.numRows, g.numCols);
          return rangeFacade(g);
        }
        const row = Number(a);
        const col = Number(b);
        const nr = c === undefined ? 1 : Number(c);
        const nc = d === undefined ? 1 : Number(d);
        checkBounds(sheet, row, col, nr, nc);
        return rangeFacade({ sheet, row, col, numRows: nr, numCols: nc });
      },
      getDataRange() {
        read('Sheet.getDataRange');
        return rangeFacade({
          sheet,
          row: 1,
          col: 1,
          numRows: Math.max(1, sheet.lastRow()),
          numCols: Math.max(1, sheet.lastCol()),
        });
      },
      getActiveRange: () =>
        model.activeRange && model.activeRange.sheet === sheet ? rangeFacade(model.activeRange) : null,
      setActiveRange(range: { getA1Notation?: () => string; getSheet?: () => { getName: () => string } }) {
        const a1 = range?.getA1Notation?.();
        if (!a1) fail('Invalid argument: range');
        model.activeSheet = sheet;
        model.activeRange = resolveRange(sheet, a1 as string);
        return rangeFacade(model.activeRange);
      },
      insertRowsAfter(afterPosition: unknown, howMany: unknown) {
        write('insertRowsAfter');
        const after = Number(afterPosition);
        const n = Number(howMany);
        if (!Number.isInteger(after) || after < 1 || after > sheet.maxRows) fail('Those rows are out of bounds.');
        if (!Number.isInteger(n) || n < 1) fail('Invalid argument: howMany');
        sheet.insertRows(after, n);
        shiftChartsForInsertedRows(model, sheet, after, n);
        return self;
      },
      appendRow(rowContents: unknown) {
        write('appendRow');
        if (!Array.isArray(rowContents)) fail('Invalid argument: rowContents');
        const r = sheet.lastRow() + 1;
        sheet.maxRows = Math.max(sheet.maxRows, r);
        (fromRealm(rowContents) as unknown[]).forEach((v, i) => {
          sheet.maxCols = Math.max(sheet.maxCols, i + 1);
          sheet.enter(r, i + 1, v, host.timeZone);
        });
        return self;
      },
      clear() {
        write('Sheet.clear');
        sheet.clear(true);
        return self;
      },
      clearContents() {
        write('Sheet.clearContents');
        sheet.clear();
        return self;
      },
      activate() {
        model.activeSheet = sheet;
        return self;
      },
      setFrozenRows: () => (write('setFrozenRows'), undefined),
      getConditionalFormatRules: () => (
        read('Sheet.getConditionalFormatRules'),
        realm.array(sheet.colorRules.map(ruleFacade))
      ),
      setConditionalFormatRules(rules: unknown) {
        write('Sheet.setConditionalFormatRules');
        if (!Array.isArray(rules)) fail('Invalid argument: rules');
        sheet.colorRules = [...(rules as object[])].map((r) => colorRules.get(r) ?? fail('Invalid argument: rules'));
      },
      hideSheet: () => (write('Sheet.hideSheet'), (sheet.hidden = true), self),
      showSheet: () => (write('Sheet.showSheet'), (sheet.hidden = false), self),
      isSheetHidden: () => sheet.hidden,
      insertColumnsAfter(after: unknown, howMany: unknown) {
        write('insertColumnsAfter');
        const n = Number(howMany);
        if (!Number.isInteger(n) || n < 1) fail('Invalid argument: howMany');
        sheet.maxCols += n; // columns are only appended here (after the last), which is all the add-on does
        return self;
      },
      autoResizeColumns: () => (write('autoResizeColumns'), self),
      setColumnWidth: (col: unknown, width: unknown) => (setWidths(col, 1, width), self),
      setColumnWidths: (start: unknown, howMany: unknown, width: unknown) => (setWidths(start, howMany, width), self),
      getColumnWidth: (col: unknown) => sheet.columnWidths.get(Number(col)) ?? 100,
      getParent: () => spreadsheetFacade(),
      ...chartMethods(sheet),
      toString: () => 'Sheet',
    };
    return self;
  }

  function activeCellRange(): GridRange | null {
    const exec = host.current();
    if (exec.kind === 'custom' && exec.cell) return model.range(exec.cell);
    return model.activeRange;
  }

  function spreadsheetFacade(): Record<string, unknown> {
    const self: Record<string, unknown> = {
      getId: () => model.id,
      getName: () => model.name,
      getUrl: () => model.url,
      getSpreadsheetTimeZone: () => host.timeZone,
      getSpreadsheetLocale: () => 'en_US',
      // A custom function's active sheet is its cell's; else the active sheet, which insertSheet
      // changes (the new sheet becomes active, as in Sheets) while the selection stays where it was.
      getActiveSheet: () => {
        const exec = host.current();
        return sheetFacade(exec.kind === 'custom' && exec.cell ? model.range(exec.cell).sheet : model.activeSheet);
      },
      setActiveSheet(sh: { getName?: () => string }) {
        const s = model.findSheet(String(sh?.getName?.()));
        if (!s) fail('Invalid argument: sheet');
        model.activeSheet = s as SheetModel;
        return sheetFacade(s as SheetModel);
      },
      getActiveRange: () => {
        read('Spreadsheet.getActiveRange');
        const g = activeCellRange();
        return g ? rangeFacade(g) : null;
      },
      getActiveCell: () => {
        read('Spreadsheet.getActiveCell');
        const g = activeCellRange();
        return g ? rangeFacade({ ...g, numRows: 1, numCols: 1 }) : null;
      },
      setActiveRange(range: { getA1Notation?: () => string; getSheet?: () => { getName: () => string } }) {
        const sheetName = range?.getSheet?.().getName();
        const s = sheetName === undefined ? undefined : model.findSheet(sheetName);
        if (!s) fail('Invalid argument: range');
        model.activeSheet = s as SheetModel;
        model.activeRange = resolveRange(s as SheetModel, String(range.getA1Notation?.()));
        return rangeFacade(model.activeRange);
      },
      getSheets: () => (read('Spreadsheet.getSheets'), realm.array(model.sheets.map(sheetFacade))),
      getSheetByName: (name: unknown) => {
        read('Spreadsheet.getSheetByName');
        const s = model.findSheet(String(name));
        return s ? sheetFacade(s) : null;
      },
      getNumSheets: () => model.sheets.length,
      insertSheet(name?: unknown, index?: unknown) {
        write('insertSheet');
        let n = name === undefined ? '' : String(name);
        if (!n) {
          let i = model.sheets.length + 1;
          while (model.findSheet(`Sheet${i}`)) i++;
          n = `Sheet${i}`;
        }
        if (model.findSheet(n)) fail(`A sheet with the name "${n}" already exists. Please enter another name.`);
        const s = model.addSheet(n, index === undefined ? model.sheets.length : Number(index));
        model.activeSheet = s;
        return sheetFacade(s);
      },
      getRange(a1: unknown) {
        read('Spreadsheet.getRange');
        let g: GridRange;
        try {
          g = model.range(String(a1));
        } catch {
          return fail('Range not found');
        }
        checkBounds(g.sheet, g.row, g.col, g.numRows, g.numCols);
        return rangeFacade(g);
      },
      getRangeByName(name: unknown) {
        read('Spreadsheet.getRangeByName');
        const g = model.namedRanges.get(String(name));
        return g ? rangeFacade(g) : null;
      },
      setNamedRange(
        name: unknown,
        range: { getA1Notation?: () => string; getSheet?: () => { getName: () => string } },
      ) {
        write('setNamedRange');
        const s = model.findSheet(String(range?.getSheet?.().getName()));
        if (!s) fail('Invalid argument: range');
        model.namedRanges.set(String(name), resolveRange(s as SheetModel, String(range.getA1Notation?.())));
      },
      toast(message: unknown, title?: unknown, timeoutSeconds?: unknown) {
        ui.toasts.push({
          message: String(message),
          title: title === undefined ? '' : String(title),
          timeoutSeconds: timeoutSeconds === undefined ? 5 : Number(timeoutSeconds),
        });
      },
      toString: () => 'Spreadsheet',
    };
    return self;
  }

  return {
    getActiveSpreadsheet: () => (read('SpreadsheetApp.getActiveSpreadsheet'), spreadsheetFacade()),
    getActive: () => (read('SpreadsheetApp.getActive'), spreadsheetFacade()),
    getActiveSheet: () => (
      read('SpreadsheetApp.getActiveSheet'),
      (spreadsheetFacade().getActiveSheet as () => unknown)()
    ),
    getActiveRange: () => (
      read('SpreadsheetApp.getActiveRange'),
      (spreadsheetFacade().getActiveRange as () => unknown)()
    ),
    getUi() {
      host.ensure('ui.menu', 'SpreadsheetApp.getUi', realm);
      return createUi(host, realm, ui, addonName);
    },
    newConditionalFormatRule: () => ruleBuilder(),
    flush: () => undefined,
    openById: () => fail('You do not have permission to call SpreadsheetApp.openById'),
    openByUrl: () => fail('You do not have permission to call SpreadsheetApp.openByUrl'),
    toString: () => 'SpreadsheetApp',
  };
}
