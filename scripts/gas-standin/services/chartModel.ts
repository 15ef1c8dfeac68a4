/**
 * The embedded charts of the in-memory spreadsheet (each SheetModel's `charts`). A chart keeps its
 * ranges, not a copy of their values: like a chart in Sheets it shows what the cells hold now, so
 * `values()` reads them when asked. Nothing is drawn here; the preview draws from `view()`.
 */
import { toA1 } from './a1';
import type { CellValue } from './cellValue';

/**
 * The cells a chart shows, as much of them as a chart reads: the sheet model's GridRange is one.
 * Structural, so this file needs nothing of spreadsheetModel.ts (which holds each sheet's charts).
 */
export interface ChartRange {
  sheet: { readonly name: string; get(row: number, col: number): CellValue };
  row: number;
  col: number;
  numRows: number;
  numCols: number;
}

export interface ChartPosition {
  /** The anchor cell (1-based) and the offset from its top-left corner, in pixels. */
  row: number;
  col: number;
  offsetX: number;
  offsetY: number;
}

/** What a test or the preview reads: plain data, the ranges' values as they are now. */
export interface ChartView {
  id: number | null;
  type: string;
  ranges: string[];
  sheets: string[];
  numHeaders: number;
  /** setTransposeRowsAndColumns(true): the ranges' rows are the series (their first column the names). */
  transpose: boolean;
  /** How the ranges are joined: side by side (MERGE_COLUMNS, the default) or one under the other (MERGE_ROWS). */
  mergeStrategy: string;
  position: ChartPosition;
  options: Record<string, unknown>;
  values: CellValue[][][];
}

export class ChartModel<R extends ChartRange = ChartRange> {
  /** Null until `insertChart` gives it one; unique in the spreadsheet. */
  id: number | null = null;
  /** Charts.ChartType in lower case ('line', 'column', ...); null until the script chooses one. */
  type: string | null = null;
  ranges: R[] = [];
  /** -1 = not set (Sheets guesses from the data). */
  numHeaders = -1;
  position: ChartPosition = { row: 1, col: 1, offsetX: 0, offsetY: 0 };
  /** Google Charts options, nested ('hAxis.title' is stored as { hAxis: { title } }). */
  options: Record<string, unknown> = {};
  transpose = false;
  mergeStrategy = 'MERGE_COLUMNS';
  hiddenDimensionStrategy = 'IGNORE_BOTH';

  clone(): ChartModel<R> {
    const c = Object.assign(new ChartModel<R>(), this);
    c.ranges = this.ranges.map((g) => ({ ...g }));
    c.position = { ...this.position };
    c.options = structuredClone(this.options);
    return c;
  }

  setOption(key: string, value: unknown): void {
    const parts = key.split('.');
    let o = this.options;
    for (const p of parts.slice(0, -1)) {
      if (o[p] === null || typeof o[p] !== 'object' || Array.isArray(o[p])) o[p] = {};
      o = o[p] as Record<string, unknown>;
    }
    o[parts[parts.length - 1]] = value;
  }

  /** An option by its dotted name ('legend.position'), or null when not set. */
  getOption(key: string): unknown {
    let v: unknown = this.options;
    for (const p of key.split('.')) {
      if (v === null || typeof v !== 'object') return null;
      v = (v as Record<string, unknown>)[p];
    }
    return v === undefined ? null : v;
  }

  /** Each range in A1 notation, without its sheet (see `view().sheets`). */
  a1(): string[] {
    return this.ranges.map((g) => toA1(g.row, g.col, g.numRows, g.numCols));
  }

  /** The current values of each range (rows of cells), read now. */
  values(): CellValue[][][] {
    return this.ranges.map((g) =>
      Array.from({ length: g.numRows }, (_, r) =>
        Array.from({ length: g.numCols }, (_, c) => g.sheet.get(g.row + r, g.col + c)),
      ),
    );
  }

  view(): ChartView {
    return {
      id: this.id,
      type: this.type ?? '',
      ranges: this.a1(),
      sheets: this.ranges.map((g) => g.sheet.name),
      numHeaders: this.numHeaders,
      transpose: this.transpose,
      mergeStrategy: this.mergeStrategy,
      position: { ...this.position },
      options: structuredClone(this.options),
      values: this.values(),
    };
  }
}

/**
 * Rows inserted after row `after` of `sheet` move the charts' data and anchors as in Sheets: a
 * range below moves down, a range they fall inside grows, an anchor below moves down.
 */
export function shiftChartsForInsertedRows(
  model: { readonly sheets: readonly (ChartRange['sheet'] & { readonly charts: readonly ChartModel[] })[] },
  sheet: ChartRange['sheet'],
  after: number,
  n: number,
): void {
  for (const s of model.sheets) {
    for (const chart of s.charts) {
      for (const g of chart.ranges) {
        if (g.sheet !== sheet) continue;
        if (g.row > after) g.row += n;
        else if (g.row + g.numRows - 1 > after) g.numRows += n;
      }
      if (s === sheet && chart.position.row > after) chart.position.row += n;
    }
  }
}
