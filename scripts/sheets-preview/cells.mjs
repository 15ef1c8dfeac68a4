// The preview's cells: what typing, pasting and formulas do to the active sheet (custom functions
// run as Sheets runs them, one execution per cell, results spilling), and the grid the page draws
// (values, formulas, errors, charts, sparklines, conditional colours, pictures). Apart from
// server.mjs, which serves it over HTTP and moves the clocks.
import { createRequire } from 'node:module';
import { a1Of, parseCell, parseRange, quoteName } from './a1.mjs';

// The tracker view's trends: SPARKLINE formulas the add-on entered, evaluated to their points.
const { sparklinePoints } = createRequire(import.meta.url)('./sparkline.js');
// The vet scorecard's verdict and link formulas, evaluated, and its conditional colours.
const { scorecardValue, ruleBackground } = createRequire(import.meta.url)('./scorecard.js');
// Numbers as the number formats the add-on set draw them ("0.0%", "#,##0").
const { numberText } = createRequire(import.meta.url)('./number-format.js');
const ROWS = 30;
const COLS = 8;
/** Columns and rows a chart covers from its anchor cell (cells are about 125 x 22 px in the page). */
const CHART_COLS = 5;
const CHART_ROWS = 18;

/** A thrown value as the page shows it. */
export function errorText(e) {
  return String(e?.message ?? e);
}

/**
 * The cells of the stand-in runtime `rt`'s spreadsheet; `customFns` are the add-on's custom
 * functions (a formula may call them).
 */
export function createCells(rt, customFns) {
  /**
   * Each grid's place in the order the server made them: the page draws a grid only if it is newer than the one
   * shown. The order the page sent its requests is not that order: a POST waits for its body, so a GET /grid sent
   * after a tab's POST /sheet can be answered first, with the tab before the click.
   */
  let made = 0;
  /** The sheet the grid shows: the active one, as in Sheets. */
  const view = () => rt.spreadsheet.activeSheet;
  /** Sheets adds rows and columns when you type or paste past the end; so does the preview. */
  function grow(sheet, row, col) {
    sheet.maxRows = Math.max(sheet.maxRows, row);
    sheet.maxCols = Math.max(sheet.maxCols, col);
  }

  /** Formulas by sheet and anchor cell ("Sheet1!B2"): { sheet, anchor, input, spill: {rows, cols} | null, error }. */
  const formulas = new Map();
  const fkey = (sheet, anchor) => `${sheet.name}!${anchor}`;
  const spillOwner = (sheet, row, col) => {
    for (const f of formulas.values()) {
      if (!f.spill || f.sheet !== sheet) continue;
      const p = parseCell(f.anchor);
      if (row >= p.row && row < p.row + f.spill.rows && col >= p.col && col < p.col + f.spill.cols) return f.anchor;
    }
    return null;
  };
  function clearFormula(sheet, anchor) {
    const f = formulas.get(fkey(sheet, anchor));
    if (!f) return;
    const p = parseCell(anchor);
    if (f.spill)
      for (let r = 0; r < f.spill.rows; r++) for (let c = 0; c < f.spill.cols; c++) sheet.set(p.row + r, p.col + c, '');
    sheet.set(p.row, p.col, '');
    formulas.delete(fkey(sheet, anchor));
  }
  const literal = (input) => {
    const trimmed = input.trim();
    return trimmed !== '' && Number.isFinite(Number(trimmed))
      ? Number(trimmed)
      : /^(true|false)$/i.test(trimmed)
        ? trimmed.toUpperCase() === 'TRUE'
        : input;
  };

  function argValue(arg) {
    switch (arg?.t) {
      case 's':
        return String(arg.v);
      case 'n':
        return Number(arg.v);
      case 'b':
        return Boolean(arg.v);
      case 'e':
        return undefined;
      case 'r': {
        const sheet = view();
        const g = parseRange(arg.a1);
        if (g.single) return sheet.get(g.row, g.col);
        const out = [];
        for (let r = 0; r < g.rows; r++)
          out.push(Array.from({ length: g.cols }, (_, c) => sheet.get(g.row + r, g.col + c)));
        return out;
      }
      default:
        throw new Error('Formula parse error.');
    }
  }

  /** Sets a cell of the active sheet: a literal, or a formula the page parsed ({ name, args }). GET /grid shows the result. */
  function setCell(a1, input, formula) {
    const sheet = view();
    const { row, col } = parseCell(a1);
    const anchor = a1Of(row, col);
    grow(sheet, row, col);
    clearFormula(sheet, anchor);
    input = String(input ?? '');
    if (!input.startsWith('=')) {
      sheet.set(row, col, literal(input));
      return;
    }
    const entry = { sheet, anchor, input, spill: null, error: null };
    formulas.set(fkey(sheet, anchor), entry);
    try {
      if (!formula || typeof formula.name !== 'string') throw new Error(formula?.error || 'Formula parse error.');
      const name = formula.name.toUpperCase();
      const args = (formula.args ?? []).map(argValue);
      if (name === 'IMAGE') {
        // Sheets' own IMAGE(url): the cell shows the picture (the page draws it); its value here is the URL.
        const url = String(args[0] ?? '');
        if (!/^https?:\/\//.test(url))
          throw new Error('IMAGE takes a URL (http or https): type one, or point at a cell holding one.');
        sheet.set(row, col, url);
        entry.image = url;
        return;
      }
      if (!customFns.has(name)) throw new Error(`Unknown function: '${formula.name}'.`);
      let value = rt.run(name, args, { kind: 'custom', cell: `${quoteName(sheet.name)}!${anchor}` });
      if (!Array.isArray(value)) value = [[value]];
      value = value.map((r) => (Array.isArray(r) ? r : [r]));
      const rows = value.length;
      const cols = Math.max(1, ...value.map((r) => r.length));
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          if (r === 0 && c === 0) continue;
          const v = sheet.get(row + r, col + c);
          const owner = spillOwner(sheet, row + r, col + c);
          if ((v !== '' && owner === null) || (owner !== null && owner !== anchor)) {
            throw new Error(
              `Array result was not expanded because it would overwrite data in ${a1Of(row + r, col + c)}.`,
            );
          }
        }
      }
      grow(sheet, row + rows - 1, col + cols - 1);
      for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) sheet.set(row + r, col + c, value[r][c] ?? '');
      entry.spill = { rows, cols };
    } catch (e) {
      entry.error = errorText(e);
      sheet.set(row, col, '#ERROR!');
    }
  }

  /** Pastes a block of values (text from the clipboard, already split into rows and cells) at a1. */
  function paste(a1, rows) {
    if (!Array.isArray(rows) || rows.length > 20000 || rows.some((r) => !Array.isArray(r) || r.length > 200))
      throw new Error('Paste at most 20,000 rows of 200 cells.');
    const sheet = view();
    const { row, col } = parseCell(a1);
    const width = Math.max(1, ...rows.map((r) => r.length));
    grow(sheet, row + rows.length - 1, col + width - 1);
    rows.forEach((cells, r) =>
      cells.forEach((v, c) => {
        clearFormula(sheet, a1Of(row + r, col + c));
        sheet.set(row + r, col + c, literal(String(v ?? '')));
      }),
    );
    return { rows: rows.length, cols: width };
  }

  function display(v) {
    if (v instanceof Date || Object.prototype.toString.call(v) === '[object Date]')
      return new Date(v.getTime()).toISOString();
    if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
    return v;
  }

  /** The sheet's embedded charts as the page draws them: dates as ISO strings, as in cells. */
  const chartViews = (sheet) =>
    sheet.charts.map((c) => {
      const v = c.view();
      return { ...v, values: v.values.map((g) => g.map((r) => r.map(display))) };
    });

  function grid() {
    const sheet = view();
    const charts = chartViews(sheet);
    const rows = Math.max(ROWS, sheet.lastRow() + 2, ...charts.map((c) => c.position.row + CHART_ROWS));
    // the cells under a chart are in the grid, as in Sheets (a chart is 600 px wide, 371 high)
    const cols = Math.max(COLS, sheet.lastCol() + 1, ...charts.map((c) => c.position.col + CHART_COLS));
    const values = [];
    for (let r = 1; r <= rows; r++) values.push(Array.from({ length: cols }, (_, c) => display(sheet.get(r, c + 1))));
    const fx = {};
    const errors = {};
    const images = {};
    for (const f of formulas.values()) {
      if (f.sheet !== sheet) continue;
      fx[f.anchor] = f.input;
      if (f.error) errors[f.anchor] = f.error;
      if (f.image) images[f.anchor] = f.image;
    }
    // Formulas the add-on entered (setFormula): shown in the bar; a SPARKLINE is drawn from its points.
    const sparklines = {};
    for (const [key, f] of sheet.formulas) {
      const [r, c] = key.split(',').map(Number);
      const at = a1Of(r, c);
      fx[at] ??= f;
      const points = sparklinePoints(f, (name) => rt.spreadsheet.findSheet(name)?.getValues());
      if (points) sparklines[at] = points;
      // A watch's thumbnails: =IMAGE("url") as the add-on writes it, drawn like a typed one.
      const image = /^=IMAGE\("(https?:\/\/[^"]+)"\)$/.exec(f);
      if (image) images[at] = image[1];
      const shown =
        r <= rows && c <= cols
          ? scorecardValue(f, (ref) => {
              const p = parseCell(ref);
              return sheet.get(p.row, p.col);
            })
          : null;
      if (shown !== null) values[r - 1][c - 1] = shown;
    }
    // What a number shows under its cell's number format (the value itself stays in `values`, as
    // the formula bar shows it).
    const shown = {};
    for (const [key, format] of sheet.numberFormats) {
      const [r, c] = key.split(',').map(Number);
      const text = r <= rows && c <= cols ? numberText(values[r - 1][c - 1], format) : null;
      if (text !== null) shown[a1Of(r, c)] = text;
    }
    // Conditional colours: what each cell shows, against the sheet's rules.
    const backgrounds = {};
    if (sheet.colorRules.length) {
      values.forEach((line, r) =>
        line.forEach((v, c) => {
          const bg = ruleBackground(sheet.colorRules, r + 1, c + 1, v, (rr, cc) => values[rr - 1]?.[cc - 1]);
          if (bg) backgrounds[a1Of(r + 1, c + 1)] = bg;
        }),
      );
    }
    const ar = rt.spreadsheet.activeRange;
    const selection =
      ar && ar.sheet === sheet
        ? `${a1Of(ar.row, ar.col)}:${a1Of(ar.row + ar.numRows - 1, ar.col + ar.numCols - 1)}`
        : null;
    return {
      seq: ++made,
      sheet: sheet.name,
      sheets: rt.spreadsheet.sheets.filter((x) => !x.hidden).map((x) => x.name),
      maxRows: sheet.maxRows,
      rows,
      cols,
      values,
      formulas: fx,
      errors,
      selection,
      charts,
      widths: Object.fromEntries(sheet.columnWidths),
      sparklines,
      backgrounds,
      images,
      shown,
      clock: { now: new Date(rt.now()).toISOString(), timeZone: rt.timeZone },
    };
  }

  return { view, grow, setCell, paste, grid };
}
