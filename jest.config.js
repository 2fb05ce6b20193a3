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
  // `npm run bench`. Generous, so a machine under load is slow, not failing. A test or hook of the suites that drive
  // the real CLIs (test/engine, test/terraform) runs many commands, each with a hang guard of its own (300 s a
  // `pulumi` command, testkit): its bound is 30 minutes, the longest these suites gave one, and set only here. (Issue
  // 39's flake hunt failed a nine-command test at 300 s, a two-stack scenario at 600 s and a hook at 900 s, each in all
  // three runs: slow, not hung.)
  testTimeout: ENGINE || TERRAFORM ? 1_800_000 : 300_000,
  // A harness child that dies by a signal nobody sent (SIGABRT, SIGSEGV) fails the test (testkit/src/child-process.ts).
  // With CLOUDCOST_TEST_TIMES set (CI), each file's wall and CPU seconds (test/file-times-reporter.js).
  setupFilesAfterEnv: ["<rootDir>/test/setup/fail-on-signal-deaths.ts", "<rootDir>/test/setup/file-cpu-start.ts"],
  // Native modules that tests install are built for the Node running them (test/setup/native-builds-for-this-node.ts).
  setupFiles: ["<rootDir>/test/setup/native-builds-for-this-node.ts"],
  maxWorkers: 2,
  reporters: ["default", "<rootDir>/test/summary-reporter.js", "<rootDir>/test/file-times-reporter.js"],
};
