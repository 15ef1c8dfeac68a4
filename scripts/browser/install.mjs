#!/usr/bin/env node
// Installs Debian's Chromium for the sidebar tests (headless, driven by playwright-core).
//
// Idempotent: does nothing when the browser is already there. Never downloads a browser build
// of its own (`npx playwright install` cannot work on these machines): the only source is apt.
//
// Usage: node scripts/browser/install.mjs [--check]
//   --check  only report whether Chromium is present (exit 0 if so, 1 if not); install nothing.
// Env: CHROMIUM_PATH overrides the executable to look for (default /usr/bin/chromium).

import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { parseFlags } from '../lib/cli.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function run(cmd, args, opts = {}) {
  const started = Date.now();
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    ...opts,
  });
  return { status: r.status ?? 1, error: r.error, ms: Date.now() - started };
}

function version(path) {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function fail(message) {
  console.error(`[browser] FAILED: ${message}`);
  console.error("[browser] The sidebar tests need Debian's chromium package (apt-get install -y chromium).");
  process.exit(1);
}

function main() {
  const { values } = parseFlags({
    options: { check: { type: 'boolean' } },
    usage: 'usage: node scripts/browser/install.mjs [--check]',
  });
  const checkOnly = values.check;
  if (existsSync(CHROMIUM_PATH)) {
    console.log(`[browser] ${CHROMIUM_PATH} present: ${version(CHROMIUM_PATH) ?? '(version unknown)'}`);
    return;
  }
  if (checkOnly) {
    console.log(`[browser] ${CHROMIUM_PATH} missing`);
    process.exit(1);
  }
  if (process.platform !== 'linux')
    fail(`not Linux (${process.platform}); install Chromium yourself and set CHROMIUM_PATH.`);
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    fail(
      'not running as root, so apt-get cannot install; run as root or install chromium yourself and set CHROMIUM_PATH.',
    );
  }
  const aptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' });
  if (aptGet.status !== 0) fail('apt-get not found (not a Debian-like system).');

  console.log('[browser] installing chromium with apt-get (this takes a minute or two)...');
  const update = run('apt-get', ['update', '-q']);
  if (update.status !== 0)
    fail(`apt-get update exited with ${update.status}${update.error ? ` (${update.error.message})` : ''}.`);
  // apt's lock may be held by another install running at the same time: retry a few times.
  let install;
  for (let attempt = 1; attempt <= 5; attempt++) {
    install = run('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'chromium', 'fonts-liberation']);
    if (install.status === 0) break;
    console.error(`[browser] apt-get install exited with ${install.status} (attempt ${attempt}/5); retrying in 10 s`);
    spawnSync('sleep', ['10']);
  }
  if (install.status !== 0) fail(`apt-get install -y chromium exited with ${install.status}.`);
  if (!existsSync(CHROMIUM_PATH)) fail(`apt-get finished but ${CHROMIUM_PATH} is still missing.`);
  console.log(
    `[browser] installed in ${Math.round(install.ms / 1000)} s: ${version(CHROMIUM_PATH) ?? '(version unknown)'}`,
  );
}

main();
