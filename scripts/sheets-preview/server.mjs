#!/usr/bin/env node
// Sheets preview: the BUILT add-on (sheets-addon/dist) in the Apps Script stand-in
// (scripts/gas-standin/runtime.ts), against a sandbox, behind a small web page with a grid and the real sidebar.
// Not Google Sheets. Run it in its own process: the stand-in's UrlFetchApp blocks this thread.
//
//   SANDBOX_URL=http://127.0.0.1:4010 IGDATA_API_KEY=<demo key> node scripts/sheets-preview/server.mjs
//   SHEETS_PREVIEW_PORT (default 4020, 0 = any), SHEETS_PREVIEW_HOST (default 127.0.0.1),
//   IGDATA_CLOCK_START (the instant the stand-in's clock starts at, ISO 8601; default the real time)
//
// HTTP: GET / (the page), GET /formula.js (its formula parser), GET /chart.js (its line charts),
// GET /sidebar (Sidebar.html + a google.script.run shim), GET /grid (the active sheet, its embedded
// charts and the stand-in's clock), POST /run {fn, args} (a sidebar call), POST /cell {a1, input,
// formula?} (a value or a parsed formula), POST /paste {a1, rows} (values), POST /select {a1},
// POST /sheet {name} (show another sheet tab), POST /advance {ms} (time travel: the stand-in's clock
// moves on and the installed hourly trigger fires on the way, so scheduled lookups run and bulk
// runs go on in the background, as in Sheets with the sidebar closed; the sandbox's clock, and its world,
// moves too, to each trigger run's instant on the way).
//
// Like Google Sheets, a sheet grows when values are typed or pasted past its last row or column
// (new sheets have 1,000 rows and 26 columns); the grid shows the active sheet, which follows the
// add-on when it creates one (a bulk run to "a new sheet").
// Embedded charts (the growth view's line chart) are drawn over the grid at their anchor cell by
// chart.js, from the stand-in's chart model: a sketch of Sheets' chart, not Google Charts. The
// tracker view's SPARKLINE cells are drawn as small lines (sparkline.js evaluates that one formula
// shape; the preview is no Sheets formula engine), and the vet scorecard's verdicts and links
// (scorecard.js, those shapes alone) with the sheet's conditional colours. =IMAGE(url or cell) shows the picture in its cell
// (the sandbox's media links point at the sandbox: a profile_pic_url or image_url fetched by a formula). The page
// shows the stand-in's clock, not the browser's; the sidebar's Date follows it too (gas-shim.js).
import { loadGasRuntime } from '../gas-standin/load.mjs';
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const dist = join(root, 'sheets-addon', 'dist');
// The production address, from core (built by npm run build): the stand-in's requests to it go to the sandbox.
const { DEFAULT_BASE_URL: PROD } = await import(pathToFileURL(join(root, 'dist', 'core.mjs')).href);
// The tracker view's trends: SPARKLINE formulas the add-on entered, evaluated to their points.
const { sparklinePoints } = createRequire(import.meta.url)('./sparkline.js');
// The vet scorecard's verdict and link formulas, evaluated, and its conditional colours.
const { scorecardValue, ruleBackground } = createRequire(import.meta.url)('./scorecard.js');
const ROWS = 30;
const COLS = 8;
/** Columns and rows a chart covers from its anchor cell (cells are about 125 x 22 px in the page). */
const CHART_COLS = 5;
const CHART_ROWS = 18;
const HOUR = 3600_000;
/** Time travel goes forward, by at most a month at a time (each hour runs the trigger once). */
const MAX_ADVANCE_MS = 31 * 24 * HOUR;
const HANDLES = [
  'handle',
  'nasa',
  '@natgeo',
  'https://www.instagram.com/nike/',
  'nasa',
  'locked_acc',
  'starbucks',
  'no_such_creator_xyz',
];

const sandboxUrl = (process.env.SANDBOX_URL ?? '').replace(/\/+$/, '');
const apiKey = process.env.IGDATA_API_KEY ?? '';
if (!sandboxUrl) {
  console.error('sheets-preview: set SANDBOX_URL (and IGDATA_API_KEY) to the sandbox to use');
  process.exit(2);
}
for (const f of ['bundle.js', 'Code.js', 'Sidebar.html', 'appsscript.json']) {
  if (!existsSync(join(dist, f))) {
    console.error(
      `sheets-preview: sheets-addon/dist/${f} is missing: run \`node scripts/build.mjs sheets\` (or npm run build)`,
    );
    process.exit(1);
  }
}

const { createGasRuntime, GasScriptError, toClientValue, SyncHttpClient } = await loadGasRuntime();

const rt = createGasRuntime({
  files: [join(dist, 'bundle.js'), join(dist, 'Code.js')],
  dir: dist,
  addonName: 'IG Data',
  enforceUrlFetchWhitelist: true,
  rewriteUrl: (u) => (u.startsWith(PROD) ? sandboxUrl + u.slice(PROD.length) : u),
  // The real time for a person; the instant a test names (the stand-in refuses the real time under tests).
  startAt: process.env.IGDATA_CLOCK_START || undefined,
});
if (apiKey) rt.properties.document.set('IGDATA_API_KEY', apiKey);
HANDLES.forEach((h, i) => rt.spreadsheet.sheet('Sheet1').set(i + 1, 1, h));
/** The sheet the grid shows: the active one, as in Sheets. */
const view = () => rt.spreadsheet.activeSheet;
const quoteName = (name) => (/^[A-Za-z0-9_]+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);
/** Sheets adds rows and columns when you type or paste past the end; so does the preview. */
function grow(sheet, row, col) {
  sheet.maxRows = Math.max(sheet.maxRows, row);
  sheet.maxCols = Math.max(sheet.maxCols, col);
}

const exposed = rt.globalFunctionNames().filter((n) => !n.endsWith('_'));
const customFns = new Set(exposed.filter((n) => /^[A-Z][A-Z0-9_]*$/.test(n)));

// ---- grid helpers
const colNum = (letters) => [...letters.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);
const colName = (n) => {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};
const cellRe = /^\$?([A-Za-z]{1,3})\$?(\d{1,6})$/;
function parseCell(a1) {
  const m = cellRe.exec(String(a1).trim());
  if (!m) throw new Error(`Bad cell reference: ${a1}`);
  return { row: Number(m[2]), col: colNum(m[1]) };
}
function parseRange(a1) {
  const [a, b] = String(a1).split(':');
  const p = parseCell(a);
  const q = b === undefined ? p : parseCell(b);
  return {
    row: Math.min(p.row, q.row),
    col: Math.min(p.col, q.col),
    rows: Math.abs(q.row - p.row) + 1,
    cols: Math.abs(q.col - p.col) + 1,
    single: b === undefined,
  };
}
const a1Of = (row, col) => `${colName(col)}${row}`;

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

function errorText(e) {
  return String(e?.message ?? e);
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
  // Conditional colours: what each cell shows, against the sheet's rules.
  const backgrounds = {};
  if (sheet.colorRules.length) {
    values.forEach((line, r) =>
      line.forEach((v, c) => {
        const bg = ruleBackground(sheet.colorRules, r + 1, c + 1, v);
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
    sparklines,
    backgrounds,
    images,
    clock: { now: new Date(rt.now()).toISOString(), timeZone: rt.timeZone },
  };
}

const worldClock = new SyncHttpClient();
/**
 * The sandbox's world to the stand-in's instant, before each trigger run of an advance: an hourly
 * run then sees the world of its hour (new posts, drifted followers), not of the advance's start.
 * Synchronous, as the trigger runs on this thread; a failure is reported and the advance goes on.
 */
function moveWorld(now) {
  const [res] = [].concat(
    worldClock.request(
      [
        {
          url: `${sandboxUrl}/_sandbox/clock?to=${new Date(now).toISOString()}`,
          method: 'POST',
          headers: {},
          body: null,
          followRedirects: false,
          validateHttpsCertificates: true,
          timeoutMs: 10_000,
        },
      ],
      15_000,
    ),
  );
  if (res === 'timeout' || !res.ok || res.status !== 200)
    console.error(
      `sheets-preview: the sandbox's clock did not move to ${new Date(now).toISOString()}: ${res === 'timeout' ? 'timeout' : res.ok ? res.status : res.message}`,
    );
}

/**
 * Time travel: the stand-in's clock moves `ms` forward; each installed trigger fires when due on
 * the way (the add-on's hourly igKeepAnswers, installed when the sidebar first loads). Returns what
 * ran: trigger executions, how many failed and the last failure's message.
 */
function advance(ms) {
  ms = Number(ms);
  if (!Number.isFinite(ms) || ms <= 0 || ms > MAX_ADVANCE_MS)
    throw new Error('Move the clock forward by 1 ms to 31 days.');
  const before = new Map(rt.triggers.installed.map((t) => [t, t.runs.length]));
  rt.advance(ms, moveWorld);
  const runs = rt.triggers.installed.flatMap((t) => t.runs.slice(before.get(t) ?? 0));
  const failed = runs.filter((r) => !r.ok);
  return {
    triggers: rt.triggers.installed.length,
    runs: runs.length,
    ok: runs.length - failed.length,
    failed: failed.length,
    error: failed.length ? failed[failed.length - 1].error : null,
  };
}

/** google.script.run for the sidebar: exposed functions only, results as Apps Script returns them. */
function runForSidebar(fn, args) {
  if (typeof fn !== 'string' || !exposed.includes(fn))
    return { ok: false, error: { name: 'TypeError', message: `google.script.run.${fn} is not a function` } };
  try {
    return { ok: true, value: toClientValue(rt.run(fn, Array.isArray(args) ? args : [], { kind: 'script' })) };
  } catch (e) {
    const name = e instanceof GasScriptError ? e.gasName : 'Error';
    return { ok: false, error: { name: name || 'Error', message: errorText(e) } };
  }
}

// ---- pages
const page = readFileSync(join(here, 'index.html'), 'utf8');
const formulaJs = readFileSync(join(here, 'formula.js'), 'utf8');
const chartJs = readFileSync(join(here, 'chart.js'), 'utf8');
const shim = readFileSync(join(here, 'gas-shim.js'), 'utf8').replace('__NAMES__', JSON.stringify(exposed));
function sidebarHtml() {
  let html = readFileSync(join(dist, 'Sidebar.html'), 'utf8');
  if (/<\?/.test(html)) html = rt.evaluate(`HtmlService.createTemplateFromFile('Sidebar').evaluate().getContent()`);
  const tag = `<script>${shim.replace('__CLOCK_OFFSET__', String(rt.now() - Date.now()))}</script>`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + tag) : tag + html;
}

async function body(req) {
  let s = '';
  for await (const chunk of req) {
    s += chunk;
    if (s.length > 1_000_000) throw new Error('body too large');
  }
  return s ? JSON.parse(s) : {};
}

const server = createServer(async (req, res) => {
  const send = (status, type, text) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(text);
  };
  const json = (obj, status = 200) => send(status, 'application/json; charset=utf-8', JSON.stringify(obj));
  try {
    const path = new URL(req.url, 'http://x').pathname;
    if (req.method === 'GET' && path === '/') return send(200, 'text/html; charset=utf-8', page);
    if (req.method === 'GET' && path === '/formula.js') return send(200, 'text/javascript; charset=utf-8', formulaJs);
    if (req.method === 'GET' && path === '/chart.js') return send(200, 'text/javascript; charset=utf-8', chartJs);
    if (req.method === 'GET' && path === '/sidebar') return send(200, 'text/html; charset=utf-8', sidebarHtml());
    if (req.method === 'GET' && path === '/grid') return json(grid());
    if (req.method === 'POST' && path === '/run') {
      const { fn, args } = await body(req);
      return json(runForSidebar(fn, args));
    }
    if (req.method === 'POST' && path === '/cell') {
      const { a1, input, formula } = await body(req);
      setCell(a1, input, formula);
      return json(grid());
    }
    if (req.method === 'POST' && path === '/paste') {
      const { a1, rows } = await body(req);
      const pasted = paste(a1, rows);
      return json({ ...grid(), pasted });
    }
    if (req.method === 'POST' && path === '/select') {
      const { a1 } = await body(req);
      const g = parseRange(a1);
      const sheet = view();
      grow(sheet, g.row + g.rows - 1, g.col + g.cols - 1);
      rt.spreadsheet.select(
        `${quoteName(sheet.name)}!${a1Of(g.row, g.col)}:${a1Of(g.row + g.rows - 1, g.col + g.cols - 1)}`,
      );
      return json({ ok: true });
    }
    if (req.method === 'POST' && path === '/sheet') {
      const { name } = await body(req);
      if (!rt.spreadsheet.findSheet(String(name)))
        return json({ ok: false, error: { name: 'Error', message: `No sheet named ${name}.` } }, 404);
      rt.spreadsheet.select(`${quoteName(String(name))}!A1`);
      return json(grid());
    }
    if (req.method === 'POST' && path === '/advance') {
      const { ms } = await body(req);
      const advanced = advance(ms);
      // The sandbox's world keeps the same time (its stories expire, its media links age): moved
      // before each trigger run (moveWorld), and here to where the advance ended. Set to an instant, so a second try
      // is harmless: the stand-in blocked this thread for the whole advance, and the sandbox may have
      // closed the idle keep-alive connection the first try reuses.
      const moveSandbox = () =>
        fetch(`${sandboxUrl}/_sandbox/clock?to=${new Date(rt.now()).toISOString()}`, { method: 'POST' });
      const moved = await moveSandbox()
        .catch(() => moveSandbox())
        .catch((e) => e);
      if (!(moved instanceof Response) || !moved.ok)
        console.error(
          `sheets-preview: the sandbox's clock did not move: ${moved instanceof Response ? moved.status : moved.message}`,
        );
      return json({ ...grid(), advanced });
    }
    send(404, 'text/plain', 'not found');
  } catch (e) {
    json({ ok: false, error: { name: 'Error', message: errorText(e) } }, 400);
  }
});

const port = Number(process.env.SHEETS_PREVIEW_PORT ?? 4020);
const host = process.env.SHEETS_PREVIEW_HOST ?? '127.0.0.1';
server.on('error', (e) => {
  console.error(`sheets-preview: ${e.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  console.log(`sheets-preview listening on http://${host}:${server.address().port}`);
});
const stop = () => {
  server.close();
  server.closeAllConnections?.();
  Promise.resolve(rt.close?.()).finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
