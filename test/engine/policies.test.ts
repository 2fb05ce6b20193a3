/**
 * The policy pack judged through the real CLI: `pulumi up --policy-pack policies --policy-pack-config FILE`
 * with mandatory and advisory levels, a mandatory violation that stops the update before anything is
 * created, the stack policies on a second `up` (which sees the stored outputs of unchanged resources), and
 * remediation changing what is created.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PulumiStack } from "@cloudcost/testkit";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, POLICY_PACK, TYPES, expectSuccess, organizationIds, useEngineFixture } from "./support";

const f = useEngineFixture();
let configDir: string;
beforeAll(() => {
  configDir = mkdtempSync(join(tmpdir(), "cloudcost-policy-config-"));
});
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

let serial = 0;
async function stackOf(resources: unknown[]): Promise<PulumiStack> {
  const stack = await f.stack(DECLARED_PROGRAM, `policies-${++serial}`);
  await stack.setConfigObject(DECLARED_RESOURCES, resources);
  return stack;
}

/** `--policy-pack policies --policy-pack-config FILE` for this config. */
function packArgs(config: Record<string, unknown>): string[] {
  const file = join(configDir, `config-${++serial}.json`);
  writeFileSync(file, JSON.stringify(config));
  return ["--policy-pack", POLICY_PACK, "--policy-pack-config", file];
}

const group = { kind: "CloudGroup", name: "team", inputs: { name: "Team", awsAccountIds: ["111122223333"] } };
const alertTo = (
  recipients: string[],
  thresholds = [
    { percent: 100, basis: "actual" },
    { percent: 80, basis: "forecast" },
  ],
) => ({
  kind: "BudgetAlert",
  name: "team-budget",
  groupOf: "team",
  inputs: { name: "Team budget", amount: 1000, thresholds, recipients },
});
const onlyExampleCom = { "budget-alert-recipients": { allowedEmailDomains: ["example.com"] } };

describe("a mandatory violation", () => {
  // `pulumi up` previews first (as users run it, and CI with --yes): the preview's verdict stops the update
  // before any step runs. With --skip-preview the engine would create what comes before the violation.
  it("stops `pulumi up` before anything is created, naming the policy and the field", async () => {
    const before = await organizationIds(f.api);
    const stack = await stackOf([group, alertTo(["someone@elsewhere.dev"])]);
    const up = await stack.run(["up", "--yes", ...packArgs(onlyExampleCom)]);
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain("budget-alert-recipients");
    expect(up.stdout).toContain("mandatory");
    expect(up.stdout).toContain('recipients[0] uses the domain "elsewhere.dev"');
    expect(await organizationIds(f.api)).toEqual(before);
    expect(await stack.resourcesOfType(TYPES.alert)).toEqual([]);
  });

  // `pulumi preview --json` (v3.274) says only "preview failed" in its diagnostics: the violations are in
  // the human output. CI that wants the reasons reads that, or uses the policy pack's own JSON-free messages.
  it("fails `pulumi preview` too: the human output names the violation, the --json digest only the failure", async () => {
    const stack = await stackOf([group, alertTo(["someone@elsewhere.dev"])]);
    const preview = await stack.run(["preview", ...packArgs(onlyExampleCom)]);
    expect(preview.code).not.toBe(0);
    expect(preview.stdout).toContain("[mandatory]  budget-alert-recipients");
    const { code, digest } = await stack.previewJson(packArgs(onlyExampleCom));
    expect(code).not.toBe(0);
    expect(digest.diagnostics?.filter((d) => d.severity === "error").map((d) => d.message.trim())).toEqual(["error: preview failed"]);
  });
});

describe("an advisory level set in --policy-pack-config", () => {
  it("lets `pulumi up` create everything and reports the warning", async () => {
    const stack = await stackOf([group, alertTo(["someone@elsewhere.dev"])]);
    const up = await stack.up(
      packArgs({ "budget-alert-recipients": { enforcementLevel: "advisory", allowedEmailDomains: ["example.com"] } }),
    );
    expectSuccess(up);
    expect(up.stdout).toContain("budget-alert-recipients");
    expect(up.stdout).toContain("advisory");
    const [alert] = await stack.resourcesOfType(TYPES.alert);
    await expect(f.api.getAlert(alert!.id!)).resolves.toMatchObject({ recipients: ["someone@elsewhere.dev"] });
    expect((await stack.destroy()).code).toBe(0);
  });
});

describe("the stack policies on a second `pulumi up`", () => {
  let stack: PulumiStack;
  afterAll(() => stack?.destroy());

  it("pass an unchanged stack (AnalyzeStack sees the stored outputs) and stop one that adds an uncovered group", async () => {
    stack = await stackOf([group, alertTo(["team@example.com"])]);
    expectSuccess(await stack.up(packArgs(onlyExampleCom)));
    const again = await stack.up(packArgs(onlyExampleCom));
    expectSuccess(again);
    expect(again.stdout).not.toContain("cloud-group-budget-coverage");

    await stack.setConfigObject(DECLARED_RESOURCES, [
      group,
      alertTo(["team@example.com"]),
      { kind: "CloudGroup", name: "orphan", inputs: { name: "Orphan", awsAccountIds: ["444455556666"] } },
    ]);
    const third = await stack.up(packArgs(onlyExampleCom));
    expect(third.code).not.toBe(0);
    expect(third.stdout).toContain("cloud-group-budget-coverage");
    expect(third.stdout).toContain('Cloud Group "orphan" has no enabled budget alert');
  });
});

describe("remediation", () => {
  it("adds the required threshold before Create, so the service gets the remediated alert", async () => {
    const stack = await stackOf([group, alertTo(["team@example.com"], [{ percent: 80, basis: "forecast" }])]);
    const up = await stack.up(packArgs({ ...onlyExampleCom, "budget-alert-thresholds": { enforcementLevel: "remediate" } }));
    expectSuccess(up);
    const [alert] = await stack.resourcesOfType(TYPES.alert);
    const live = await f.api.getAlert(alert!.id!);
    expect(live.thresholds).toEqual(
      expect.arrayContaining([
        { percent: 80, basis: "forecast" },
        { percent: 100, basis: "actual" },
      ]),
    );
    expect((await stack.destroy()).code).toBe(0);
  });
});
