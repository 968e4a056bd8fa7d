/** Jest runs TypeScript through SWC; @tabula/* resolve to the libs' sources. */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^@tabula/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts' },
  testMatch: [
    '<rootDir>/libs/*/src/**/*.test.ts',
    '<rootDir>/libs/*/test/**/*.test.ts',
    '<rootDir>/services/*/src/**/*.test.ts',
    '<rootDir>/services/*/test/**/*.test.ts',
    '<rootDir>/scripts/**/*.test.ts',
    '<rootDir>/e2e/**/*.test.ts',
  ],
  // Stryker's sandboxes (npm run test:mutation) hold a copy of the sources
  modulePathIgnorePatterns: ['<rootDir>/.stryker-tmp/'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/.stryker-tmp/'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/libs/testing/skip-reporter.cjs'],
  maxWorkers: process.env.JEST_MAX_WORKERS || 2,
};
