/**
 * CDK for Terraform (cdktf 0.21.0, the final release; deprecated upstream): examples/cdktf-typescript installed
 * from its own lockfile (`npm ci`), its bindings generated from terraform-provider-cloudcost by `cdktf get` with
 * OpenTofu as the binary (TERRAFORM_BINARY_NAME, which cdktf's provider-schema reader spawns), `cdktf synth`,
 * then `tofu` init, apply, a plan with no changes and destroy on the synthesized JSON.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { organizationIds, useTerraformFixture } from "./support";

const f = useTerraformFixture();

it("generates bindings from the provider, synthesizes, and applies and destroys the JSON with tofu", async () => {
  const dir = f.workspace("examples/cdktf-typescript");
  const env = { TERRAFORM_BINARY_NAME: f.tofuPath, DISABLE_VERSION_CHECK: "true", CI: "1" };
  const ok = async (command: string, args: string[]) => {
    const r = await f.run(dir, command, args, env);
    if (r.code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
    return r;
  };
  const before = await organizationIds(f.api);
  await ok("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
  await ok("npm", ["run", "get"]);
  // The bindings come from this provider's schema, as OpenTofu installed it from the mirror (versions.json is
  // the provider selection `tofu version -json` reported to cdktf).
  const versions = JSON.parse(readFileSync(join(dir, ".gen", "versions.json"), "utf8")) as Record<string, string>;
  expect(versions).toEqual({ "registry.opentofu.org/cloudcost/cloudcost": "0.1.0" });
  expect(existsSync(join(dir, ".gen", "providers", "cloudcost", "budget-alert", "index.ts"))).toBe(true);
  await ok("npm", ["run", "synth"]);

  const stack = join(dir, "cdktf.out", "stacks", "quickstart");
  const synthesized = JSON.parse(readFileSync(join(stack, "cdk.tf.json"), "utf8")) as { resource: Record<string, Record<string, unknown>> };
  expect(Object.keys(synthesized.resource).sort()).toEqual([
    "cloudcost_budget_alert",
    "cloudcost_cloud_group",
    "cloudcost_scheduled_report",
  ]);
  expect(readFileSync(join(stack, "cdk.tf.json"), "utf8")).not.toContain(f.env.CLOUDCOST_API_TOKEN!);

  for (const args of [["init"], ["apply", "-auto-approve"]]) {
    const r = await f.tofu(stack, args);
    if (r.code !== 0) throw new Error(`tofu ${args.join(" ")} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  }
  const alertId = JSON.parse((await f.tofu(stack, ["output", "-json", "alert_id"])).stdout) as string;
  expect((await f.api.getAlert(alertId)).amount).toBe(5000);
  const again = await f.tofu(stack, ["plan", "-detailed-exitcode"]);
  expect(again.code).toBe(0);
  expect((await f.tofu(stack, ["destroy", "-auto-approve"])).code).toBe(0);
  expect(await organizationIds(f.api)).toEqual(before);
});
