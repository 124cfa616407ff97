/**
 * The suite again with READ_MODEL_DB=postgres (`npm run test:postgres`, CI's second pass): every
 * app a test starts keeps its read models and platform records in a PostgreSQL database of its own
 * (test/helpers/app-database.ts). Left out, each for the reason given: tests about SQLite files
 * themselves, which READ_MODEL_DB does not change and the first pass already ran.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  testPathIgnorePatterns: [
    '/node_modules/',
    // the SQLite event store (the log stays in SQLite on this pass too): the same run as the first pass
    '<rootDir>/src/event-store/sqlite/',
    // read-model generation files: kill -9 during a SQLite build, blue/green file switches, verify's
    // VACUUM INTO snapshot; their PostgreSQL counterparts are postgres-runner / verify-postgres specs
    '<rootDir>/test/read-models/kill-restart.int.spec.ts',
    '<rootDir>/test/read-models/blue-green.int.spec.ts',
  ],
};
