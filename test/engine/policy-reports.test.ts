/**
 * Issue 40 through the real Pulumi CLI: `pulumi preview --json --show-sames` of examples/policy-violations
 * judged by `cloudcost-policies check-preview` — the SARIF valid against the OASIS schema with each finding
 * at the `new …("name"` line of the program, the JUnit report read back by a JUnit parser — and the budget a
 * second preview adds, changes and removes after a real `pulumi up`.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseJunit } from "junit2json";
import type { Verdict } from "@cloudcost/policies";
import "../policies/sarif-matcher";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, EXAMPLES, POLICY_PACK, expectSuccess, useEngineFixture } from "./support";
import { START_TIMEOUT_MS } from "@cloudcost/testkit";

const f = useEngineFixture();
const BIN = join(POLICY_PACK, "bin", "cloudcost-policies.js");

function checkPreview(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [BIN, "check-preview", ...args], { cwd, timeout: START_TIMEOUT_MS }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    ),
  );
}

interface SarifLog {
  runs: {
    results: {
      ruleId: string;
      locations: {
        physicalLocation?: { artifactLocation: { uri: string }; region: { startLine: number } };
        logicalLocations: { fullyQualifiedName: string }[];
      }[];
    }[];
  }[];
}

it("judges examples/policy-violations' preview: SARIF at the program's lines, JUnit a case per resource × policy", async () => {
  const stack = await f.stack(join(EXAMPLES, "policy-violations"), "reports");
  const { code, digest } = await stack.previewJson(["--show-sames"]);
  expect(code).toBe(0);
  writeFileSync(join(stack.cwd, "preview.json"), JSON.stringify(digest));
  const r = await checkPreview(
    stack.cwd,
    "preview.json",
    "--config",
    "policy-config.json",
    "--source",
    ".",
    "--format",
    "json",
    "--format",
    "sarif=cloudcost.sarif",
    "--format",
    "junit=cloudcost.xml",
  );
  expect([r.code, r.stderr]).toEqual([1, ""]);
  const verdict = JSON.parse(r.stdout) as Verdict;
  expect(verdict.violations).toHaveLength(13);

  const sarif = JSON.parse(readFileSync(join(stack.cwd, "cloudcost.sarif"), "utf8")) as SarifLog;
  expect(sarif).toBeValidSarifLog();
  const program = readFileSync(join(stack.cwd, "index.ts"), "utf8").split("\n");
  for (const result of sarif.runs[0]!.results) {
    const { physicalLocation, logicalLocations } = result.locations[0]!;
    const name = logicalLocations[0]!.fullyQualifiedName.replace(/^urn:.*::/, "");
    expect([physicalLocation?.artifactLocation.uri, program[(physicalLocation?.region.startLine ?? 0) - 1]]).toEqual([
      "index.ts",
      expect.stringContaining(`("${name}", {`),
    ]);
  }
  const junit = (await parseJunit(readFileSync(join(stack.cwd, "cloudcost.xml"), "utf8"))) as { tests?: number; failures?: number };
  expect([junit.tests, junit.failures]).toEqual([
    verdict.judged.length,
    new Set(verdict.violations.map((v) => `${v.address} ${v.policy}`)).size,
  ]);
});

it("sums the monthly budget a preview adds, changes and removes after an up", async () => {
  const group = { kind: "CloudGroup", name: "team", inputs: { name: "Team", awsAccountIds: ["111122223333"] } };
  const alert = (name: string, amount: number, period = "monthly") => ({
    kind: "BudgetAlert",
    name,
    groupOf: "team",
    inputs: {
      name,
      amount,
      period,
      recipients: ["team@example.com"],
      thresholds: [
        { percent: 90, basis: "forecast" },
        { percent: 100, basis: "actual" },
      ],
    },
  });
  const stack = await f.stack(DECLARED_PROGRAM, "budget-delta");
  await stack.setConfigObject(DECLARED_RESOURCES, [group, alert("changed", 1000), alert("removed", 6000, "quarterly")]);
  expectSuccess(await stack.up());
  try {
    await stack.setConfigObject(DECLARED_RESOURCES, [group, alert("changed", 1500), alert("added", 3000)]);
    const { code, digest } = await stack.previewJson(["--show-sames"]);
    expect(code).toBe(0);
    writeFileSync(join(stack.cwd, "preview.json"), JSON.stringify(digest));
    const r = await checkPreview(stack.cwd, "preview.json", "--json");
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const { budget } = JSON.parse(r.stdout) as Verdict;
    expect(budget.total).toEqual([{ key: "total", currency: "USD", created: 3000, changed: 500, removed: 2000, net: 1500 }]);
    expect(budget.byAccount).toEqual([{ key: "111122223333", currency: "USD", created: 3000, changed: 500, removed: 2000, net: 1500 }]);
    expect(budget.alerts.map((a) => [a.address.replace(/^urn:.*::/, ""), a.action, a.before, a.after]).sort()).toEqual([
      ["added", "create", undefined, 3000],
      ["changed", "update", 1000, 1500],
      ["removed", "delete", 2000, undefined],
    ]);
    const capped = await checkPreview(stack.cwd, "preview.json", "--config", writeConfig(stack.cwd, 1000));
    expect(capped.code).toBe(1);
    expect(capped.stdout).toContain("this change adds 1,500 USD of monthly budget");
  } finally {
    await stack.destroy();
  }
});

it("the one configuration file serves the pack too: `pulumi preview --policy-pack` accepts `waivable` and the report's cap", async () => {
  const stack = await f.stack(join(EXAMPLES, "policy-violations"), "waivable");
  const base = JSON.parse(readFileSync(join(stack.cwd, "policy-config.json"), "utf8")) as Record<string, unknown>;
  const file = join(stack.cwd, "waivable.json");
  writeFileSync(
    file,
    JSON.stringify({
      ...base,
      "budget-alert-max-amount": { enforcementLevel: "mandatory", waivable: true },
      "budget-increase-cap": { enforcementLevel: "mandatory", maxMonthlyIncrease: { USD: 1000 } },
    }),
  );
  const preview = await stack.run(["preview", "--policy-pack", POLICY_PACK, "--policy-pack-config", file]);
  // The pack judges as before (the waivable policy is mandatory there); nothing refuses the file.
  expect(preview.code).not.toBe(0);
  expect(`${preview.stdout}\n${preview.stderr}`).toContain("[mandatory]  budget-alert-max-amount");
  expect(`${preview.stdout}${preview.stderr}`).not.toMatch(/invalid|not a valid|unknown/i);
});

function writeConfig(dir: string, cap: number): string {
  const file = join(dir, "capped.json");
  writeFileSync(file, JSON.stringify({ "budget-increase-cap": { enforcementLevel: "mandatory", maxMonthlyIncrease: { USD: cap } } }));
  return file;
}
