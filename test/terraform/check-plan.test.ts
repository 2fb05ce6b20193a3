/**
 * Budget policies before deployment for Terraform users: examples/policy-violations-terraform planned by the real
 * `tofu`, its plan shown as JSON, and `cloudcost-policies check-plan` (the policy pack's own rules) judging it,
 * exactly as the example's README prints the commands.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parse as parseJunit } from "junit2json";
import "../policies/sarif-matcher";
import { join } from "node:path";
import { REPO, organizationIds, useTerraformFixture } from "./support";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

const f = useTerraformFixture();
/** The command `npx cloudcost-policies` runs (policies/package.json `bin`). */
const CHECK_PLAN = join(REPO, "policies", "bin", "cloudcost-policies.js");

/** Each resource of the example and the mandatory policy it breaks (examples/policy-violations/README.md's table). */
const MANDATORY = [
  ["cloudcost_cloud_group.empty", "cloud-group-members"],
  ["cloudcost_cloud_group.unwatched", "cloud-group-budget-coverage"],
  ["cloudcost_budget_alert.org_wide_budget", "budget-alert-group-scope"],
  ["cloudcost_budget_alert.euro_budget", "budget-alert-currency"],
  ["cloudcost_budget_alert.huge_budget", "budget-alert-max-amount"],
  ["cloudcost_budget_alert.huge_budget", "budget-total-cap"],
  ["cloudcost_budget_alert.silent_budget", "budget-alert-recipients"],
  ["cloudcost_budget_alert.late_budget", "budget-alert-thresholds"],
  ["cloudcost_budget_alert.overshoot_budget", "budget-alert-threshold-amounts"],
  ["cloudcost_budget_alert.mistagged_budget", "filter-tag-keys"],
  ["cloudcost_scheduled_report.pdf_report", "scheduled-report-delivery"],
  ["cloudcost_scheduled_report.leaky_report", "scheduled-report-recipients"],
].map(([address, policy]) => `${address} ${policy}`);

it("refuses examples/policy-violations-terraform's plan, naming each resource address and attribute", async () => {
  const dir = f.workspace("examples/policy-violations-terraform");
  const before = await organizationIds(f.api);
  for (const args of [["init"], ["plan", "-out", "plan.out"]]) {
    const r = await f.tofu(dir, args);
    if (r.code !== 0) throw new Error(`tofu ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  }
  const shown = await f.tofu(dir, ["show", "-json", "plan.out"]);
  expect(shown.code).toBe(0);
  writeFileSync(join(dir, "plan.json"), shown.stdout);

  const verdict = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [CHECK_PLAN, "check-plan", "plan.json", "--config", "policy-config.json"],
      { cwd: dir, env: { ...process.env, ...f.env }, timeout: START_TIMEOUT_MS },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
  expect(verdict.code).toBe(1); // a mandatory violation
  // `mandatory: <address>: <attribute>: <message> (<policy>)`, one line each.
  const lines = verdict.stdout.split("\n").map((l) => /^(mandatory|advisory): (\S+): (\S+): .* \(([a-z0-9-]+)\)$/.exec(l));
  const found = lines.filter((m): m is RegExpExecArray => m !== null);
  expect(
    found
      .filter((m) => m[1] === "mandatory")
      .map((m) => `${m[2]} ${m[4]}`)
      .sort(),
  ).toEqual([...MANDATORY].sort());
  for (const m of found) expect(m[3]).toMatch(/^[a-z_]+(\[\d+\])?(\.[a-z_]+(\[\d+\])?)*$/); // an attribute, in HCL's names
  expect(found.map((m) => `${m[1]} ${m[2]} ${m[4]}`)).toContain("advisory cloudcost_cloud_group.overlap cloud-group-exclusive-membership");
  // Issue 40: the same plan as SARIF and JUnit, each finding at its resource block's line of main.tf.
  const reports = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [
        CHECK_PLAN,
        "check-plan",
        "plan.json",
        "--config",
        "policy-config.json",
        "--source",
        ".",
        "--format",
        "sarif=cloudcost.sarif",
        "--format",
        "junit=cloudcost.xml",
      ],
      { cwd: dir, env: { ...process.env, ...f.env }, timeout: START_TIMEOUT_MS },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
  expect([reports.code, reports.stderr]).toEqual([1, ""]);
  const sarif = JSON.parse(readFileSync(join(dir, "cloudcost.sarif"), "utf8")) as {
    runs: {
      results: {
        ruleId: string;
        level: string;
        locations: {
          physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } };
          logicalLocations: { fullyQualifiedName: string }[];
        }[];
      }[];
    }[];
  };
  expect(sarif).toBeValidSarifLog();
  const tf = readFileSync(join(dir, "main.tf"), "utf8").split("\n");
  const results = sarif.runs[0]!.results;
  expect(
    results
      .filter((r) => r.level === "error")
      .map((r) => `${r.locations[0]!.logicalLocations[0]!.fullyQualifiedName} ${r.ruleId}`)
      .sort(),
  ).toEqual([...MANDATORY].sort());
  for (const r of results) {
    const { physicalLocation, logicalLocations } = r.locations[0]!;
    const [type, name] = logicalLocations[0]!.fullyQualifiedName.split(".");
    expect([physicalLocation.artifactLocation.uri, tf[physicalLocation.region.startLine - 1]]).toEqual([
      "main.tf",
      `resource "${type}" "${name}" {`,
    ]);
  }
  const junit = (await parseJunit(readFileSync(join(dir, "cloudcost.xml"), "utf8"))) as { failures?: number };
  expect(junit.failures).toBe(results.length);
  // Judged before deployment: nothing was created.
  expect(await organizationIds(f.api)).toEqual(before);
});
