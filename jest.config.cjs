/** One jest run for every package: unit tests live beside the code, cross-package tests in test/. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/core', '<rootDir>/sheets-addon', '<rootDir>/n8n-node', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: { module: 'commonjs', target: 'ES2022', esModuleInterop: true, allowJs: true, isolatedModules: true } }],
  },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
  testTimeout: 60000,
};
