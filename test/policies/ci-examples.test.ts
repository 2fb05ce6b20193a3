/**
 * Issue 40: the CI examples in examples/ci/ — a GitHub Actions workflow and a GitLab CI job for each door
 * (check-plan, check-preview) — are checked as their CI would read them: the workflows with actionlint (run
 * from its Go module through the Go toolchain, pinned), the GitLab jobs against GitLab's own JSON schema
 * (fixtures/gitlab-ci-schema, vendored from check-jsonschema), and every one runs the command with the
 * formats it uploads.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import { POLICY_PACK_DIR, START_TIMEOUT_MS } from "@cloudcost/testkit";

const run = promisify(execFile);
const REPO = join(POLICY_PACK_DIR, "..");
const CI = join(REPO, "examples", "ci");
const ACTIONLINT = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12";
const DOORS = [
  ["terraform", "check-plan"],
  ["pulumi", "check-preview"],
] as const;

it("the GitHub Actions workflows pass actionlint", async () => {
  const files = DOORS.map(([door]) => join(CI, `github-actions-${door}.yml`));
  // Exit 0 and nothing printed: no finding. (A finding exits 1, and execFile rejects with its output.)
  const { stdout } = await run("go", ["run", ACTIONLINT, "-no-color", ...files], { cwd: REPO, timeout: 3 * START_TIMEOUT_MS });
  expect(stdout).toBe("");
});

it("the GitLab CI jobs are valid against GitLab's CI schema", () => {
  const schema = JSON.parse(readFileSync(join(__dirname, "fixtures", "gitlab-ci-schema", "gitlab-ci.json"), "utf8")) as object;
  const validate = addFormats(new Ajv({ strict: false, allErrors: true })).compile(schema);
  for (const [door] of DOORS) {
    const config = parse(readFileSync(join(CI, `gitlab-ci-${door}.yml`), "utf8")) as unknown;
    expect({ door, valid: validate(config), errors: validate.errors ?? [] }).toEqual({ door, valid: true, errors: [] });
  }
  // The schema refuses what GitLab refuses: the check can fail.
  expect(validate({ job: { script: 42, artifacts: { reports: { junit: { no: "such" } } } } })).toBe(false);
});

it.each(DOORS)("the %s examples run %s and upload its SARIF and JUnit reports", (door, command) => {
  for (const file of [`github-actions-${door}.yml`, `gitlab-ci-${door}.yml`]) {
    const text = readFileSync(join(CI, file), "utf8");
    expect(text).toContain(`cloudcost-policies ${command} `);
    expect(text).toMatch(/--format sarif=\S+\.sarif/);
    expect(text).toMatch(/--format junit=\S+\.xml/);
    expect(text).toContain("--waivers ");
  }
  expect(readFileSync(join(CI, `github-actions-${door}.yml`), "utf8")).toContain("upload-sarif");
  expect(readFileSync(join(CI, `gitlab-ci-${door}.yml`), "utf8")).toMatch(/reports:\s+junit: cloudcost-junit\.xml/);
});
