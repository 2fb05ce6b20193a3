/**
 * The HCL examples (examples/*-terraform) through the real OpenTofu CLI against a sandbox, the way a user meets
 * them: `tofu init` installs the provider from the filesystem mirror; `plan`; `apply`; a plan after it has no
 * changes; an alert changed behind OpenTofu's back shows in `plan -refresh-only`, and only that; `apply` puts it
 * back; `destroy` leaves the organization as it found it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ShownPlan, type ShownState, organizationIds, useTerraformFixture } from "./support";

const f = useTerraformFixture();

describe.each(["quickstart-terraform", "platform-teams-terraform", "scoped-budgets-terraform"])("examples/%s with tofu", (example) => {
  let dir: string;
  let before: Awaited<ReturnType<typeof organizationIds>>;
  const ok = async (args: string[]) => {
    const r = await f.tofu(dir, args);
    if (r.code !== 0) throw new Error(`tofu ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
    return r;
  };
  const state = async () => JSON.parse((await ok(["show", "-json"])).stdout) as ShownState;
  const alerts = async () => ((await state()).values?.root_module?.resources ?? []).filter((r) => r.type === "cloudcost_budget_alert");

  beforeAll(async () => {
    dir = f.workspace(`examples/${example}`);
    before = await organizationIds(f.api);
  });

  it("installs the provider with `tofu init` from the filesystem mirror, asking no registry", async () => {
    const init = await ok(["init"]);
    expect(init.stdout).toMatch(/Installing cloudcost\/cloudcost v0\.1\.0/);
    expect(init.stdout).toMatch(/Installed cloudcost\/cloudcost v0\.1\.0 \(unauthenticated\)/);
  });

  it("plans the creates, applies them, and then plans no changes", async () => {
    const plan = await f.tofu(dir, ["plan", "-detailed-exitcode"]);
    expect(plan.code).toBe(2); // changes
    expect(plan.stdout).toMatch(/Plan: \d+ to add, 0 to change, 0 to destroy/);
    await ok(["apply", "-auto-approve"]);
    const managed = await alerts();
    expect(managed.length).toBeGreaterThan(0);
    for (const a of managed) expect((await f.api.getAlert(a.values.id as string)).id).toBe(a.values.id);
    if (example === "scoped-budgets-terraform") {
      // The feed's URL went through webhook_url_wo: the service has it, the state file has no trace of it.
      const [feed] = ((await state()).values?.root_module?.resources ?? []).filter((r) => r.address.endsWith("eu_spend_feed"));
      expect((await f.api.getReport(feed!.values.id as string)).webhookUrl).toBe("http://localhost:8787/cost-feed");
      expect(readFileSync(join(dir, "terraform.tfstate"), "utf8")).not.toContain("cost-feed");
    }
    const again = await f.tofu(dir, ["plan", "-detailed-exitcode"]);
    expect(again.stdout).toMatch(/No changes/);
    expect(again.code).toBe(0);
  });

  it("shows a change made outside in `tofu plan -refresh-only`, and only that; `tofu apply` restores it", async () => {
    const [alert] = await alerts();
    const id = alert!.values.id as string;
    const declared = alert!.values.amount as number;
    const current = await f.api.getAlert(id);
    const { id: _id, effectiveAmount: _e, effectiveAmountSource: _s, active: _a, currentSpend: _c, forecastedSpend: _f, ...rest } = current;
    const { spendCurrency: _sc, periodStart: _ps, periodEnd: _pe, createdAt: _ca, updatedAt: _ua, ...input } = rest;
    await f.api.replaceAlert(id, { ...input, amount: declared + 1 });

    await ok(["plan", "-refresh-only", "-out", "refresh.plan"]);
    const shown = JSON.parse((await ok(["show", "-json", "refresh.plan"])).stdout) as ShownPlan;
    const drift = shown.resource_drift ?? [];
    expect(drift.map((d) => d.address)).toEqual([alert!.address]);
    expect(drift[0]!.change.before.amount).toBe(declared);
    expect(drift[0]!.change.after.amount).toBe(declared + 1);

    const restore = await f.tofu(dir, ["plan", "-detailed-exitcode"]);
    expect(restore.code).toBe(2);
    expect(restore.stdout).toMatch(/Plan: 0 to add, 1 to change, 0 to destroy/);
    await ok(["apply", "-auto-approve"]);
    expect((await f.api.getAlert(id)).amount).toBe(declared);
    expect((await f.tofu(dir, ["plan", "-detailed-exitcode"])).code).toBe(0);
  });

  it("removes everything with `tofu destroy`", async () => {
    await ok(["destroy", "-auto-approve"]);
    expect(await organizationIds(f.api)).toEqual(before);
  });
});
