// Where Zapier's CLI lives in .cache and the Node that runs it: read by the installer and by the
// tests that run `zapier validate` and `zapier build` (test/zapier/cli.test.ts).
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { CACHE_DIR } from '../cache-install.mjs';

const require = createRequire(import.meta.url);
const { runtimeFor, NEWEST } = require('../n8n-harness/versions.cjs');

/** The CLI's version: the same as the integration's zapier-platform-core (zapier/package.json). */
export const ZAPIER_CLI = '19.1.0';

export function zapierCli() {
  // zapier-platform-cli needs Node >= 22: the Node the newest n8n runs on (one Node 24 in .cache).
  const node = runtimeFor(NEWEST);
  const dir = `zapier-cli-${ZAPIER_CLI}`;
  const binRelative = join('node_modules', 'zapier-platform-cli', 'src', 'bin', 'run');
  return {
    dir,
    home: join(CACHE_DIR, dir),
    binRelative,
    bin: join(CACHE_DIR, dir, binRelative),
    nodeVersion: node.nodeVersion,
    nodeBin: node.nodeBin,
    pathEnv: `${join(node.nodeDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
  };
}
