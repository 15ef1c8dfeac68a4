#!/usr/bin/env node
// `npm run release:marketplace`: the kit a Google Workspace Marketplace listing of the Sheets add-on
// asks for, written into docs/marketplace/ (committed: it is uploaded by hand in the Marketplace
// SDK's Store Listing page). The sizes are those Google's "Create a store listing" page
// (https://developers.google.com/workspace/marketplace/create-listing, "Graphic assets") asks for:
//   icon-128.png, icon-32.png         the application icons, from the n8n node's igdata.svg
//   banner-220x140.png                the application card banner
//   screenshot-1.png, screenshot-2.png  1280 x 800, taken from the Sheets preview (the built add-on)
//   listing.md                        the texts, and the OAuth scopes with why each is needed
// Rendered in headless Chromium (Debian's); needs `npm run build` (the npm script runs it).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain } from '../lib/cli.mjs';
import { pictureWorld } from '../screenshots/run.mjs';
import { formulasScene, trackerScene } from '../screenshots/preview-scenes.mjs';
import { KIT_IMAGES, LISTING, listingText } from './listing.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const KIT_DIR = join(root, 'docs', 'marketplace');

const svg = () => readFileSync(join(root, 'n8n-node', 'nodes', 'IgData', 'igdata.svg'), 'utf8');

/** The icon at `size`, transparent around its rounded square. */
async function icon(browser, size, file) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const scaled = svg().replace(/width="64" height="64"/, `width="${size}" height="${size}"`);
  await page.setContent(`<body style="margin:0">${scaled}</body>`);
  await page.screenshot({ path: file, omitBackground: true });
  await page.close();
}

/** The card banner: the icon, the name and what it does, on the icon's colours. */
async function banner(browser, file) {
  const [width, height] = KIT_IMAGES['banner-220x140.png'];
  const page = await browser.newPage({ viewport: { width, height } });
  const mark = svg().replace(/width="64" height="64"/, 'width="56" height="56"');
  await page.setContent(`<body style="margin:0;width:${width}px;height:${height}px;background:#ccfbf1;
    font-family:Arial,sans-serif;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:6px">
    <div style="display:flex;align-items:center;gap:10px">${mark}
      <span style="font-size:26px;font-weight:bold;color:#0f766e">${LISTING.name}</span></div>
    <div style="font-size:13px;color:#134e4a">Instagram data in Sheets</div></body>`);
  await page.screenshot({ path: file });
  await page.close();
}

export async function marketplaceKit(dir = KIT_DIR) {
  mkdirSync(dir, { recursive: true });
  const scopes = JSON.parse(readFileSync(join(root, 'sheets-addon', 'appsscript.json'), 'utf8')).oauthScopes;
  writeFileSync(join(dir, 'listing.md'), listingText(scopes));
  const world = await pictureWorld();
  try {
    await icon(world.browser, 128, join(dir, 'icon-128.png'));
    await icon(world.browser, 32, join(dir, 'icon-32.png'));
    await banner(world.browser, join(dir, 'banner-220x140.png'));
    for (const [name, scene] of [
      ['screenshot-1.png', formulasScene],
      ['screenshot-2.png', trackerScene],
    ]) {
      const { url, page } = await world.preview();
      await scene(page, url);
      await page.screenshot({ path: join(dir, name) });
    }
  } finally {
    await world.close();
  }
  return [...Object.keys(KIT_IMAGES), 'listing.md'].map((f) => join(dir, f));
}

if (isMain(import.meta.url)) {
  for (const f of await marketplaceKit()) console.log(`release:marketplace: ${f}`);
}
