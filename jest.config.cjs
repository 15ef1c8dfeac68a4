/**
 * One jest run for every package: unit tests live beside the code, cross-package tests in test/.
 * Three projects, each suite in exactly one of the first two:
 * - quick: the suites that run on the source alone (nothing built, nothing installed by
 *   `npm run setup:test`): `npm run test:quick`, the inner loop, within 30 s on 2 cores (CONTRIBUTING.md);
 * - built: every other suite, on the built products (`npm run build`, which `npm test` runs first)
 *   and what setup:test installs (n8n 2.8.4 on Node 20, Chromium, Redis, Postgres);
 * - n8n-newest: the real-n8n suites again on the newest n8n we support (2.41.1 on Node 24;
 *   scripts/n8n-harness/versions.cjs).
 * No suite builds or deletes a shared build output: they read what `npm run build` made, and what
 * one must pack or build of its own goes to its own temp directory, so suites can run in parallel
 * (maxWorkers below).
 */
// Every clock a test starts (the stand-in's, the Sheets preview's, the sandbox's) must be told the
// instant it starts at: with this set, one that would start at the real time throws instead
// (scripts/lib/clock-start.ts). Set here, in jest's own process, so its workers and every server a
// suite starts inherit it.
process.env.IGDATA_NAMED_CLOCKS = '1';

const base = {
  testEnvironment: 'node',
  roots: ['<rootDir>/core', '<rootDir>/sheets-addon', '<rootDir>/n8n-node', '<rootDir>/zapier', '<rootDir>/test'],
  // zapier/dist holds a package.json of its own (the folder Zapier's CLI works in)
  modulePathIgnorePatterns: ['<rootDir>/zapier/dist/package.json'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // TypeScript to CommonJS file by file with swc, no type check (`npm run typecheck` does that): as
  // ts-jest did with isolatedModules, at a fraction of the CPU when jest's cache is cold (a fresh
  // checkout, CI) and without loading the TypeScript compiler in every worker. The settings are
  // tsconfig.json's: ES2022, class fields assigned in the constructor (useDefineForClassFields
  // false), CommonJS with the esModuleInterop helpers (swc's default interop).
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        swcrc: false,
        jsc: {
          parser: { syntax: 'typescript' },
          target: 'es2022',
          transform: { useDefineForClassFields: false },
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};

// The quick tier, the one list of it: suites that import source only and run in jest's process
// (a few start a devDependency's CLI as a child: the OpenAPI validator, the MCP Inspector,
// dependency-cruiser). None reads dist/, sheets-addon/dist or n8n-node/dist, starts the built
// sandbox, a real n8n or Chromium. Folders hold only such suites; elsewhere name the file. A suite
// not listed here runs in `built`: the safe default. CI runs this tier on a fresh checkout before
// anything is built, so a suite listed here that needs a build fails there.
const QUICK = [
  'core/test/',
  'sheets-addon/test/',
  'test/gas-standin/',
  'test/sandbox/conformance.test.ts',
  'test/sandbox/errors.test.ts',
  'test/sandbox/mcp.test.ts',
  'test/sandbox/mcp-inspector.test.ts',
  'test/sandbox/media.test.ts',
  'test/sandbox/moving-world.test.ts',
  'test/sandbox/openapi.test.ts',
  'test/sandbox/paging.test.ts',
  'test/sandbox/steps.test.ts',
  'test/n8n-node/engine.test.ts',
  'test/n8n-node/engine-stop.test.ts',
  'test/n8n-node/pace.test.ts',
  'test/n8n-node/execute.test.ts',
  'test/n8n-node/execute-items.test.ts',
  'test/n8n-node/execute-tool.test.ts',
  'test/n8n-node/media.test.ts',
  'test/n8n-node/media-addresses.test.ts',
  'test/n8n-node/parameters.test.ts',
  'test/n8n-node/poll.test.ts',
  'test/n8n-node/change-trigger.test.ts',
  'test/fuzz/n8n-fields.test.ts',
  'test/sheets/preview-chart.test.ts',
  'test/sheets/preview-column-chart.test.ts',
  'test/layers.test.ts',
  'test/file-size.test.ts',
  'test/marketplace.test.ts',
  'test/clocks.test.ts',
  'test/figures.test.ts',
  'test/cli.test.ts',
  'test/ci.test.ts',
  'test/words.test.ts',
];
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A QUICK entry as a regular expression on absolute paths (testPathIgnorePatterns). */
const asPattern = (p) => `^${escape(`${__dirname}/${p}`)}${p.endsWith('/') ? '' : '$'}`;
/** ... and as a glob (testMatch). */
const asGlob = (p) => `<rootDir>/${p}${p.endsWith('/') ? '**/*.test.ts' : ''}`;

// The suites that run inside a real n8n, on every supported version. (The `npm start` editor
// suite runs on the default version only: that is the n8n `npm start` starts.)
const REAL_N8N = [
  'harness',
  'n8n-real',
  'n8n-stops',
  'n8n-rate-limit',
  'trigger-modes',
  'n8n-media',
  'n8n-borders',
  'n8n-tools',
  'n8n-examples',
  'n8n-example-benchmark',
  'n8n-agent',
  'n8n-rules',
  'n8n-account-changed',
].map((name) => `<rootDir>/test/n8n-node/${name}.test.ts`);
// Queue mode (Redis, Postgres, main + workers) runs on the newest version, the one users scale.
const NEWEST_ONLY = [
  '<rootDir>/test/n8n-node/queue-mode.test.ts',
  '<rootDir>/test/n8n-node/queue-mode-trigger.test.ts',
  '<rootDir>/test/n8n-node/queue-mode-kill.test.ts',
];

module.exports = {
  testTimeout: 60000,
  // Two workers at least (jest's default is one fewer than the cores: one on the 2-core machine):
  // much of a real-n8n or Chromium suite is waiting on another process, which the other worker
  // fills. At most four: each worker keeps one n8n per version up (scripts/n8n-harness/shared.cjs).
  maxWorkers: Math.min(4, Math.max(2, require('node:os').availableParallelism())),
  // One n8n per worker and version for the whole run, shared by the real-n8n suites (issue 31).
  globalSetup: '<rootDir>/scripts/jest/n8n-run-open.cjs',
  globalTeardown: '<rootDir>/scripts/jest/n8n-run-close.cjs',
  // Every suite's time at the end of a run, slowest first (what `npm run bench:test-run` records).
  reporters: ['default', '<rootDir>/scripts/jest/suite-times.cjs'],
  projects: [
    { ...base, displayName: 'quick', testMatch: QUICK.map(asGlob) },
    {
      ...base,
      displayName: 'built',
      testPathIgnorePatterns: [
        ...base.testPathIgnorePatterns,
        ...QUICK.map(asPattern),
        ...NEWEST_ONLY.map((p) => asPattern(p.replace('<rootDir>/', ''))),
      ],
    },
    {
      ...base,
      displayName: 'n8n-newest',
      testMatch: [...REAL_N8N, ...NEWEST_ONLY],
      setupFiles: ['<rootDir>/test/support/n8n-newest.cjs'],
    },
  ],
};
