/**
 * Issue 32: `cloudcost-pulumi import-plan --format terraform` as a user runs it — the built command against a
 * real sandbox — writes import blocks for the whole organization: every group, alert and report once, under
 * the Terraform provider's resource types, with valid, unique and stable resource names. What `tofu plan
 * -generate-config-out` makes of them is tested where the Terraform provider is (its own CI lane).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { CloudCostClient, closeAllPools } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";

const CLI = join(__dirname, "..", "..", "provider", "dist", "cli", "main.js");
let sandbox: RunningSandbox;
let token: string;
let api: CloudCostClient;

beforeAll(async () => {
  sandbox = await startSandbox();
  token = await sandbox.token("read");
  api = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: await sandbox.token("read,write") } });
});
afterAll(async () => {
  await sandbox?.dispose();
  await closeAllPools();
});

async function importPlan(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, CLOUDCOST_API_URL: sandbox.baseUrl, CLOUDCOST_API_TOKEN: token };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, "import-plan", ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The import blocks of an HCL text, in order: `to` (type and name) and `id`. */
function importBlocks(hcl: string): { type: string; name: string; id: string }[] {
  const blocks = [...hcl.matchAll(/^import \{\n {2}to = ([a-z_]+)\.([^\s]+)\n {2}id = "((?:[^"\\]|\\.)*)"\n\}$/gm)];
  return blocks.map(([, type, name, id]) => ({ type: type!, name: name!, id: id! }));
}

async function listed(items: AsyncIterable<{ id: string }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const item of items) ids.push(item.id);
  return ids;
}

test("an import block per group, alert and report, groups first, under the provider's types; valid, unique names", async () => {
  // Names that read alike, one with no letter to start with, one with a quote and a template-looking part.
  const a = await api.createGroup({ name: "Ops & Billing" });
  const b = await api.createGroup({ name: "ops billing" });
  const c = await api.createGroup({ name: "2027 budgets" });
  const thresholds = [{ percent: 100, basis: "actual" as const }];
  await api.createAlert({
    name: 'Team "${x}" budget',
    amount: 10,
    currency: "USD",
    period: "monthly",
    groupId: a.id,
    thresholds,
    recipients: [],
  });
  const org = await api.getOrganization();
  const { code, stdout, stderr } = await importPlan(["--org", org.id, "--format", "terraform"]);
  expect([code, stderr]).toEqual([0, ""]);

  // The provider is named, so `tofu init` in an empty folder finds it.
  expect(stdout).toContain('terraform {\n  required_providers {\n    cloudcost = { source = "cloudcost/cloudcost" }\n  }\n}\n');
  const blocks = importBlocks(stdout);
  // Nothing in the text but the comment, the terraform block and the import blocks.
  expect(stdout.match(/^import \{$/gm)).toHaveLength(blocks.length);

  expect(blocks.map((r) => `${r.type} ${r.id}`)).toEqual([
    ...(await listed(api.listGroups())).map((id) => `cloudcost_cloud_group ${id}`),
    ...(await listed(api.listAlerts())).map((id) => `cloudcost_budget_alert ${id}`),
    ...(await listed(api.listReports())).map((id) => `cloudcost_scheduled_report ${id}`),
  ]);
  const names = blocks.map((r) => r.name);
  expect(new Set(names).size).toBe(names.length);
  // Terraform's identifiers: a letter or underscore first, then letters, digits, underscores, dashes.
  for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
  const nameOf = (id: string) => blocks.find((r) => r.id === id)?.name;
  expect([nameOf(a.id), nameOf(b.id), nameOf(c.id)]).toEqual(["ops_billing", "ops_billing_2", "cg_2027_budgets"]);
  expect(names).toContain("team_x_budget");
});

test("the same organization gives the same text twice (names are stable), and the pulumi format is the default", async () => {
  const org = await api.getOrganization();
  const first = await importPlan(["--org", org.id, "--format", "terraform"]);
  const second = await importPlan(["--org", org.id, "--format", "terraform"]);
  expect(second.stdout).toBe(first.stdout);

  const pulumi = JSON.parse((await importPlan(["--org", org.id])).stdout) as { resources: { name: string; id: string }[] };
  expect(importBlocks(first.stdout).map((b) => `${b.name} ${b.id}`)).toEqual(
    pulumi.resources.map((r) => `${r.name.replace(/-/g, "_")} ${r.id}`),
  );
});

test("an unknown --format is refused naming the two, before any request; a wrong organization prints no blocks", async () => {
  const org = await api.getOrganization();
  const bad = await importPlan(["--org", org.id, "--format", "hcl"]);
  expect([bad.code, bad.stdout, bad.stderr]).toEqual([1, "", 'cloudcost-pulumi: --format must be pulumi or terraform, not "hcl"\n']);
  const other = await importPlan(["--org", "org_someoneelse", "--format", "terraform"]);
  expect([other.code, other.stdout]).toEqual([1, ""]);
  expect(other.stderr).toMatch(/^cloudcost-pulumi: the credentials belong to organization .*org_someoneelse/);
});
