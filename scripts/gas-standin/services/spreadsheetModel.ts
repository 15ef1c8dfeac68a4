/**
 * The in-memory spreadsheet behind SpreadsheetApp: sheets of values, named ranges, the active
 * sheet and range, embedded charts (chartModel.ts). Tests read and seed it directly; scripts reach it only through spreadsheet.ts,
 * which adds Apps Script's permissions and errors.
 */
import { isDate } from '../internal/realm';
import { parseA1 } from './a1';
import { enterValue } from './cellInput';
import type { CellValue } from './cellValue';
import type { ChartModel } from './chartModel';

export type { CellValue };

export interface GridRange {
  sheet: SheetModel;
  row: number;
  col: number;
  numRows: number;
  numCols: number;
}

function normalize(v: unknown): CellValue {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (isDate(v)) return new Date((v as Date).getTime());
  return String(v);
}

/** Sheets' limit on the characters of one cell. */
const CELL_MAX_CHARS = 50000;

/**
 * A conditional format rule the stand-in models: cells of its ranges whose text equals `text` (whenTextEqualTo), or
 * for which `formula` holds (whenFormulaSatisfied: its references relative to the ranges' top-left cell), get
 * `background`. The stand-in evaluates no formula: the preview and the tests do (sheets-preview/scorecard.js).
 */
export interface ColorRule {
  text: string;
  formula?: string;
  background: string;
  ranges: { row: number; col: number; numRows: number; numCols: number }[];
}

/** One sheet: a grid of values (1-based). Test helpers grow the grid as needed. */
export class SheetModel {
  private rows: CellValue[][] = [];
  /** Formula text by "row,col" (the stand-in does not evaluate them; tests call the functions). */
  readonly formulas = new Map<string, string>();
  /** Number formats set by the script, by "row,col" (absent: automatic). */
  readonly numberFormats = new Map<string, string>();
  /** Conditional format rules as the script set them (a background for cells showing a text); the preview applies them. */
  colorRules: ColorRule[] = [];
  /** Embedded charts on this sheet, in insertion order (chartModel.ts). */
  readonly charts: ChartModel<GridRange>[] = [];
  /** Column widths in pixels the script set (setColumnWidth), by column; absent: Sheets' default 100. */
  readonly columnWidths = new Map<number, number>();
  hidden = false;

  constructor(
    public name: string,
    readonly sheetId: number,
    public maxRows = 1000,
    public maxCols = 26,
  ) {}

  get(row: number, col: number): CellValue {
    return this.rows[row - 1]?.[col - 1] ?? '';
  }

  set(row: number, col: number, v: unknown): void {
    if (typeof v === 'string' && v.length > CELL_MAX_CHARS) {
      throw Object.assign(
        new Error(`Your input contains more than the maximum of ${CELL_MAX_CHARS} characters in a single cell.`),
        { name: 'Exception' },
      );
    }
    this.formulas.delete(`${row},${col}`);
    const r = (this.rows[row - 1] ??= []);
    r[col - 1] = normalize(v);
  }

  /**
   * Writes `v` as a script's setValue(s)/appendRow does: a string is parsed as Sheets parses typed
   * input (cellInput.ts) unless the cell's number format is plain text.
   */
  enter(row: number, col: number, v: unknown, timeZone: string): void {
    const e = enterValue(v, this.numberFormats.get(`${row},${col}`) ?? '', timeZone);
    this.set(row, col, e.value);
    if (e.formula) this.formulas.set(`${row},${col}`, e.formula);
  }

  /** Inserts `n` blank rows after row `after` (0 = at the top); rows below move down. */
  insertRows(after: number, n: number): void {
    if (this.rows.length > after) this.rows.splice(after, 0, ...Array.from({ length: n }, () => []));
    this.maxRows += n;
  }

  lastRow(): number {
    for (let r = this.rows.length; r >= 1; r--)
      if (this.rows[r - 1]?.some((v) => v !== '' && v !== undefined)) return r;
    return 0;
  }

  lastCol(): number {
    let max = 0;
    this.rows.forEach((row) => {
      if (!row) return;
      for (let c = row.length; c > max; c--) if (row[c - 1] !== '' && row[c - 1] !== undefined) max = c;
    });
    return max;
  }

  /** Sheets' clear and clearContents empty formulas too; clear also resets formats. */
  clear(formats = false): void {
    this.rows = [];
    this.formulas.clear();
    if (formats) this.numberFormats.clear();
  }

  /** Test helper: writes a 2D array at `a1` (top-left or a whole range), growing the sheet; values are stored as given, not parsed. */
  setValues(a1: string, values: unknown[][]): void {
    const ref = parseA1(a1);
    if (!ref) throw new Error(`bad A1: ${a1}`);
    values.forEach((rowVals, i) =>
      rowVals.forEach((v, j) => {
        this.maxRows = Math.max(this.maxRows, ref.row + i);
        this.maxCols = Math.max(this.maxCols, ref.col + j);
        this.set(ref.row + i, ref.col + j, v);
      }),
    );
  }

  /** Test helper: enters a formula (its value stays what the test sets: nothing is evaluated). */
  setFormula(a1: string, formula: string): void {
    const ref = parseA1(a1);
    if (!ref) throw new Error(`bad A1: ${a1}`);
    this.formulas.set(`${ref.row},${ref.col}`, formula);
  }

  /** Test helper: the values of `a1` (defaults to the data range). */
  getValues(a1?: string): CellValue[][] {
    const g = a1
      ? resolveRange(this, a1)
      : { row: 1, col: 1, numRows: Math.max(1, this.lastRow()), numCols: Math.max(1, this.lastCol()) };
    const out: CellValue[][] = [];
    for (let r = 0; r < g.numRows; r++) {
      const row: CellValue[] = [];
      for (let c = 0; c < g.numCols; c++) row.push(this.get(g.row + r, g.col + c));
      out.push(row);
    }
    return out;
  }
}

export function resolveRange(sheet: SheetModel, a1: string): GridRange {
  const ref = parseA1(a1);
  if (!ref) throw new Error(`Range not found`);
  return {
    sheet,
    row: ref.row,
    col: ref.col,
    numRows: ref.numRows ?? sheet.maxRows - ref.row + 1,
    numCols: ref.numCols ?? sheet.maxCols - ref.col + 1,
  };
}

/** The spreadsheet the add-on is bound to. */
export class SpreadsheetModel {
  readonly sheets: SheetModel[] = [];
  readonly namedRanges = new Map<string, GridRange>();
  /** Every formula the script entered (setFormula), in order. */
  readonly formulaWrites: { sheet: string; a1: string; formula: string }[] = [];
  activeSheet: SheetModel;
  activeRange: GridRange | null = null;
  private nextSheetId = 0;
  /** The next id insertChart gives. */
  nextChartId = 1;

  constructor(
    public name = 'Untitled spreadsheet',
    readonly id = 'stand-in-spreadsheet-id',
  ) {
    this.activeSheet = this.addSheet('Sheet1');
  }

  get url(): string {
    return `https://docs.google.com/spreadsheets/d/${this.id}/edit`;
  }

  sheet(name: string): SheetModel {
    const s = this.sheets.find((x) => x.name === name);
    if (!s) throw new Error(`no sheet named ${name}`);
    return s;
  }

  findSheet(name: string): SheetModel | undefined {
    return this.sheets.find((x) => x.name === name);
  }

  addSheet(name: string, index = this.sheets.length): SheetModel {
    const s = new SheetModel(name, this.nextSheetId++);
    this.sheets.splice(index, 0, s);
    return s;
  }

  /** Resolves "Sheet!A1:B2" (or A1 on the active sheet). */
  range(a1: string): GridRange {
    const ref = parseA1(a1);
    if (!ref) throw new Error(`bad A1: ${a1}`);
    const sheet = ref.sheetName ? this.sheet(ref.sheetName) : this.activeSheet;
    return resolveRange(sheet, a1.includes('!') ? a1.slice(a1.lastIndexOf('!') + 1) : a1);
  }

  /** Test helper: selects a range ("Sheet1!B2:B20"), making its sheet active. */
  select(a1: string): void {
    const g = this.range(a1);
    this.activeSheet = g.sheet;
    this.activeRange = g;
  }

  defineNamedRange(name: string, a1: string): void {
    this.namedRanges.set(name, this.range(a1));
  }
}
