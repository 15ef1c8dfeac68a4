'use strict';
// The n8n test harness: runs real workflows in a real, headless n8n (installed into .cache by
// install.mjs; the version from IGDATA_N8N_VERSION, see versions.cjs). CommonJS on purpose: jest
// (CommonJS under @swc/jest) requires it without ESM flags; ESM scripts and benchmarks import it too.
//
// Each home (its own N8N_USER_FOLDER: database, config, community packages) gets one long-running
// `n8n start` on its own free ports (live.cjs), which runs its workflows and polls (runs.cjs); the
// CLI helpers (cli.cjs) import credentials and serve queue mode. Within a jest run the real-n8n
// suites of one worker share one home and server per version (shared.cjs). Parallel jest workers
// never collide.
// Calls on ONE home must not overlap (SQLite, one writer): await each before the next.
// Spread `require(...)` calls, so Node's CommonJS export detection gives ESM importers named exports.
module.exports = {
  ...require('./env.cjs'),
  ...require('./cli.cjs'),
  ...require('./homes.cjs'),
  ...require('./db.cjs'),
  ...require('./server.cjs'),
  ...require('./polling.cjs'),
  ...require('./queue.cjs'),
  ...require('./live.cjs'),
  ...require('./shared.cjs'),
  // Last: the helpers on a home's live server replace the CLI ones of the same name.
  ...require('./runs.cjs'),
};
