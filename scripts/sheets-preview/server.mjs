#!/usr/bin/env node
// Sheets preview: the BUILT add-on (sheets-addon/dist) in the Apps Script stand-in
// (scripts/gas-standin/runtime.ts), against a sandbox, behind a small web page with a grid and the real sidebar.
// Not Google Sheets. Run it in its own process: the stand-in's UrlFetchApp blocks this thread.
//
//   SANDBOX_URL=http://127.0.0.1:4010 IGDATA_API_KEY=<demo key> node scripts/sheets-preview/server.mjs
//   SHEETS_PREVIEW_PORT (default 4020, 0 = any), SHEETS_PREVIEW_HOST (default 127.0.0.1)
//
// HTTP: GET / (the page), GET /sidebar (Sidebar.html + a google.script.run shim), GET /grid,
// POST /run {fn, args} (a sidebar call), POST /cell {a1, input, formula?} (a value or a parsed
// formula), POST /select {a1}.
import { loadGasRuntime } from '../gas-standin/load.mjs';
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const dist = join(root, 'sheets-addon', 'dist');
const PROD = 'https://api.igdata.dev';
const SHEET = 'Sheet1';
const ROWS = 30;
const COLS = 8;
const HANDLES = ['handle', 'nasa', '@natgeo', 'https://www.instagram.com/nike/', 'nasa', 'locked_acc', 'starbucks', 'no_such_creator_xyz'];

const sandboxUrl = (process.env.SANDBOX_URL ?? '').replace(/\/+$/, '');
const apiKey = process.env.IGDATA_API_KEY ?? '';
if (!sandboxUrl) {
  console.error('sheets-preview: set SANDBOX_URL (and IGDATA_API_KEY) to the sandbox to use');
  process.exit(2);
}
for (const f of ['bundle.js', 'Code.js', 'Sidebar.html', 'appsscript.json']) {
  if (!existsSync(join(dist, f))) {
    console.error(`sheets-preview: sheets-addon/dist/${f} is missing: run \`node scripts/build.mjs sheets\` (or npm run build)`);
    process.exit(1);
  }
}

const { createGasRuntime, GasScriptError, toClientValue } = await loadGasRuntime();

const rt = createGasRuntime({
  files: [join(dist, 'bundle.js'), join(dist, 'Code.js')],
  dir: dist,
  addonName: 'IG Data',
  enforceUrlFetchWhitelist: true,
  rewriteUrl: (u) => (u.startsWith(PROD) ? sandboxUrl + u.slice(PROD.length) : u),
});
if (apiKey) rt.properties.document.set('IGDATA_API_KEY', apiKey);
const sheet = rt.spreadsheet.sheet(SHEET);
HANDLES.forEach((h, i) => sheet.set(i + 1, 1, h));

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
  return { row: Math.min(p.row, q.row), col: Math.min(p.col, q.col), rows: Math.abs(q.row - p.row) + 1, cols: Math.abs(q.col - p.col) + 1, single: b === undefined };
}
const a1Of = (row, col) => `${colName(col)}${row}`;

/** Formulas by anchor cell: { input, spill: {rows, cols} | null, error: string | null }. */
const formulas = new Map();
const spillOwner = (row, col) => {
  for (const [anchor, f] of formulas) {
    if (!f.spill) continue;
    const p = parseCell(anchor);
    if (row >= p.row && row < p.row + f.spill.rows && col >= p.col && col < p.col + f.spill.cols) return anchor;
  }
  return null;
};
function clearFormula(anchor) {
  const f = formulas.get(anchor);
  if (!f) return;
  const p = parseCell(anchor);
  if (f.spill) for (let r = 0; r < f.spill.rows; r++) for (let c = 0; c < f.spill.cols; c++) sheet.set(p.row + r, p.col + c, '');
  sheet.set(p.row, p.col, '');
  formulas.delete(anchor);
}

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
      const g = parseRange(arg.a1);
      if (g.single) return sheet.get(g.row, g.col);
      const out = [];
      for (let r = 0; r < g.rows; r++) out.push(Array.from({ length: g.cols }, (_, c) => sheet.get(g.row + r, g.col + c)));
      return out;
    }
    default:
      throw new Error('Formula parse error.');
  }
}

function errorText(e) {
  return String(e?.message ?? e);
}

/** Sets a cell: a literal, or a formula the page parsed ({ name, args }). Returns nothing; GET /grid shows the result. */
function setCell(a1, input, formula) {
  const { row, col } = parseCell(a1);
  const anchor = a1Of(row, col);
  clearFormula(anchor);
  input = String(input ?? '');
  if (!input.startsWith('=')) {
    const trimmed = input.trim();
    const v = trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : /^(true|false)$/i.test(trimmed) ? trimmed.toUpperCase() === 'TRUE' : input;
    sheet.set(row, col, v);
    return;
  }
  const entry = { input, spill: null, error: null };
  formulas.set(anchor, entry);
  try {
    if (!formula || typeof formula.name !== 'string') throw new Error(formula?.error || 'Formula parse error.');
    const name = formula.name.toUpperCase();
    if (!customFns.has(name)) throw new Error(`Unknown function: '${formula.name}'.`);
    const args = (formula.args ?? []).map(argValue);
    let value = rt.run(name, args, { kind: 'custom', cell: `${SHEET}!${anchor}` });
    if (!Array.isArray(value)) value = [[value]];
    value = value.map((r) => (Array.isArray(r) ? r : [r]));
    const rows = value.length;
    const cols = Math.max(1, ...value.map((r) => r.length));
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        if (r === 0 && c === 0) continue;
        const v = sheet.get(row + r, col + c);
        const owner = spillOwner(row + r, col + c);
        if ((v !== '' && owner === null) || (owner !== null && owner !== anchor)) {
          throw new Error(`Array result was not expanded because it would overwrite data in ${a1Of(row + r, col + c)}.`);
        }
      }
    }
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) sheet.set(row + r, col + c, value[r][c] ?? '');
    entry.spill = { rows, cols };
  } catch (e) {
    entry.error = errorText(e);
    sheet.set(row, col, '#ERROR!');
  }
}

function display(v) {
  if (v instanceof Date || Object.prototype.toString.call(v) === '[object Date]') return new Date(v.getTime()).toISOString();
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return v;
}

function grid() {
  const rows = Math.max(ROWS, sheet.lastRow() + 2);
  const cols = Math.max(COLS, sheet.lastCol() + 1);
  const values = [];
  for (let r = 1; r <= rows; r++) values.push(Array.from({ length: cols }, (_, c) => display(sheet.get(r, c + 1))));
  const fx = {};
  const errors = {};
  for (const [a, f] of formulas) {
    fx[a] = f.input;
    if (f.error) errors[a] = f.error;
  }
  const ar = rt.spreadsheet.activeRange;
  const selection = ar ? `${a1Of(ar.row, ar.col)}:${a1Of(ar.row + ar.numRows - 1, ar.col + ar.numCols - 1)}` : null;
  return { sheet: SHEET, rows, cols, values, formulas: fx, errors, selection };
}

/** google.script.run for the sidebar: exposed functions only, results as Apps Script returns them. */
function runForSidebar(fn, args) {
  if (typeof fn !== 'string' || !exposed.includes(fn)) return { ok: false, error: { name: 'TypeError', message: `google.script.run.${fn} is not a function` } };
  try {
    return { ok: true, value: toClientValue(rt.run(fn, Array.isArray(args) ? args : [], { kind: 'script' })) };
  } catch (e) {
    const name = e instanceof GasScriptError ? e.gasName : 'Error';
    return { ok: false, error: { name: name || 'Error', message: errorText(e) } };
  }
}

// ---- pages
const page = readFileSync(join(here, 'index.html'), 'utf8');
const shim = readFileSync(join(here, 'gas-shim.js'), 'utf8').replace('__NAMES__', JSON.stringify(exposed));
function sidebarHtml() {
  let html = readFileSync(join(dist, 'Sidebar.html'), 'utf8');
  if (/<\?/.test(html)) html = rt.evaluate(`HtmlService.createTemplateFromFile('Sidebar').evaluate().getContent()`);
  const tag = `<script>${shim}</script>`;
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
    if (req.method === 'POST' && path === '/select') {
      const { a1 } = await body(req);
      const g = parseRange(a1);
      rt.spreadsheet.select(`${SHEET}!${a1Of(g.row, g.col)}:${a1Of(g.row + g.rows - 1, g.col + g.cols - 1)}`);
      return json({ ok: true });
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
