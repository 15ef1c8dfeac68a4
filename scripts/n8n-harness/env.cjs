'use strict';
// The ground the harness stands on: which n8n this process tests (versions.cjs, chosen by
// IGDATA_N8N_VERSION), installing it on first use, free ports, and the environment every n8n
// process gets (isolated, quiet, offline).
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');
const { runtimeFor } = require('./versions.cjs');

const INSTALLER = path.join(__dirname, 'install.mjs');
// Fixed so a home's credentials stay readable by every run; test data only, not a secret.
const DEFAULT_ENCRYPTION_KEY = 'igdata-tests-fixed-key-not-a-secret';

/** The n8n version this process runs (paths, node binary): IGDATA_N8N_VERSION or the default. */
const runtime = () => runtimeFor();

const ensured = new Map();
/** Installs this process's n8n if needed (once per process and version); resolves to its bin. */
function ensureN8n({ quiet = false } = {}) {
  const rt = runtime();
  if (!ensured.has(rt.version)) {
    ensured.set(
      rt.version,
      new Promise((resolve, reject) => {
        // A child process: install.mjs is ESM (jest cannot require it) and npm output stays out of ours.
        const child = spawn(process.execPath, [INSTALLER, rt.version], {
          stdio: ['ignore', quiet ? 'ignore' : 'inherit', quiet ? 'ignore' : 'inherit'],
        });
        child.on('error', reject);
        child.on('exit', (code) =>
          code === 0
            ? resolve(rt.n8nBin)
            : reject(
                new Error(
                  `n8n ${rt.version} install failed (exit ${code}); run: node scripts/n8n-harness/install.mjs ${rt.version}`,
                ),
              ),
        );
      }),
    );
  }
  return ensured.get(rt.version);
}

/** A port that was free a moment ago on 127.0.0.1 (callers retry if n8n still finds it taken). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The environment every n8n process gets: isolated, quiet, offline. */
function baseEnv(home, encryptionKey = DEFAULT_ENCRYPTION_KEY) {
  return {
    // The version's node first: n8n's task runner is started as `node` from PATH.
    PATH: runtime().pathEnv,
    N8N_USER_FOLDER: home, // n8n keeps everything in <home>/.n8n
    N8N_ENCRYPTION_KEY: encryptionKey,
    // jest sets NODE_ENV=test, and n8n then refuses to load nodes ("Not available in tests").
    NODE_ENV: 'production',
    // Nothing may try the network (CI has none): telemetry, version checks, banners,
    // templates, the community-node catalogue, license renewal, AI assistant.
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
    N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
    N8N_DYNAMIC_BANNERS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_VERIFIED_PACKAGES_ENABLED: 'false',
    N8N_REINSTALL_MISSING_PACKAGES: 'false',
    N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
    N8N_AI_ENABLED: 'false',
    EXTERNAL_FRONTEND_HOOKS_URLS: '',
    N8N_SENTRY_DSN: '',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    // `execute --rawOutput` prints its JSON through logger.info: below "info" it prints nothing.
    N8N_LOG_LEVEL: 'info',
    N8N_LOG_OUTPUT: 'console',
    NO_COLOR: '1',
    GENERIC_TIMEZONE: 'UTC',
    TZ: 'UTC',
    N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    ...runtime().env,
  };
}

/**
 * A test run's folder (jest's global setup makes it, its teardown removes it): the homes in it are
 * shared by the suites one jest worker runs, one per worker and n8n version (shared.cjs). Unset
 * outside jest (benches, `npm start`): every home is then its own.
 */
const runDir = () => process.env.IGDATA_N8N_RUN_DIR || undefined;
/** Whether a home is one of this run's shared homes. */
const isShared = (home) => {
  const dir = runDir();
  return Boolean(dir) && unwrapHome(home).home.startsWith(dir + path.sep);
};

/** Helpers take a home as a path or as { home, env } (what createN8nHome returns). */
function unwrapHome(home) {
  return typeof home === 'string' ? { home, env: {} } : { home: home.home, env: home.env ?? {} };
}

/** Generates an n8n-style id (workflow ids must be 1-21 chars for static data to be saved). */
function newId(prefix = '') {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = prefix;
  while (s.length < 16) s += abc[Math.floor(Math.random() * abc.length)];
  return s;
}

module.exports = { DEFAULT_ENCRYPTION_KEY, runtime, ensureN8n, freePort, baseEnv, unwrapHome, newId, runDir, isShared };
