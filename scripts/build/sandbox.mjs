// The sandbox runs as plain JS (npm run sandbox, npm start, benchmarks): bundle its TypeScript.
import * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function build() {
  await esbuild.build({
    entryPoints: {
      sandbox: join(root, 'scripts/sandbox/cli.ts'),
      'sandbox-lib': join(root, 'scripts/sandbox/server.ts'),
      // The gate and IGDATA_LISTEN for the Sheets preview (plain JS), the same code the sandbox runs.
      border: join(root, 'scripts/lib/border.ts'),
      // The workspace package's own entry, as products import it.
      core: createRequire(import.meta.url).resolve('@igdata/core'),
    },
    outdir: join(root, 'dist'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
}
