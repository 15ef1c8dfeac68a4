// Builds the n8n community package into n8n-node/dist: one CommonJS bundle per node and
// credential (the core is bundled in, n8n-workflow stays external as the peer dependency n8n
// provides), plus the icons and codex files n8n looks for beside each bundle.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain } from '../lib/cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = join(root, 'n8n-node');
const dist = join(pkg, 'dist');

const ENTRIES = {
  'credentials/IgDataApi.credentials': 'credentials/IgDataApi.credentials.ts',
  'nodes/IgData/IgData.node': 'nodes/IgData/IgData.node.ts',
  'nodes/IgData/IgDataTrigger.node': 'nodes/IgData/IgDataTrigger.node.ts',
};
const ASSETS = [
  'nodes/IgData/igdata.svg',
  'nodes/IgData/igdata.dark.svg',
  'credentials/igdata.dark.svg',
  'nodes/IgData/IgData.node.json',
  'nodes/IgData/IgDataTrigger.node.json',
  'credentials/igdata.svg',
];

export async function build() {
  rmSync(dist, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([out, src]) => [out, join(pkg, src)])),
    outdir: dist,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['n8n-workflow'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const asset of ASSETS) {
    mkdirSync(dirname(join(dist, asset)), { recursive: true });
    copyFileSync(join(pkg, asset), join(dist, asset));
  }
}

if (isMain(import.meta.url)) await build();
