/** Whether this run includes the suites that drive the real Pulumi CLI (test/engine) and OpenTofu (test/terraform). */
const ENGINE = process.env.CLOUDCOST_ENGINE === "1";
const TERRAFORM = process.env.CLOUDCOST_TERRAFORM === "1";

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // test/engine drives the real Pulumi CLI, which scripts/pulumi-cli.js builds with Go: its own command and CI
  // cell (`npm run test:engine`), so `npm test` needs nothing but Node.
  // test/terraform drives the real OpenTofu CLI (scripts/opentofu.js builds it with Go): CLOUDCOST_TERRAFORM=1.
  testPathIgnorePatterns: [
    "/node_modules/",
    ...(ENGINE ? [] : ["<rootDir>/test/engine/"]),
    ...(TERRAFORM ? [] : ["<rootDir>/test/terraform/"]),
  ],
  transform: { "^.+\\.(t|j|mj)s$": ["@swc/jest", { jsc: { target: "es2022" }, module: { type: "commonjs" } }] },
  // ESM-only libraries (oauth4webapi, jose) go through the transform too.
  transformIgnorePatterns: ["/node_modules/(?!(oauth4webapi|jose)/)"],
  // A bound against a hang, not a verdict on speed: correctness tests wait on events, and speed belongs to
  // `npm run bench`. One bound for every test and hook, set only here (test/harness-checks/test-bounds.test.ts): a bound
  // a file set itself sat below the steps it waited for, and a loaded machine failed tests that were only slow (issue
  // 39: a flake hunt failed a nine-command engine test at 300 s in all three runs; a cold CI run failed the floor's
  // install hook at 200 s and the policy host's at 60 s while OpenTofu compiled beside them). Each child process a test
  // starts has its own hang guard (testkit's START_TIMEOUT_MS and more), which names what hung; this bound catches the
  // rest. 30 minutes: the longest any suite gave one test.
  testTimeout: 1_800_000,
  // A harness child that dies by a signal nobody sent (SIGABRT, SIGSEGV) fails the test (testkit/src/child-process.ts).
  // With CLOUDCOST_TEST_TIMES set (CI), each file's wall and CPU seconds (test/file-times-reporter.js).
  setupFilesAfterEnv: ["<rootDir>/test/setup/fail-on-signal-deaths.ts", "<rootDir>/test/setup/file-cpu-start.ts"],
  // Native modules that tests install are built for the Node running them (test/setup/native-builds-for-this-node.ts).
  setupFiles: ["<rootDir>/test/setup/native-builds-for-this-node.ts"],
  maxWorkers: 2,
  reporters: ["default", "<rootDir>/test/summary-reporter.js", "<rootDir>/test/file-times-reporter.js"],
};
