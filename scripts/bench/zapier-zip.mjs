#!/usr/bin/env node
// `npm run bench:zapier-zip`: the size of the build.zip `zapier build` makes from the built
// integration (what `zapier push` uploads: zapier/dist/index.js with zapier-platform-core and its
// dependencies), recorded in bench/records/zapier.json. `zapier build` runs in a temp copy of
// zapier/dist, as zapier/test/cli.test.ts runs it; its style check, which asks Zapier's servers,
// goes to a local stand-in that reports no finding; its dependency install goes to the npm
// registry. A minute or so: run it after a change that moves the bundle or the dependency, then
// `npm run docs`.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load1, saveRecords } from './records.mjs';
import { parseFlags } from '../lib/cli.mjs';
import { installZapierCli } from '../zapier-cli/install.mjs';
import { ZAPIER_CLI } from '../zapier-cli/where.mjs';

parseFlags({ usage: 'usage: npm run bench:zapier-zip (after npm run build)' });

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'zapier', 'dist');
if (!existsSync(join(dist, 'index.js'))) {
  console.error('Build first: npm run build');
  process.exit(1);
}
const cli = installZapierCli();
const loadBefore = load1();
const work = mkdtempSync(join(os.tmpdir(), 'igdata-zapier-zip-'));
const styleCheck = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ errors: { total_failures: 0, results: {} }, warnings: { total_failures: 0, results: {} } }));
});
try {
  for (const f of ['index.js', 'package.json', '.zapierapprc']) cpSync(join(dist, f), join(work, f));
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(join(root, 'node_modules', 'zapier-platform-core'), join(work, 'node_modules', 'zapier-platform-core'));
  await new Promise((resolve) => styleCheck.listen(0, '127.0.0.1', resolve));
  // Not spawnSync: the style-check stand-in answers from this process.
  const child = spawn(cli.nodeBin, [cli.bin, 'build'], {
    cwd: work,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: cli.pathEnv,
      HOME: work,
      ZAPIER_BASE_ENDPOINT: `http://127.0.0.1:${styleCheck.address().port}`,
    },
  });
  const status = await new Promise((resolve) => child.on('close', resolve));
  const zip = join(work, 'build', 'build.zip');
  if (status !== 0 || !existsSync(zip)) throw new Error(`zapier build failed (exit ${status})`);
  const bytes = statSync(zip).size;
  console.log(
    `build.zip: ${bytes} bytes (${(bytes / 1024).toFixed(0)} KB); build/ holds ${readdirSync(join(work, 'build')).join(', ')}`,
  );
  saveRecords(
    'zapier',
    {
      'zapier.build-zip.bytes': { value: bytes, unit: 'bytes', what: "`zapier build`'s build.zip" },
      'zapier.build-zip.kb': {
        value: Math.round(bytes / 1024),
        unit: 'KB',
        decimals: 0,
        what: 'the same in KB (1,024 bytes)',
      },
    },
    `zapier build (zapier-platform-cli ${ZAPIER_CLI} on Node ${cli.nodeVersion}) in a temp copy of the built zapier/dist, its style check answered by a local stand-in, its dependency install from the npm registry; load average ${loadBefore} at the start, ${load1()} at the end`,
  );
} finally {
  styleCheck.close();
  rmSync(work, { recursive: true, force: true });
}
