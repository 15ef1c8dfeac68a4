#!/usr/bin/env node
// Sheets preview: the BUILT add-on (sheets-addon/dist) in the Apps Script stand-in
// (scripts/gas-standin/runtime.ts), against a sandbox, behind a small web page with a grid and the real sidebar.
// Not Google Sheets. Run it in its own process: the stand-in's UrlFetchApp blocks this thread.
//
//   SANDBOX_URL=http://127.0.0.1:4010 IGDATA_API_KEY=<demo key> node scripts/sheets-preview/server.mjs
//   SHEETS_PREVIEW_PORT (default 4020, 0 = any), IGDATA_LISTEN (where to listen and the names to answer
//   to, as the sandbox reads it: scripts/lib/listen.ts; default 127.0.0.1),
//   IGDATA_CLOCK_START (the instant the stand-in's clock starts at, ISO 8601; default the real time)
//
// HTTP: GET / (the page), GET /formula.js (its formula parser), GET /chart-parts.js (what its charts share),
// GET /chart.js (its line charts),
// GET /column-chart.js (its column charts), GET /sidebar (Sidebar.html + a google.script.run shim), GET /grid (the active sheet, its embedded
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
// Embedded charts (the growth view's line chart, a benchmark's column charts) are drawn over the grid
// at their anchor cell by chart.js and column-chart.js, from the stand-in's chart model: a sketch of Sheets' chart, not Google Charts. The
// tracker view's SPARKLINE cells are drawn as small lines (sparkline.js evaluates that one formula
// shape; the preview is no Sheets formula engine), and the vet scorecard's verdicts and links
// (scorecard.js, those shapes alone) with the sheet's conditional colours. =IMAGE(url or cell) shows the picture in its cell
// (the sandbox's media links point at the sandbox: a profile_pic_url or image_url fetched by a formula). The page
// shows the stand-in's clock, not the browser's; the sidebar's Date follows it too (gas-shim.js).
//
// Every request crosses the gate the sandbox has (scripts/lib/gate.ts, built to dist/border.mjs):
// Host must name this machine, a page of another site may not POST, and a body past 1 MB is
// refused with the connection closed.
import { loadGasRuntime } from '../gas-standin/load.mjs';
import { createServer } from 'node:http';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { a1Of, parseRange, quoteName } from './a1.mjs';
import { createCells, errorText } from './cells.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const dist = join(root, 'sheets-addon', 'dist');
// The production address, from core (built by npm run build): the stand-in's requests to it go to the sandbox.
const { DEFAULT_BASE_URL: PROD } = await import(pathToFileURL(join(root, 'dist', 'core.mjs')).href);
const { guard, readBody, LISTEN_ENV, listenOf, listenWarning, isWildcard } = await import(
  pathToFileURL(join(root, 'dist', 'border.mjs')).href
);
/** The routes the page POSTs JSON to, and the most each takes (a paste of many rows is the largest). */
const POSTS = new Set(['/run', '/cell', '/paste', '/select', '/sheet', '/advance']);
const BODY_LIMIT = 1_000_000;
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
const exposed = rt.globalFunctionNames().filter((n) => !n.endsWith('_'));
const customFns = new Set(exposed.filter((n) => /^[A-Z][A-Z0-9_]*$/.test(n)));
const { view, grow, setCell, paste, grid } = createCells(rt, customFns);

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
const chartPartsJs = readFileSync(join(here, 'chart-parts.js'), 'utf8');
const chartJs = readFileSync(join(here, 'chart.js'), 'utf8');
const columnChartJs = readFileSync(join(here, 'column-chart.js'), 'utf8');
const shim = readFileSync(join(here, 'gas-shim.js'), 'utf8').replace('__NAMES__', JSON.stringify(exposed));
function sidebarHtml() {
  let html = readFileSync(join(dist, 'Sidebar.html'), 'utf8');
  if (/<\?/.test(html)) html = rt.evaluate(`HtmlService.createTemplateFromFile('Sidebar').evaluate().getContent()`);
  const tag = `<script>${shim.replace('__CLOCK_OFFSET__', String(rt.now() - Date.now()))}</script>`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + tag) : tag + html;
}

async function body(req) {
  const s = await readBody(req);
  return s ? JSON.parse(s) : {};
}

let listen;
try {
  listen = listenOf(process.env[LISTEN_ENV]);
} catch (e) {
  console.error(`sheets-preview: ${e.message}`);
  process.exit(2);
}
const server = createServer();
const rules = {
  bodyLimit: (method, path) => (method === 'POST' && POSTS.has(path) ? BODY_LIMIT : 0),
  refusal: (_path, _status, _code, message) => ({
    type: 'application/json; charset=utf-8',
    body: JSON.stringify({ ok: false, error: { name: 'Error', message } }),
  }),
};
guard(server, listen, rules, async (req, res) => {
  const send = (status, type, text) => {
    // A body refused at its limit was answered by the gate.
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(text);
  };
  const json = (obj, status = 200) => send(status, 'application/json; charset=utf-8', JSON.stringify(obj));
  try {
    const path = new URL(req.url, 'http://x').pathname;
    if (req.method === 'GET' && path === '/') return send(200, 'text/html; charset=utf-8', page);
    if (req.method === 'GET' && path === '/formula.js') return send(200, 'text/javascript; charset=utf-8', formulaJs);
    if (req.method === 'GET' && path === '/chart-parts.js')
      return send(200, 'text/javascript; charset=utf-8', chartPartsJs);
    if (req.method === 'GET' && path === '/chart.js') return send(200, 'text/javascript; charset=utf-8', chartJs);
    if (req.method === 'GET' && path === '/column-chart.js')
      return send(200, 'text/javascript; charset=utf-8', columnChartJs);
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
const host = listen.address;
server.on('error', (e) => {
  console.error(`sheets-preview: ${e.message}`);
  process.exit(1);
});
server.listen(port, host, () => {
  const at = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  const everywhere = isWildcard(host) ? ` and every other address of this machine (${LISTEN_ENV})` : '';
  console.log(`sheets-preview listening on http://${at}:${server.address().port}${everywhere}`);
  const warning = listenWarning(listen, 'the Sheets preview');
  if (warning) console.error(warning);
});
const stop = () => {
  server.close();
  server.closeAllConnections?.();
  Promise.resolve(rt.close?.()).finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
