#!/usr/bin/env node
// Builds every product: the sandbox (plain JS for `npm run sandbox`), the Sheets add-on
// (sheets-addon/dist, ready for clasp push) and the n8n package (n8n-node/dist).
// Each part lives in scripts/build/<part>.mjs and exports `build()`.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { parseFlags } from './lib/cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const PARTS = ['sandbox', 'sheets', 'n8n', 'zapier'];
const usage = `usage: node scripts/build.mjs [part ...]   parts: ${PARTS.join(', ')} (default: all)`;
const { positionals } = parseFlags({ allowPositionals: true, usage });
const unknown = positionals.filter((p) => !PARTS.includes(p));
if (unknown.length) {
  console.error(`not a part to build: ${unknown.join(', ')}\n${usage}`);
  process.exit(2);
}
const parts = positionals.length ? positionals : PARTS;
for (const part of parts) {
  const t0 = Date.now();
  const { build } = await import(pathToFileURL(join(here, 'build', `${part}.mjs`)).href);
  await build();
  console.log(`built ${part} in ${Date.now() - t0} ms`);
}
