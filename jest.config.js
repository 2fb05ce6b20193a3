/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.(t|j|mj)s$": ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs" } }] },
  // ESM-only libraries (oauth4webapi, jose) go through the transform too.
  transformIgnorePatterns: ["/node_modules/(?!(oauth4webapi|jose)/)"],
  testTimeout: 60_000,
  // A harness child that dies by a signal nobody sent (SIGABRT, SIGSEGV) fails the test (testkit/src/child-process.ts).
  setupFilesAfterEnv: ["<rootDir>/test/setup/fail-on-signal-deaths.ts"],
  maxWorkers: 2,
  reporters: ["default", "<rootDir>/test/summary-reporter.js"],
};
