// Installs a generated package.json's dependencies into a folder of .cache, once: a marker
// records what was installed, so a second call costs a stat and a changed manifest reinstalls.
// Two processes (jest workers, two checkouts sharing .cache) may call it at once: a lock
// directory (mkdir is atomic) makes the second wait for the first instead of installing over it.
// npm registry only, always with --ignore-scripts (install scripts that download binaries from
// elsewhere cannot work here); a step that must compile something runs in `after`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CACHE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '.cache');

export const NPM_ARGS = [
  'install',
  '--no-audit',
  '--no-fund',
  '--ignore-scripts',
  '--no-package-lock',
  '--loglevel=error',
];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The part of a manifest that decides what gets installed (descriptions may change freely). */
const identity = (manifest, npmArgs) =>
  JSON.stringify({ dependencies: manifest.dependencies, overrides: manifest.overrides ?? null, npmArgs });

function isInstalled(dir, manifest, { npmArgs = NPM_ARGS, files = [] } = {}) {
  const marker = join(dir, '.installed.json');
  if (!existsSync(marker) || files.some((f) => !existsSync(join(dir, f)))) return false;
  try {
    const m = JSON.parse(readFileSync(marker, 'utf8'));
    return identity(m.manifest ?? {}, m.npmArgs) === identity(manifest, npmArgs);
  } catch {
    return false;
  }
}

/** Runs npm in `dir` (never climbing into the monorepo's workspaces); throws on failure. */
export function npmIn(dir, args, { env = {}, what = `npm ${args[0]}` } = {}) {
  const r = spawnSync(npm, args, {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_workspaces: 'false', npm_config_update_notifier: 'false', ...env },
  });
  if (r.error || r.status !== 0)
    throw new Error(`${what} failed (exit ${r.status ?? r.error?.message}) in ${dir}; see npm output above`);
}

/** The pid that holds `lock`, or undefined when it wrote none (an older checkout's lock). */
function holderOf(lock) {
  try {
    return Number(readFileSync(join(lock, 'pid'), 'utf8')) || undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * A lock is stale when its holder is gone, never because it is old: an install of n8n took 29 min
 * on a loaded machine, and a waiter that broke its 20-minute-old lock compiled sqlite3 into the same
 * folder at the same time (both builds failed). A lock without a pid falls back to its age.
 */
function isStale(lock) {
  const pid = holderOf(lock);
  if (pid !== undefined) return !isAlive(pid);
  return Date.now() - statSync(lock).mtimeMs > 60 * 60_000;
}

function withLock(dir, fn, log) {
  mkdirSync(dir, { recursive: true });
  const lock = join(dir, '.install.lock');
  const deadline = Date.now() + 60 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (isStale(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      else {
        log('another install is running; waiting...');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);
      }
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Makes `dir` hold `manifest`'s dependencies. `files` (relative to dir) must exist after the
 * install (their absence also means "not installed"); `after({ log })` runs after npm and before the
 * marker is written (e.g. compiling a native module); `env` goes to npm. Returns
 * { installed: boolean, seconds }.
 */
export function installInto(
  dir,
  manifest,
  {
    npmArgs = NPM_ARGS,
    files = [],
    env = {},
    after,
    force = false,
    label = dir,
    log = (s) => process.stderr.write(`[install] ${s}\n`),
  } = {},
) {
  if (!force && isInstalled(dir, manifest, { npmArgs, files })) return { installed: false, seconds: 0 };
  return withLock(
    dir,
    () => {
      if (!force && isInstalled(dir, manifest, { npmArgs, files })) return { installed: false, seconds: 0 }; // the install we waited for did it
      const t0 = Date.now();
      rmSync(join(dir, '.installed.json'), { force: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
      log(`npm install into ${label} ...`);
      npmIn(dir, npmArgs, { env, what: `npm install in ${label}` });
      const npmSeconds = (Date.now() - t0) / 1000;
      after?.({ log });
      const missing = files.filter((f) => !existsSync(join(dir, f)));
      if (missing.length) throw new Error(`install of ${label} finished but ${missing.join(', ')} is missing`);
      const seconds = Number(((Date.now() - t0) / 1000).toFixed(1));
      writeFileSync(
        join(dir, '.installed.json'),
        JSON.stringify({ manifest, npmArgs, installedAt: new Date().toISOString(), npmSeconds, seconds }, null, 2) +
          '\n',
      );
      log(`${label} ready in ${seconds}s`);
      return { installed: true, seconds };
    },
    log,
  );
}
