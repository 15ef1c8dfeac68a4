/**
 * What `npm run build` made (npm test runs it first). Suites read the built products and never
 * build or delete them: under `jest --maxWorkers=N` another suite may be reading the same files.
 * A suite that needs a build of its own makes it in its own temp directory.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** Throws, naming the command to run, unless every file (relative to the repository) exists. */
export function requireBuilt(...files: string[]): void {
  const missing = files.filter((f) => !existsSync(join(ROOT, f)));
  if (missing.length) throw new Error(`${missing.join(', ')} missing: run \`npm run build\` first (npm test does)`);
}

/** The n8n package's bundles, as n8n loads them (package.json's `n8n` section). */
export const N8N_BUILT = [
  'n8n-node/dist/nodes/IgData/IgData.node.js',
  'n8n-node/dist/nodes/IgData/IgDataTrigger.node.js',
  'n8n-node/dist/credentials/IgDataApi.credentials.js',
];
