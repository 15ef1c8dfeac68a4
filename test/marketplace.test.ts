/**
 * The Google Workspace Marketplace kit of the Sheets add-on (docs/marketplace/, written by
 * `npm run release:marketplace`): every image at the size Google's "Create a store listing" page asks
 * for (read from the PNG's own header) and small; the texts within Google's limits; listing.md
 * current with its source (scripts/release/listing.mjs) and the manifest, every OAuth scope of
 * sheets-addon/appsscript.json with its reason and none other. Reads files only.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pngSize } from './support/png';

const root = join(__dirname, '..');
const KIT = join(root, 'docs', 'marketplace');

/** listing.mjs's exports (ESM: read in a child node) and listing.md as it would write it now. */
const source = JSON.parse(
  spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(pathToFileURL(join(root, 'scripts/release/listing.mjs')).href)});
       const scopes = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(join(root, 'sheets-addon/appsscript.json'))}, 'utf8')).oauthScopes;
       console.log(JSON.stringify({ ...m, text: m.listingText(scopes), scopes }));`,
    ],
    { encoding: 'utf8' },
  ).stdout,
);

test.each(Object.entries(source.KIT_IMAGES as Record<string, [number, number]>))(
  '%s is a PNG of %j pixels, under 300 KB',
  (name, size) => {
    expect(pngSize(join(KIT, name))).toEqual(size);
    expect(statSync(join(KIT, name)).size).toBeLessThan(300 * 1024);
  },
);

test("the texts are within Google's limits", () => {
  const { LISTING, LIMITS } = source;
  expect(LISTING.name.length).toBeLessThanOrEqual(LIMITS.name);
  expect(LISTING.short.length).toBeLessThanOrEqual(LIMITS.short);
  expect(LISTING.detailed.length).toBeLessThan(LIMITS.detailed);
  // The service's prices as it states them (spec §1): the same words as the README's.
  expect(LISTING.detailed).toMatch(
    /50 free credits when you sign up .*from 8\.00 per 1,000 credits, falling to 6\.00 per 1,000/,
  );
});

test('every scope of the manifest has its reason, and only those; listing.md is current', () => {
  expect(Object.keys(source.SCOPE_REASONS).sort()).toEqual([...source.scopes].sort());
  for (const s of source.scopes) expect(source.text).toContain(`| \`${s}\` | ${source.SCOPE_REASONS[s]} |`);
  expect(readFileSync(join(KIT, 'listing.md'), 'utf8')).toBe(source.text);
});

test('the header check reads sizes, and refuses what is not a PNG', () => {
  expect(pngSize(join(KIT, 'icon-32.png'))).toEqual([32, 32]);
  expect(pngSize(join(KIT, 'listing.md'))).toBeNull();
});
