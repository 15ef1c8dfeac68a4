/**
 * The Sheets preview for a test file: the sandbox, the preview server (scripts/sheets-preview) in
 * its own process, headless Chromium on its page; closed after the file's tests.
 *   const env = previewSuite('2026-11-25T10:00:00Z'); ... env.page, env.sidebar, env.sb, env.browser, env.preview.url
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { launchBrowser } from '../../scripts/gas-standin/browser';
import { spawnServer } from '../../scripts/gas-standin/testServer';
import type { SandboxProcess } from './harness';
import { DEMO_KEY, ROOT, startSandbox } from './harness';
import { poll } from './sidebar-page';

export const VIEWPORT = { width: 1400, height: 900 };

/**
 * `startAt`: the instant the preview's clock and the sandbox's start at (ISO 8601 with its zone).
 * Required: what a preview suite shows depends on the weekday and hour (a weekly schedule's next
 * run, a day's usage), so each suite names the one it needs.
 */
export function previewSuite(startAt: string) {
  const env = {
    sb: undefined as unknown as SandboxProcess,
    preview: undefined as unknown as Awaited<ReturnType<typeof spawnServer>>,
    browser: undefined as unknown as Browser,
    page: undefined as unknown as Page,
    sidebar: undefined as unknown as FrameLocator,
  };
  beforeAll(async () => {
    env.sb = await startSandbox({ startAt });
    env.preview = await spawnServer(process.execPath, [path.join(ROOT, 'scripts/sheets-preview/server.mjs')], {
      env: { SANDBOX_URL: env.sb.url, IGDATA_API_KEY: DEMO_KEY, SHEETS_PREVIEW_PORT: '0', IGDATA_CLOCK_START: startAt },
      portPattern: /sheets-preview listening on http:\/\/[\d.]+:(\d+)/,
      timeoutMs: 60_000,
    });
    env.browser = await launchBrowser();
    env.page = await (await env.browser.newContext({ viewport: VIEWPORT })).newPage();
    await env.page.goto(env.preview.url);
    env.sidebar = env.page.frameLocator('#sidebar');
    // Ready by the page's own state: a grid drawn, the sidebar on its first view, nothing in flight.
    await env.page.waitForFunction(() => Number(document.body.getAttribute('data-draws')) > 0);
    await env.sidebar.locator('body[data-view]').waitFor({ state: 'attached' });
    await settled(env.page);
    // A sandbox, the preview server (its own process) and Chromium start here: on a machine loaded
    // by other suites that is more than jest's 60 s for a hook (seen once beside preview-edges).
  }, 180_000);
  afterAll(async () => {
    await env.browser?.close();
    await env.preview?.close();
    await env.sb?.close();
  });
  return env;
}

/** The text a grid cell shows. */
export const cellText = (page: Page, a1: string) => page.textContent(`td[data-a1="${a1}"]`).then((t) => t ?? '');

/** A screenshot of `page` into SCREENSHOTS_DIR as preview-<name>.png, when that is set (to look at them). */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `preview-${name}.png`) });
}

/** Pastes `lines` at `a1` as a user does (a click, then the clipboard's text, a row a line); returns once the page says so. */
export async function paste(page: Page, a1: string, lines: string[]): Promise<void> {
  await page.click(`td[data-a1="${a1}"]`);
  await page.evaluate(
    (text) => {
      const dt = new DataTransfer();
      dt.setData('text/plain', text);
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    lines.join('\n') + '\n',
  );
  await poll(() => page.textContent('#status')).toBe(`Pasted ${lines.length} rows at ${a1}.`);
}

/** Selects the grid cells from `a1` to `to` by dragging, as a user does; returns once the server has it. */
export async function dragSelect(page: Page, a1: string, to: string): Promise<void> {
  await page.hover(`td[data-a1="${a1}"]`);
  await page.mouse.down();
  await page.hover(`td[data-a1="${to}"]`);
  await page.mouse.up();
  await settled(page);
}

/**
 * Waits until the preview is idle by its own account: no request of the page in flight (a cell, the
 * selection, a grid) and no call of the sidebar whose grid refresh is still coming (index.html's
 * body[data-busy], gas-shim.js's html[data-calls]). The sidebar is read first: a call it counts no
 * more has had its refresh counted by the page already.
 */
export async function settled(page: Page): Promise<void> {
  const idle = async () => {
    const frame = page.frames().find((f) => f.url().endsWith('/sidebar'));
    const calls = frame ? await frame.evaluate(() => document.documentElement.getAttribute('data-calls') ?? '0') : '0';
    const busy = await page.evaluate(() => document.body.getAttribute('data-busy') ?? '0');
    return calls === '0' && busy === '0';
  };
  await poll(idle, { timeout: 60_000 }).toBe(true);
}
