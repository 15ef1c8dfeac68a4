#!/usr/bin/env node
// Builds every product: the sandbox (plain JS for `npm run sandbox`), the Sheets add-on
// (sheets-addon/dist, ready for clasp push) and the n8n package (n8n-node/dist).
// Each part lives in scripts/build/<part>.mjs and exports `build()`.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const parts = (process.argv[2] ? [process.argv[2]] : ['sandbox', 'sheets', 'n8n']).filter((p) =>
  existsSync(join(here, 'build', `${p}.mjs`)),
);
for (const part of parts) {
  const t0 = Date.now();
  const { build } = await import(pathToFileURL(join(here, 'build', `${part}.mjs`)).href);
  await build();
  console.log(`built ${part} in ${Date.now() - t0} ms`);
}
