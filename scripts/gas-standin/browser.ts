/**
 * Sidebar tests in headless Chromium (Debian's /usr/bin/chromium driven by playwright-core; install
 * it with `node scripts/browser/install.mjs`, never `npx playwright install`).
 *
 *   const page = await openSidebar(runtime, 'Sidebar');     // the built Sidebar.html
 *   await page.click('#go');
 *   await expect.poll(() => page.textContent('#out')).toBe('...');
 *   sidebarState(page).calls  // google.script.run calls that reached the runtime
 *   await closeBrowser();      // afterAll
 *
 * In the page, `google.script.run` is a shim wired to the runtime's global functions: asynchronous,
 * success/failure handlers, withUserObject, at most 10 calls in flight (more are queued), private
 * functions (ending in `_`) absent. Each call is one 'script' execution of the runtime (fresh global
 * scope, 6 min limit), run as `opts.user` (default runtime.activeUser). `google.script.host.close()`
 * is recorded. The page has no network: every request other than the sidebar itself is aborted and
 * listed in sidebarState(page).blockedRequests.
 */
import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { GasRuntime, GasScriptError } from './runtime';
import { readHtmlFile } from './services/html';
import { toClientValue } from './internal/clientValue';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the sidebar is served (Apps Script serves user HTML from a googleusercontent.com origin). */
export const SIDEBAR_URL = 'https://n-stand-in-0lu-script.googleusercontent.com/userCodeAppPanel';

export interface SidebarCall {
  fn: string;
  args: unknown[];
  ok: boolean;
  error?: string;
  ms: number;
}

export interface SidebarState {
  calls: SidebarCall[];
  /** Most google.script.run calls the page had in flight at once. */
  maxInFlight: number;
  hostCloseCalls: number;
  blockedRequests: string[];
  console: string[];
  pageErrors: string[];
  context: BrowserContext;
}

export interface SidebarOptions {
  /** Browser to use (default: one shared browser, launched on first use; closeBrowser() ends it). */
  browser?: Browser;
  /** User at the keyboard for the server calls (default runtime.activeUser). */
  user?: string;
  /** Sidebar size (Apps Script sidebars are 300 px wide). */
  width?: number;
  height?: number;
  /** google.script.run calls in flight at once (default 10). */
  maxInFlight?: number;
}

let shared: Promise<Browser> | null = null;
const states = new WeakMap<Page, SidebarState>();

/** Launches Debian's Chromium headless with a fresh temporary profile. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: run \`node scripts/browser/install.mjs\` (or set CHROMIUM_PATH).`,
    );
  }
  // playwright gives every launch a fresh temporary user-data-dir and removes it on close.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 });
}

export function sharedBrowser(): Promise<Browser> {
  shared ??= launchBrowser().catch((e) => {
    shared = null;
    throw e;
  });
  return shared;
}

export async function closeBrowser(): Promise<void> {
  const b = shared;
  shared = null;
  if (b) await (await b).close();
}

/** State of a page opened with openSidebar. */
export function sidebarState(page: Page): SidebarState {
  const s = states.get(page);
  if (!s) throw new Error('sidebarState: page was not opened with openSidebar');
  return s;
}

/**
 * Opens `htmlFile` (a file name in runtime.dir such as 'Sidebar', or `{ content }` e.g.
 * runtime.ui.lastSidebar) in a fresh browser context and returns the page. Templates
 * (files with `<? ?>`) are evaluated in the runtime first. Close it with `page.context().close()`.
 */
export async function openSidebar(
  runtime: GasRuntime,
  htmlFile: string | { content: string } = 'Sidebar',
  opts: SidebarOptions = {},
): Promise<Page> {
  const html = sidebarHtml(runtime, htmlFile);
  const names = runtime.globalFunctionNames().filter((n) => !n.endsWith('_'));
  const browser = opts.browser ?? (await sharedBrowser());
  const context = await browser.newContext({ viewport: { width: opts.width ?? 300, height: opts.height ?? 800 } });
  const page = await context.newPage();
  const state: SidebarState = {
    calls: [],
    maxInFlight: 0,
    hostCloseCalls: 0,
    blockedRequests: [],
    console: [],
    pageErrors: [],
    context,
  };
  states.set(page, state);

  page.on('console', (m) => state.console.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => state.pageErrors.push(String(e)));

  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url === SIDEBAR_URL) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    state.blockedRequests.push(url);
    return route.abort('blockedbyclient');
  });

  await page.exposeBinding('__gasRun', (_source, fn: string, args: unknown[]) => {
    const started = Date.now();
    const call: SidebarCall = { fn, args, ok: false, ms: 0 };
    state.calls.push(call);
    try {
      const value = runtime.run(fn, args, { kind: 'script', user: opts.user });
      call.ok = true;
      return { ok: true, value: toClientValue(value) };
    } catch (e) {
      const err =
        e instanceof GasScriptError
          ? { name: e.gasName, message: e.message }
          : { name: 'Error', message: String((e as Error)?.message ?? e) };
      call.error = `${err.name}: ${err.message}`;
      return { ok: false, error: err };
    } finally {
      call.ms = Date.now() - started;
    }
  });
  await page.exposeBinding('__gasHostClose', () => {
    state.hostCloseCalls++;
    runtime.ui.hostCloseCalls++;
  });
  await page.exposeBinding('__gasInFlight', (_source, n: number) => {
    state.maxInFlight = Math.max(state.maxInFlight, n);
  });
  await page.addInitScript({ content: shimSource(names, opts.maxInFlight ?? 10) });
  await page.goto(SIDEBAR_URL);
  return page;
}

function sidebarHtml(runtime: GasRuntime, htmlFile: string | { content: string }): string {
  if (typeof htmlFile !== 'string') return htmlFile.content;
  const src = readHtmlFile(runtime.dir, htmlFile);
  if (src === null) throw new Error(`openSidebar: no HTML file named ${htmlFile} in ${runtime.dir}`);
  if (!/<\?/.test(src)) return src;
  return runtime.evaluate(
    `HtmlService.createTemplateFromFile(${JSON.stringify(htmlFile)}).evaluate().getContent()`,
  ) as string;
}

/**
 * Runs in the page before its own scripts. Kept as plain JS text (not a TS function) so that
 * compilation or coverage instrumentation cannot change what the page receives.
 */
function shimSource(names: string[], max: number): string {
  return `(() => {
  const names = ${JSON.stringify(names)};
  const max = ${JSON.stringify(max)};
  const queue = [];
  let inFlight = 0;
  const illegal = (x, depth = 0) => {
    if (depth > 50) return true;
    if (x instanceof Date || typeof x === 'function' || typeof x === 'symbol') return true;
    if (Array.isArray(x)) return x.some((y) => illegal(y, depth + 1));
    if (x && typeof x === 'object') {
      if (typeof HTMLFormElement !== 'undefined' && x instanceof HTMLFormElement) return false;
      return Object.values(x).some((y) => illegal(y, depth + 1));
    }
    return false;
  };
  const formToObject = (f) => {
    const o = {};
    new FormData(f).forEach((v, k) => { o[k] = typeof v === 'string' ? v : null; });
    return o;
  };
  const deliver = (s, reply) => {
    if (reply.ok) {
      if (s.success) s.success(reply.value, s.userObject);
    } else {
      const e = new Error(reply.error.message);
      e.name = reply.error.name;
      if (s.failure) s.failure(e, s.userObject);
      else console.error('Uncaught ' + reply.error.name + ': ' + reply.error.message);
    }
  };
  const pump = () => {
    while (inFlight < max && queue.length) {
      const job = queue.shift();
      inFlight++;
      window.__gasInFlight(inFlight);
      window.__gasRun(job.fn, job.args)
        .then((reply) => deliver(job.s, reply), (err) => deliver(job.s, { ok: false, error: { name: 'Error', message: String(err && err.message) } }))
        .finally(() => { inFlight--; pump(); });
    }
  };
  const runner = (s) => {
    const r = {
      withSuccessHandler: (f) => runner(Object.assign({}, s, { success: f })),
      withFailureHandler: (f) => runner(Object.assign({}, s, { failure: f })),
      withUserObject: (o) => runner(Object.assign({}, s, { userObject: o })),
    };
    for (const name of names) {
      r[name] = (...args) => {
        const bad = args.findIndex((a) => illegal(a));
        if (bad >= 0) {
          setTimeout(() => deliver(s, { ok: false, error: { name: 'Error', message: 'Failed due to illegal value in property: ' + bad } }), 0);
          return;
        }
        const plain = args.map((a) => (typeof HTMLFormElement !== 'undefined' && a instanceof HTMLFormElement ? formToObject(a) : a));
        queue.push({ fn: name, args: JSON.parse(JSON.stringify(plain)), s });
        setTimeout(pump, 0); // always asynchronous, as the real one
      };
    }
    return r;
  };
  window.google = {
    script: {
      get run() { return runner({}); },
      host: {
        close: () => { window.__gasHostClose(); },
        setHeight: () => undefined,
        setWidth: () => undefined,
        editor: { focus: () => undefined },
        origin: 'https://docs.google.com',
      },
      url: { getLocation: (cb) => cb({ hash: '', parameter: {}, parameters: {} }) },
    },
  };
})();`;
}
