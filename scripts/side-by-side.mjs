#!/usr/bin/env node
// Two shell commands at once, for `npm test`: the checks that read the source only (type checks,
// lint, knip, dependency-cruiser: under a minute) beside the gates, the installs into .cache
// (`npm run setup:test`: minutes cold, seconds warm) and jest, instead of one after the other.
// The first command's output is held and printed when both are done, so the two never interleave;
// the exit code is the first failure's.
//   node scripts/side-by-side.mjs "<background command>" "<foreground command>"
import { spawn } from 'node:child_process';

const [background, foreground] = process.argv.slice(2);
if (!background || !foreground || process.argv.length !== 4) {
  console.error('usage: node scripts/side-by-side.mjs "<background command>" "<foreground command>"');
  process.exit(2);
}

const run = (cmd, held) =>
  new Promise((resolve) => {
    const child = spawn(cmd, { shell: true, stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (held) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('error', (e) => resolve({ code: 1, out: `${out}\n${e.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });

const t0 = performance.now();
const bg = run(background, true);
const fg = await run(foreground, false);
const b = await bg;
process.stdout.write(
  `\n[side-by-side] ${background} (ran while the above ran; ${Math.round((performance.now() - t0) / 1000)} s in all):\n${b.out}`,
);
if (b.code !== 0) console.error(`[side-by-side] ${background} failed (exit ${b.code})`);
process.exit(fg.code || b.code);
