/** Helpers of the sidebar suites: polling assertions and opening the built sidebar for a runtime. */
import type { FrameLocator, Page } from 'playwright-core';
import { closeBrowser, openSidebar } from '../../scripts/gas-standin/browser';
import type { GasRuntime } from '../../scripts/gas-standin/runtime';
import type { SandboxProcess } from './harness';
import { addonRuntime, startSandbox } from './harness';

/**
 * A sidebar suite's set-up: one sandbox and one add-on runtime for the file (`key: null` starts
 * without a key), the pages it opens (`env.pages`) and the browser closed after its tests.
 */
export function sidebarSuite(opts: { key?: string | null } = {}) {
  const env = {
    sb: undefined as unknown as SandboxProcess,
    rt: undefined as unknown as GasRuntime,
    pages: [] as Page[],
  };
  beforeAll(async () => {
    env.sb = await startSandbox();
    env.rt = addonRuntime(env.sb.url, opts);
  });
  afterAll(async () => {
    for (const p of env.pages)
      await p
        .context()
        .close()
        .catch(() => undefined);
    await closeBrowser();
    await env.rt?.close();
    await env.sb?.close();
  });
  return env;
}

/** Polls until the value passes, then asserts it (jest has no expect.poll). */
export function poll<T>(get: () => Promise<T> | T, { timeout = 10000 } = {}) {
  const run = async (ok: (v: T) => boolean, check: (v: T) => void) => {
    const end = Date.now() + timeout;
    let v = await get();
    while (!ok(v) && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      v = await get();
    }
    check(v);
  };
  return {
    toBe: (x: T) =>
      run(
        (v) => Object.is(v, x),
        (v) => expect(v).toBe(x),
      ),
    toEqual: (x: T) =>
      run(
        (v) => JSON.stringify(v) === JSON.stringify(x),
        (v) => expect(v).toEqual(x),
      ),
    toMatch: (re: RegExp) =>
      run(
        (v) => re.test(String(v)),
        (v) => expect(String(v)).toMatch(re),
      ),
    toBeGreaterThan: (n: number) =>
      run(
        (v) => Number(v) > n,
        (v) => expect(Number(v)).toBeGreaterThan(n),
      ),
    not: {
      toBe: (x: T) =>
        run(
          (v) => !Object.is(v, x),
          (v) => expect(v).not.toBe(x),
        ),
    },
  };
}

export const text = (page: Page, sel: string) => page.textContent(sel).then((t) => t ?? '');

/** Opens the built sidebar once the key status has loaded; `pages` collects pages to close in afterAll. */
export async function openLoaded(rt: GasRuntime, pages: Page[]): Promise<Page> {
  const page = await openSidebar(rt, 'Sidebar');
  pages.push(page);
  await poll(() => page.textContent('#key-status')).not.toBe('Loading…');
  // The page's own state: the view is chosen once the server's answer is in (nav.ts).
  await page.waitForFunction(() => document.body.hasAttribute('data-view'));
  return page;
}

/**
 * Goes to a view of the sidebar as a user does: back to the list if a section is open, then its
 * entry (`#open-<view>`). A page, or the sidebar's frame in the preview.
 */
export async function go(page: Page | FrameLocator, view: string): Promise<void> {
  const back = page.locator('#back');
  if (await back.isVisible()) await back.click();
  await page.locator(`#open-${view}`).click();
  await page.locator(`#${view}`).waitFor({ state: 'visible' });
}

/**
 * Clicks Cancel as soon as the progress bar moves. The click is made in the page: the test's
 * thread is busy running the stand-in's step while the run goes on.
 */
export async function cancelOnFirstProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const bar = document.getElementById('progress')!;
    const obs = new MutationObserver(() => {
      if (Number(bar.getAttribute('aria-valuenow')) > 0) {
        obs.disconnect();
        (document.getElementById('cancel') as HTMLButtonElement).click();
      }
    });
    obs.observe(bar, { attributes: true });
  });
}
