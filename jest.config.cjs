/**
 * One jest run for every package: unit tests live beside the code, cross-package tests in test/.
 * Two projects: everything once (the real-n8n suites on n8n 2.8.4, Node 20), and the real-n8n
 * suites again on the newest n8n we support (2.41.1 on Node 24; scripts/n8n-harness/versions.cjs).
 */
const base = {
  testEnvironment: 'node',
  roots: ['<rootDir>/core', '<rootDir>/sheets-addon', '<rootDir>/n8n-node', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: { module: 'commonjs', target: 'ES2022', esModuleInterop: true, allowJs: true, isolatedModules: true } }],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};

// The suites that run inside a real n8n, on every supported version. (The `npm start` editor
// suite runs on the default version only: that is the n8n `npm start` starts.)
const REAL_N8N = ['harness', 'n8n-real', 'trigger-modes'].map((name) => `<rootDir>/test/n8n-node/${name}.test.ts`);
// Queue mode (Redis, Postgres, main + workers) runs on the newest version, the one users scale.
const NEWEST_ONLY = ['<rootDir>/test/n8n-node/queue-mode.test.ts'];

module.exports = {
  testTimeout: 60000,
  projects: [
    { ...base, displayName: 'all', testPathIgnorePatterns: [...base.testPathIgnorePatterns, ...NEWEST_ONLY.map((p) => p.replace('<rootDir>', ''))] },
    { ...base, displayName: 'n8n-newest', testMatch: [...REAL_N8N, ...NEWEST_ONLY], setupFiles: ['<rootDir>/test/support/n8n-newest.cjs'] },
  ],
};
