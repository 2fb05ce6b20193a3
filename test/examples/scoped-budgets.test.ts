import { runExample } from "./example-program";
import { idOf, startDeployment, valueOf, type Deployment } from "@cloudcost/testkit";

/** examples/scoped-budgets: one issue-27 capability per resource, as the service stores them. */
let d: Deployment;
let outputs: Record<string, unknown>;

beforeAll(async () => {
  d = await startDeployment();
  outputs = await runExample("scoped-budgets");
});
afterAll(() => d?.stop());

const monthStart = (offset: number): string => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
};

describe("examples/scoped-budgets, deployed", () => {
  it("scopes budgets by account, service, region and tag, in the service's canonical form", async () => {
    expect((await d.api.getAlert(idOf(d, "eu-compute"))).filters).toEqual({
      accountIds: ["111122223333"],
      services: ["Amazon EC2"],
      regions: ["eu-central-1", "eu-west-1"],
    });
    expect((await d.api.getAlert(idOf(d, "web-team"))).filters).toEqual({
      tags: [
        { key: "env", values: ["prod"] },
        { key: "team", values: ["web"] },
      ],
    });
  });

  it("keeps an absolute threshold and routes each threshold to its own recipients (or the webhook only)", async () => {
    const web = await d.api.getAlert(idOf(d, "web-team"));
    // A threshold without its own list uses the alert's: the service answers no `recipients` for it.
    const routing = web.thresholds.map((t) => [t.percent ?? t.amount, t.basis, t.recipients ?? "the alert's"]);
    expect(routing).toEqual(
      expect.arrayContaining([
        [45_000, "actual", ["oncall@example.com"]],
        [80, "forecast", ["web-leads@example.com"]],
        [100, "actual", "the alert's"],
      ]),
    );
    expect(web.thresholds.find((t) => t.amount === 45_000)?.percent).toBeUndefined();
  });

  it("plans different amounts for the next two months and sets storage's budget from history", async () => {
    const data = await d.api.getAlert(idOf(d, "data-platform"));
    expect(data.plannedAmounts).toEqual([
      { periodStart: monthStart(1), amount: 45_000 },
      { periodStart: monthStart(2), amount: 40_000 },
    ]);
    expect(data).toMatchObject({ effectiveAmount: 30_000, effectiveAmountSource: "amount" });
    const storage = await d.api.getAlert(idOf(d, "storage"));
    expect(storage.autoAdjust).toEqual({ lookbackPeriods: 3 });
    expect(storage.effectiveAmountSource).toBe("autoAdjust");
    expect(storage.effectiveAmount).toBeGreaterThan(0);
    const budgets = await valueOf<{ storage: { amount: number; source: string } }>(outputs.budgets);
    expect(budgets.storage).toEqual({ amount: storage.effectiveAmount, source: "autoAdjust" });
  });

  it("runs the campaign budget from this month to the end of the third", async () => {
    const campaign = await d.api.getAlert(idOf(d, "campaign"));
    const now = new Date();
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 0)).toISOString().slice(0, 10);
    expect(campaign).toMatchObject({ startDate: monthStart(0), endDate: end, active: true });
  });

  it("delivers a budget-status report by e-mail and a spend feed to a webhook only", async () => {
    expect(await d.api.getReport(idOf(d, "budget-status"))).toMatchObject({ report: "budget_status", filters: {}, format: "pdf" });
    const feed = await d.api.getReport(idOf(d, "eu-spend-feed"));
    expect(feed).toMatchObject({ report: "services", recipients: [], filters: { regions: ["eu-central-1", "eu-west-1", "westeurope"] } });
    expect(feed.webhookUrl).toBe("http://localhost:8787/cost-feed");
  });
});
