/**
 * Issue 27's policies judged through the real CLI with the pack (`--policy-pack policies`): an alert scoped
 * only by a filter passes the scope rule; an absolute threshold above the amount and a tag key outside the
 * standard stop `pulumi up` before anything is created; an amount set from history above the maximum is
 * caught by the stack policy on the outputs of `up` (the only place it is known).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PulumiStack } from "@cloudcost/testkit";
import { DECLARED_PROGRAM, DECLARED_RESOURCES, POLICY_PACK, TYPES, expectSuccess, organizationIds, useEngineFixture } from "./support";

const f = useEngineFixture();
let configDir: string;
beforeAll(() => {
  configDir = mkdtempSync(join(tmpdir(), "cloudcost-policy27-config-"));
});
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

let serial = 0;
async function stackOf(resources: unknown[]): Promise<PulumiStack> {
  const stack = await f.stack(DECLARED_PROGRAM, `policies27-${++serial}`);
  await stack.setConfigObject(DECLARED_RESOURCES, resources);
  return stack;
}
function packArgs(config: Record<string, unknown>): string[] {
  const file = join(configDir, `config-${++serial}.json`);
  writeFileSync(file, JSON.stringify(config));
  return ["--policy-pack", POLICY_PACK, "--policy-pack-config", file];
}

const thresholds = [
  { percent: 100, basis: "actual" },
  { percent: 80, basis: "forecast" },
];
const alert = (inputs: Record<string, unknown>) => ({
  kind: "BudgetAlert",
  name: "scoped",
  inputs: { name: "Scoped by filter", amount: 1000, thresholds, recipients: ["team@example.com"], ...inputs },
});
const tagStandard = { "filter-tag-keys": { allowedTagKeys: ["team", "env"] } };

describe("issue 27's policies through the real CLI", () => {
  it("an alert scoped by a filter alone passes the scope rule and is created", async () => {
    const stack = await stackOf([alert({ filters: { services: ["Amazon EC2"], tags: [{ key: "team", values: ["web"] }] } })]);
    const up = await stack.up(packArgs(tagStandard));
    expectSuccess(up);
    expect(up.stdout).not.toContain("budget-alert-group-scope");
    const [created] = await stack.resourcesOfType(TYPES.alert);
    expect((await f.api.getAlert(created!.id!)).filters).toEqual({ services: ["Amazon EC2"], tags: [{ key: "team", values: ["web"] }] });
    expect((await stack.destroy()).code).toBe(0);
  });

  it("stops `pulumi up` before anything is created on an absolute threshold above the amount and a tag key outside the standard", async () => {
    const before = await organizationIds(f.api);
    const stack = await stackOf([
      alert({
        filters: { tags: [{ key: "Team", values: ["web"] }] },
        thresholds: [...thresholds, { amount: 1500, basis: "actual" }],
      }),
    ]);
    const up = await stack.run(["up", "--yes", ...packArgs(tagStandard)]);
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain("budget-alert-threshold-amounts");
    // The index is the threshold's place in the set as Check orders it (by basis, percent, amount): the amount names it.
    expect(up.stdout).toContain("thresholds[1] (amount 1,500 USD, actual) is above amount 1,000 USD");
    expect(up.stdout).toContain("filter-tag-keys");
    expect(up.stdout).toContain('did you mean "team"?');
    expect(await organizationIds(f.api)).toEqual(before);
  });

  it("catches an amount set from history above the maximum on the outputs of `up`, naming the alert", async () => {
    const stack = await stackOf([alert({ filters: { providers: ["aws"] }, autoAdjust: { lookbackPeriods: 3 } })]);
    // The declared amount is within every limit; only the service's figure from history is not.
    const up = await stack.up(packArgs({ "budget-alert-adjusted-amount": { maxMonthlyAmount: { USD: 1 } } }));
    expect(up.code).not.toBe(0);
    expect(up.stdout).toContain("budget-alert-adjusted-amount");
    expect(up.stdout).toMatch(
      /the amount set from history \(autoAdjust over 3 period\(s\)\) is [\d,.]+ USD, above the maximum of 1 USD per month/,
    );
    expect((await stack.destroy()).code).toBe(0);
  });
});
