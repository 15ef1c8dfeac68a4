#!/usr/bin/env node
// Installs what n8n's queue mode needs besides n8n: Debian's redis-server and postgresql
// packages (apt-get, as root; the npm registry has neither). Idempotent: nothing to do when both
// are there. The packages' own services are not used: queue.cjs starts a private Redis and
// Postgres per test on free 127.0.0.1 ports.
//
//   node scripts/n8n-harness/queue-install.mjs [--check]   --check: report only (exit 1 if missing)
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { isMain, parseFlags } from '../lib/cli.mjs';

const require = createRequire(import.meta.url);
const { queueServicesMissing } = require('./queue.cjs');

const log = (s) => process.stderr.write(`[queue-install] ${s}\n`);
const apt = (args) =>
  spawnSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  }).status;

export function installQueueServices() {
  let missing = queueServicesMissing();
  if (!missing.length) return;
  if (process.platform !== 'linux' || spawnSync('sh', ['-c', 'command -v apt-get']).status !== 0) {
    throw new Error(`queue mode needs ${missing.join(' and ')}; no apt-get here: install them yourself`);
  }
  if (process.getuid?.() !== 0)
    throw new Error(`queue mode needs ${missing.join(' and ')}: run as root (apt-get) or install them yourself`);
  const t0 = Date.now();
  log(`apt-get install ${missing.join(' ')} ...`);
  if (apt(['update', '-q']) !== 0) throw new Error('apt-get update failed');
  const packages = missing.map((m) => (m === 'redis-server' ? 'redis-server' : 'postgresql'));
  for (let attempt = 1; ; attempt++) {
    // policy-rc.d-less containers: the packages' init scripts may try to start the services; the
    // tests never use them. Another apt run may hold the lock: retry a few times.
    if (apt(['install', '-y', '-q', '--no-install-recommends', ...packages]) === 0) break;
    if (attempt === 5) throw new Error(`apt-get install ${packages.join(' ')} failed`);
    log(`apt-get install failed (attempt ${attempt}/5); retrying in 10 s`);
    spawnSync('sleep', ['10']);
  }
  missing = queueServicesMissing();
  if (missing.length) throw new Error(`apt-get finished but ${missing.join(' and ')} is still missing`);
  log(`installed in ${Math.round((Date.now() - t0) / 1000)} s`);
}

if (isMain(import.meta.url)) {
  const { values } = parseFlags({
    options: { check: { type: 'boolean' } },
    usage: 'usage: node scripts/n8n-harness/queue-install.mjs [--check]',
  });
  const missing = queueServicesMissing();
  if (values.check) {
    log(missing.length ? `missing: ${missing.join(', ')}` : 'redis-server and postgresql present');
    process.exit(missing.length ? 1 : 0);
  }
  try {
    installQueueServices();
    log('redis-server and postgresql present');
  } catch (e) {
    log(`ERROR: ${e.message}`);
    process.exit(1);
  }
}
