// The Apps Script stand-in (scripts/gas-standin/index.ts: runtime.ts and the concurrent pool) for
// plain Node scripts: the Sheets preview and the Sheets benchmark. It is TypeScript, so it is bundled with esbuild on load; written to a
// per-process temp file and renamed, because several processes may load it at once.
import * as esbuild from 'esbuild';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function loadGasRuntime() {
  const cache = join(root, 'node_modules', '.cache', 'igdata-gas-runtime');
  mkdirSync(cache, { recursive: true });
  const file = join(cache, 'gas-runtime.mjs');
  const built = await esbuild.build({
    entryPoints: [join(root, 'scripts/gas-standin/index.ts')],
    external: ['esbuild'], // the pool bundles its worker with it at run time
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    write: false,
  });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, built.outputFiles[0].contents);
  renameSync(tmp, file);
  // runtimeFile: for worker threads that load the same bundle themselves.
  return { ...(await import(pathToFileURL(file).href)), runtimeFile: file };
}
