// One Jest run for unit specs (colocated *.spec.ts) and integration specs (apps/<service>/test).
module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  moduleNameMapper: { '^@teamchat/(.*)$': '<rootDir>/libs/$1/src' },
  testMatch: ['<rootDir>/{apps,libs,tools,deploy}/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
  globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
  // A file's beforeAll starts seven processes; on a busy 2-core machine that alone can take a minute.
  testTimeout: 120000,
  // Two suites at once locally; CI's .ci/run sets TEST_WORKERS=1: on its busy 2-core machine two
  // suites (fourteen service processes) starved each other into time-fragile failures.
  maxWorkers: Number(process.env.TEST_WORKERS) || 2,
  reporters: ['default', '<rootDir>/tools/test/summary-reporter.js'],
};
