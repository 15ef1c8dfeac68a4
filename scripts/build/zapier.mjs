// Builds the Zapier integration into zapier/dist, a folder Zapier's CLI works in (`zapier
// validate`, `zapier build`, `zapier push`): index.js (one CommonJS bundle, core inside; the
// definition as module.exports, as Zapier loads it), package.json with zapier-platform-core as
// the one dependency, and a node_modules link to the checkout's install of it.
import * as esbuild from 'esbuild';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMain } from '../lib/cli.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = join(root, 'zapier');
const dist = join(pkg, 'dist');

export async function build() {
  rmSync(dist, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: [join(pkg, 'src', 'index.ts')],
    outfile: join(dist, 'index.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['zapier-platform-core'],
    footer: { js: 'module.exports = module.exports.default;' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  const source = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
  const manifest = {
    name: 'igdata-zapier',
    version: source.version,
    description: source.description,
    license: source.license,
    main: 'index.js',
    private: true,
    dependencies: source.dependencies,
  };
  writeFileSync(join(dist, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  // `zapier build` zips only the files it sees required, and misses the .mjs files a dependency of
  // zapier-platform-core loads (async-function's require.mjs): its own test of the zip then fails.
  writeFileSync(
    join(dist, '.zapierapprc'),
    JSON.stringify({ includeInBuild: ['/node_modules/.*\\.mjs$'] }, null, 2) + '\n',
  );
  // Zapier's CLI loads the definition with its zapier-platform-core: the checkout's, one level up.
  mkdirSync(join(dist, 'node_modules'));
  const core = join(root, 'node_modules', 'zapier-platform-core');
  symlinkSync(relative(join(dist, 'node_modules'), core), join(dist, 'node_modules', 'zapier-platform-core'));
}

if (isMain(import.meta.url)) await build();
