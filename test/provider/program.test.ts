import type { CloudCostClient } from "@cloudcost/api";
import { BudgetAlert, CloudGroup, ScheduledReport, getAccounts, getCostByService, getCostSummary, lastQuarter } from "@cloudcost/pulumi";
import { startDeployment, type Deployment, type Engine, outputValue, type RunningSandbox } from "@cloudcost/testkit";

let deployment: Deployment;
let sandbox: RunningSandbox;
let token: string;
let engine: Engine;
let api: CloudCostClient;

beforeAll(async () => {
  deployment = await startDeployment();
  ({ sandbox, token, engine, api } = deployment);
});
afterAll(() => deployment?.stop());

const webhookUrl = "https://hooks.example.com/services/T000/secret-hook";

/** A program as a user writes it: a group, a budget at 110% of last quarter's spend, and a report. */
async function program() {
  const accounts = await getAccounts();
  const platform = new CloudGroup("platform", {
    name: "Platform",
    awsAccountIds: accounts.filter((a) => a.provider === "aws").map((a) => a.accountId),
    azureSubscriptionIds: accounts.filter((a) => a.provider === "azure").map((a) => a.accountId.toUpperCase()),
  });
  const spend = await getCostSummary(lastQuarter(new Date("2026-11-22T00:00:00Z")));
  const budget = new BudgetAlert("platform-budget", {
    name: "Platform quarterly budget",
    amount: Math.round(spend.total * 1.1 * 100) / 100,
    period: "quarterly",
    groupId: platform.id,
    recipients: ["finops@example.com"],
    webhookUrl,
  });
  const report = new ScheduledReport("platform-report", {
    name: "Platform weekly",
    report: "services",
    groupId: platform.id,
    schedule: { frequency: "weekly", dayOfWeek: "friday", time: "17:00", timezone: "Europe/London" },
    recipients: ["finops@example.com"],
  });
  return { platform, budget, report, spend };
}

describe("a real Pulumi program under setMocks, forwarded to the real host", () => {
  it("creates every object in the sandbox with the declared settings", async () => {
    const { platform, budget, report, spend } = await program();
    const [groupId, alertId, reportId] = await Promise.all([outputValue(platform.id), outputValue(budget.id), outputValue(report.id)]);

    const group = await api.getGroup(groupId);
    expect(group.name).toBe("Platform");
    expect(group.members.length).toBe((await getAccounts()).length);
    expect(await outputValue(platform.azureSubscriptionIds)).toEqual(
      group.members
        .filter((m) => m.provider === "azure")
        .map((m) => m.accountId)
        .sort(),
    );

    const alert = await api.getAlert(alertId);
    expect(alert).toMatchObject({ groupId, period: "quarterly", amount: Math.round(spend.total * 1.1 * 100) / 100, webhookUrl });
    expect(spend.total).toBeGreaterThan(0);
    expect(await outputValue(budget.currentSpend)).toBe(alert.currentSpend);

    const live = await api.getReport(reportId);
    expect(live).toMatchObject({ groupId, report: "services", schedule: { dayOfWeek: "friday" } });
    expect(await outputValue(report.nextRunAt)).toBe(live.nextRunAt);
  });

  it("looks an existing object up by id without managing it", async () => {
    const existing = await api.createGroup({ name: "Looked up", description: "made in the portal" });
    const found = CloudGroup.get("looked-up", existing.id);
    expect(await outputValue(found.id)).toBe(existing.id);
    expect(await outputValue(found.description)).toBe("made in the portal");
    expect(engine.resources.find((r) => r.name === "looked-up")?.via).toBe("read");
  });

  it("adopts a portal-made alert through adoptId", async () => {
    const existing = await api.createAlert({
      name: "Portal budget",
      amount: 10,
      currency: "USD",
      period: "monthly",
      thresholds: [{ percent: 100, basis: "actual" }],
    });
    const adopted = new BudgetAlert("adopted", { name: "Portal budget", amount: 42, adoptId: existing.id });
    expect(await outputValue(adopted.id)).toBe(existing.id);
    expect((await api.getAlert(existing.id)).amount).toBe(42);
  });

  it("keeps __provider small and free of secrets for every resource", async () => {
    const dynamic = engine.resources.filter((r) => r.via === "create");
    expect(new Set(dynamic.map((r) => r.type))).toEqual(
      new Set([
        "pulumi-nodejs:dynamic/cloudcost:CloudGroup",
        "pulumi-nodejs:dynamic/cloudcost:BudgetAlert",
        "pulumi-nodejs:dynamic/cloudcost:ScheduledReport",
      ]),
    );
    for (const r of dynamic) {
      const text = String(r.inputs.__provider);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(2048);
      expect(text).not.toContain(token);
      expect(text).not.toContain(webhookUrl);
      expect(text).not.toContain(sandbox.baseUrl);
      const outputs = JSON.stringify(r.state);
      expect(outputs).not.toContain(token);
    }
  });

  it("gives the classes their type tokens", async () => {
    expect(CloudGroup.__pulumiType).toBe("pulumi-nodejs:dynamic/cloudcost:CloudGroup");
    expect(BudgetAlert.__pulumiType).toBe("pulumi-nodejs:dynamic/cloudcost:BudgetAlert");
    expect(ScheduledReport.__pulumiType).toBe("pulumi-nodejs:dynamic/cloudcost:ScheduledReport");
    const g = new CloudGroup("token-check", { name: "Token check" });
    expect(CloudGroup.isInstance(g)).toBe(true);
    expect(BudgetAlert.isInstance(g)).toBe(false);
    expect((await api.getGroup(await outputValue(g.id))).name).toBe("Token check");
  });

  it("reads costs through the same filters as a budget (issue 27): only what they match, and the filters it applied", async () => {
    const window = lastQuarter(new Date("2026-11-22T00:00:00Z"));
    const all = await getCostByService(window);
    const ec2 = await getCostByService({ ...window, filters: { services: ["Amazon EC2"], providers: ["aws"] } });
    expect(ec2.items.map((i) => i.service)).toEqual(["Amazon EC2"]);
    expect(ec2.filters).toEqual({ providers: ["aws"], services: ["Amazon EC2"] });
    expect(ec2.total).toBeGreaterThan(0);
    expect(ec2.total).toBeLessThan(all.total);
    const tagged = await getCostSummary({ ...window, filters: { tags: [{ key: "team", values: ["web"] }] } });
    expect(tagged.total).toBeLessThan((await getCostSummary(window)).total);
  });
});
