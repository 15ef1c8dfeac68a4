#!/usr/bin/env node
// `npm run screenshots`: the README's pictures, taken from the built product (run `npm run build`
// first) in headless Chromium (Debian's, scripts/browser/install.mjs) and written over the ones in
// docs/images/:
//   sheets-preview.png  the Sheets preview, the README's formula typed in B2 (and engagement beside it)
//   sheets-tracker.png  a tracker of the preview's column after three weekly runs: values, changes, trends
//   n8n-canvas.png      the n8n editor `npm start` opens, the first example workflow executed
//   sheets-benchmark.png  a benchmark of four creators after its weekly refresh: the report, leaders, charts
//                       (not on the README's first screen: BENCHMARK_PICTURE, apart from PICTURES)
// On a sandbox of their own whose clock starts at a fixed instant (seed 42), so the same product
// gives the same pictures. `--no-n8n` leaves the n8n picture as it is (n8n takes a minute to start).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { isMain, parseFlags } from '../lib/cli.mjs';
import { startSheetsPreview } from '../sheets-preview/start.mjs';
import { canvasScene } from './n8n-canvas.mjs';
import { benchmarkScene, formulasScene, trackerScene } from './preview-scenes.mjs';

/** Debian's Chromium, as scripts/browser/install.mjs installs it (CHROMIUM_PATH overrides). */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A Wednesday morning: the tracker's weekly runs fall on the next two Mondays. */
export const PICTURE_CLOCK = '2026-11-25T10:00:00Z';
/** The size of a laptop's browser window, and the Marketplace's screenshot size. */
export const VIEWPORT = { width: 1280, height: 800 };
export const IMAGES_DIR = join(root, 'docs', 'images');
/** The pictures this command writes into IMAGES_DIR (the README's first screen shows them all). */
export const PICTURES = ['sheets-preview.png', 'sheets-tracker.png', 'n8n-canvas.png'];
/** A picture further down the docs (test/readme-top.test.ts checks PICTURES on the first screen alone). */
export const BENCHMARK_PICTURE = 'sheets-benchmark.png';

/** The sandbox, the Sheets preview (one per scene: each starts from the preview's own grid) and Chromium. */
export async function pictureWorld() {
  const { startSandbox } = await import(pathToFileURL(join(root, 'dist', 'sandbox-lib.mjs')).href);
  const sandbox = await startSandbox({ port: 0, quiet: true, seed: 42, startAt: PICTURE_CLOCK });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const previews = [];
  return {
    sandbox,
    browser,
    /** A fresh preview on this sandbox and a page of VIEWPORT's size. */
    async preview() {
      process.env.IGDATA_CLOCK_START = PICTURE_CLOCK;
      const preview = await startSheetsPreview({ sandboxUrl: sandbox.url, apiKey: sandbox.demoKey, port: 0 });
      previews.push(preview);
      const page = await (await browser.newContext({ viewport: VIEWPORT })).newPage();
      return { url: preview.url, page };
    },
    async close() {
      await browser.close();
      for (const p of previews) await p.stop();
      await sandbox.close();
    },
  };
}

/** The n8n editor of `npm start` in a home of its own, with its page signed in and the example run. */
async function n8nPicture(world, file) {
  const require = createRequire(import.meta.url);
  const { freePort } = require('../n8n-harness/index.cjs');
  const { startN8nEditor } = await import('../n8n-harness/start-editor.mjs');
  const dir = mkdtempSync(join(tmpdir(), 'igdata-pictures-n8n-'));
  const editor = await startN8nEditor({
    sandboxUrl: world.sandbox.url,
    apiKey: world.sandbox.demoKey,
    port: await freePort(),
    dir,
  });
  try {
    const page = await (await world.browser.newContext({ viewport: VIEWPORT })).newPage();
    await canvasScene(page, editor);
    await page.screenshot({ path: file });
  } finally {
    await editor.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const { values: flags } = parseFlags({
    options: { 'no-n8n': { type: 'boolean' } },
    usage: 'usage: npm run screenshots [-- --no-n8n]',
  });
  mkdirSync(IMAGES_DIR, { recursive: true });
  const world = await pictureWorld();
  const written = [];
  const shoot = async (name, scene, on = world) => {
    const { url, page } = await on.preview();
    await scene(page, url);
    await page.screenshot({ path: join(IMAGES_DIR, name) });
    written.push(name);
  };
  try {
    const [preview, tracker, canvas] = PICTURES;
    await shoot(preview, formulasScene);
    await shoot(tracker, trackerScene);
    // Its weekly refresh needs the world a week on from the start: a sandbox of its own (the tracker's
    // weeks moved this one's world on already, and a world's clock does not go back).
    const own = await pictureWorld();
    try {
      await shoot(BENCHMARK_PICTURE, benchmarkScene, own);
    } finally {
      await own.close();
    }
    if (!flags['no-n8n']) {
      await n8nPicture(world, join(IMAGES_DIR, canvas));
      written.push(canvas);
    }
  } finally {
    await world.close();
  }
  console.log(`screenshots: ${written.map((f) => `docs/images/${f}`).join(', ')}`);
}

if (isMain(import.meta.url)) await main();
