#!/usr/bin/env node
// `npm run sandbox`: the local implementation of the whole API (built by `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'sandbox.mjs');
if (!existsSync(built))
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), 'sandbox'], { stdio: 'inherit' });
await import(built);
