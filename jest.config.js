/** Jest runs TypeScript through @swc/jest, with the same settings as the build (.swcrc). */
const fs = require('node:fs');
const swc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
delete swc.$schema;

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/projections', '<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { ...swc, swcrc: false }] },
  // NestJS 12 ships ES modules; let swc compile them to CommonJS for Jest's loader.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|uid|load-esm|file-type)/)'],
  // generous: a bound only a slow, shared CI machine crosses is a flaky test (test/support/patience.ts)
  testTimeout: 120_000,
};
