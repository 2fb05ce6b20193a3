/**
 * `cloudcost-pulumi import-plan` (provider/src/cli) as a user runs it: the built command against a real
 * sandbox, credentials from the environment, the plan on stdout. What `pulumi import --file` then makes of
 * the plan is test/engine/native-plugin.test.ts.
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

/** Runs the command; ENV overrides the sandbox's credentials (an empty value is an unset setting). */
async function importPlan(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base = { ...process.env, CLOUDCOST_API_URL: sandbox.baseUrl, CLOUDCOST_API_TOKEN: token };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, "import-plan", ...args], { env: { ...base, ...env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

test("lists every group, alert and report once, groups first, under readable unique names and the native type tokens", async () => {
  // Two objects whose names read alike, and one whose name has no letters to start with.
  const a = await api.createGroup({ name: "Ops & Billing" });
  const b = await api.createGroup({ name: "ops billing" });
  const c = await api.createGroup({ name: "2027 budgets" });
  const org = await api.getOrganization();
  const { code, stdout, stderr } = await importPlan(["--org", org.id]);
  expect([code, stderr]).toEqual([0, ""]);
  const plan = JSON.parse(stdout) as { resources: { type: string; name: string; id: string }[] };

  const listed = async (items: AsyncIterable<{ id: string }>) => {
    const ids: string[] = [];
    for await (const item of items) ids.push(item.id);
    return ids;
  };
  const groups = await listed(api.listGroups());
  const alerts = await listed(api.listAlerts());
  const reports = await listed(api.listReports());
  expect(plan.resources.map((r) => `${r.type} ${r.id}`)).toEqual([
    ...groups.map((id) => `cloudcost:index:CloudGroup ${id}`),
    ...alerts.map((id) => `cloudcost:index:BudgetAlert ${id}`),
    ...reports.map((id) => `cloudcost:index:ScheduledReport ${id}`),
  ]);
  const names = plan.resources.map((r) => r.name);
  expect(new Set(names).size).toBe(names.length);
  for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9-]*$/);
  const nameOf = (id: string) => plan.resources.find((r) => r.id === id)?.name;
  expect([nameOf(a.id), nameOf(b.id), nameOf(c.id)]).toEqual(["ops-billing", "ops-billing-2", "cg-2027-budgets"]);
});

test("--org takes the organization's name as well as its id: the same plan", async () => {
  const org = await api.getOrganization();
  const byId = await importPlan(["--org", org.id]);
  const byName = await importPlan(["--org", org.name]);
  expect([byName.code, byName.stderr]).toEqual([0, ""]);
  expect(JSON.parse(byName.stdout)).toEqual(JSON.parse(byId.stdout));
});

test.each(["org_someoneelse", "someone-else"])(
  "refuses another organization (%s), naming it and the credentials' id and name, and prints no plan",
  async (other) => {
    const org = await api.getOrganization();
    const { code, stdout, stderr } = await importPlan(["--org", other]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `cloudcost-pulumi: the credentials belong to organization ${org.name} (id ${org.id}), not ${other}: pass --org ${org.id} (or --org ${org.name}), or set CLOUDCOST_API_TOKEN (or client credentials) of ${other}\n`,
    );
  },
);

test("missing --org or credentials: a one-line error naming what to set, no stack trace", async () => {
  const noOrg = await importPlan([]);
  expect([noOrg.code, noOrg.stderr]).toEqual([1, expect.stringMatching(/^cloudcost-pulumi: --org <organization id or name> is required/)]);
  const noToken = await importPlan(["--org", "org_x"], { CLOUDCOST_API_TOKEN: "" });
  expect(noToken.code).toBe(1);
  expect(noToken.stderr).toMatch(/^cloudcost-pulumi: no credentials: set cloudcost:apiToken \(or CLOUDCOST_API_TOKEN\)/);
  expect(noToken.stderr.split("\n").filter(Boolean)).toHaveLength(1);
});
