/**
 * An in-memory spreadsheet world for in-process tests of bulk runs and schedules (no build, no
 * stand-in): a book of grids, document properties, the document cache and the kept answers' grid,
 * a clock moved by hand and the fake service (fakes.ts). Each `execution()` is a new context
 * over the same world, as each Apps Script execution is. `killAt` ends an execution at a chosen
 * platform call the way Apps Script's time limit does: that call and every later one of the same
 * execution throw.
 */
import type { KeptGrid } from '../src/engine/keep';
import type { SheetValue } from '../src/engine/values';
import type { Book, Grid, PropertyStore, Rect, Context, Settings } from '../src/context/context';
import { clientConfig } from '../src/engine/messages';
import type { FakeService } from './fakes';
import { BASE, KEY, fakeService, memoryCache, sha256Base64 } from './fakes';

/** A platform call an execution can die at. */
export type PlatformCall = 'grid.write' | 'props.set';

class MemoryGrid implements Grid {
  cells: SheetValue[][] = [];
  /** Formulas by "row,col" (not calculated: tests read the text). */
  formulas = new Map<string, string>();
  formats = new Map<string, string>();
  constructor(
    readonly name: string,
    private rows = 1000,
    private cols = 26,
  ) {}
  maxRows = () => this.rows;
  maxColumns = () => this.cols;
  lastRow = () => {
    for (let r = this.cells.length; r > 0; r--)
      if ((this.cells[r - 1] ?? []).some((v) => v !== '' && v !== null && v !== undefined)) return r;
    return 0;
  };
  read(row: number, col: number, rows: number, cols: number): unknown[][] {
    this.inside(row + rows - 1, col + cols - 1);
    return Array.from({ length: rows }, (_, r) =>
      Array.from({ length: cols }, (_, c) => this.cells[row - 1 + r]?.[col - 1 + c] ?? ''),
    );
  }
  write(row: number, col: number, values: SheetValue[][]): void {
    this.inside(row + values.length - 1, col + (values[0]?.length ?? 1) - 1);
    values.forEach((v, r) => v.forEach((x, c) => ((this.cells[row - 1 + r] ??= [])[col - 1 + c] = x)));
  }
  insertRowsAfter(_after: number, count: number): void {
    this.rows += count;
  }
  insertColumnsAfter(_after: number, count: number): void {
    this.cols += count;
  }
  writeFormulas(row: number, col: number, formulas: string[]): void {
    formulas.forEach((f, r) => this.formulas.set(`${row + r},${col}`, f));
  }
  setNumberFormat(row: number, col: number, rows: number, cols: number, format: string): void {
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) this.formats.set(`${row + r},${col + c}`, format);
  }
  /** Conditional colours as set (not applied: tests read the rules). */
  colors: { a1: [number, number, number, number]; text: string; color: string }[] = [];
  colorWhen(row: number, col: number, rows: number, cols: number, rules: { text: string; color: string }[]): void {
    this.colors.push(...rules.map((r) => ({ a1: [row, col, rows, cols] as [number, number, number, number], ...r })));
  }
  clear(): void {
    this.cells = [];
    this.formulas.clear();
  }
  /** Conditional formats and charts as set (replaced whole, as the view writers do). */
  marks: Parameters<Grid['setMarks']>[0] = [];
  charts: Parameters<Grid['setCharts']>[0] = [];
  setMarks(marks: Parameters<Grid['setMarks']>[0]): void {
    this.marks = marks;
  }
  setCharts(charts: Parameters<Grid['setCharts']>[0]): void {
    this.charts = charts;
  }
  /** Column widths as set, by column. */
  widths = new Map<number, number>();
  setColumnWidths(col: number, cols: number, px: number): void {
    for (let c = col; c < col + cols; c++) this.widths.set(c, px);
  }
  /** Sheets refuses a range outside the sheet. */
  private inside(lastRow: number, lastCol: number): void {
    if (lastRow > this.rows || lastCol > this.cols)
      throw new Error('The coordinates of the range are outside the dimensions of the sheet.');
  }
}

export interface World {
  svc: FakeService;
  clock: { t: number; advance(ms: number): void };
  sheets: Map<string, MemoryGrid>;
  props: Map<string, string>;
  selection: Rect | null;
  /** A new execution (context) over the world; `killAt` ends it at the nth matching platform call. */
  execution(opts?: { killAt?: { call: PlatformCall; nth: number } }): Context;
  sheet(name: string): MemoryGrid;
  /** Sheet1 with `handles` from A2 (a header in A1), selected. */
  column(handles: string[]): void;
}

export function world(start = Date.parse('2026-11-23T06:00:00Z')): World {
  const svc = fakeService();
  const cache = memoryCache();
  const keptRows = new Map<number, string[]>();
  const kept: KeptGrid = {
    read: (rows) => new Map([...keptRows].filter(([r]) => !rows || rows.includes(r))),
    write: (rows) => rows.forEach((cells, r) => keptRows.set(r, cells)),
  };
  const w: World = {
    svc,
    clock: { t: start, advance: (ms) => (w.clock.t += ms) },
    sheets: new Map(),
    props: new Map(),
    selection: null,
    sheet(name) {
      if (!w.sheets.has(name)) w.sheets.set(name, new MemoryGrid(name));
      return w.sheets.get(name)!;
    },
    column(handles) {
      const s = w.sheet('Sheet1');
      s.write(1, 1, [['handle'], ...handles.map((h) => [h])]);
      w.selection = { sheet: 'Sheet1', row: 2, col: 1, rows: handles.length, cols: 1, a1: `A2:A${handles.length + 1}` };
    },
    execution(opts = {}) {
      let calls = 0;
      let dead = false;
      const guard = (call: PlatformCall) => {
        if (dead) throw new Error('Exceeded maximum execution time');
        if (opts.killAt?.call === call && ++calls === opts.killAt.nth) {
          dead = true;
          throw new Error('Exceeded maximum execution time');
        }
      };
      const grids = new Map<string, Grid>();
      const bound = (g: MemoryGrid): Grid => {
        if (!grids.has(g.name)) {
          grids.set(g.name, {
            maxRows: () => g.maxRows(),
            maxColumns: () => g.maxColumns(),
            lastRow: () => g.lastRow(),
            read: (row, col, rows, cols) => g.read(row, col, rows, cols),
            write: (row, col, v) => (guard('grid.write'), g.write(row, col, v)),
            insertRowsAfter: (after, count) => g.insertRowsAfter(after, count),
            insertColumnsAfter: (after, count) => g.insertColumnsAfter(after, count),
            writeFormulas: (row, col, f) => (guard('grid.write'), g.writeFormulas(row, col, f)),
            setNumberFormat: (row, col, rows, cols, format) => g.setNumberFormat(row, col, rows, cols, format),
            colorWhen: (row, col, rows, cols, rules) => g.colorWhen(row, col, rows, cols, rules),
            clear: () => (guard('grid.write'), g.clear()),
            setMarks: (marks) => g.setMarks(marks),
            setCharts: (charts) => g.setCharts(charts),
            setColumnWidths: (col, cols, px) => g.setColumnWidths(col, cols, px),
          });
        }
        return grids.get(g.name)!;
      };
      const book: Book = {
        sheet: (name) => (w.sheets.has(name) ? bound(w.sheets.get(name)!) : null),
        insertSheet: (name) => bound(w.sheet(name)),
        sheetNames: () => [...w.sheets.keys()],
        selection: () => w.selection,
        zoneOffset: () => 0,
        formatTime: (t) => new Date(t).toISOString(),
      };
      const props: PropertyStore = {
        get: (k) => w.props.get(k) ?? null,
        set: (k, v) => {
          guard('props.set');
          if (v.length > 9 * 1024) throw new Error('Argument too large: value');
          w.props.set(k, v);
        },
        delete: (k) => void w.props.delete(k),
      };
      const settings: Settings = {
        apiKey: KEY,
        baseUrl: BASE,
        keySetBy: '',
        keySetAt: '',
        freshHours: 168,
        refreshMarks: '',
        claims: '',
      };
      return {
        now: () => w.clock.t,
        settings,
        client: { config: clientConfig(settings), io: svc.io },
        props,
        book,
        lock: {
          withLock: <T>(fn: () => T): T => fn(), // one execution at a time here
          tryLock: () => () => undefined,
        },
        places: { cache, kept, sha256Base64 },
        newId: () => `id${Math.random().toString(36).slice(2, 10)}`,
        userEmail: () => 'owner@example.com',
      };
    },
  };
  return w;
}
