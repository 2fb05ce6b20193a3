import { runExample } from "./example-program";
import { idOf, startDeployment, valueOf, type Deployment } from "@cloudcost/testkit";

/** examples/quickstart deployed through the real provider host into a sandbox, then checked there. */
let d: Deployment;
let outputs: Record<string, unknown>;

beforeAll(async () => {
  d = await startDeployment();
  outputs = await runExample("quickstart", { "cloudcost-test:owner": "Web-Team@Example.com" });
});
afterAll(() => d?.stop());

describe("examples/quickstart, deployed", () => {
  it("creates the Cloud Group with both members", async () => {
    const group = await d.api.getGroup(idOf(d, "web-shop"));
    expect(group).toMatchObject({ name: "Web shop", description: "Production accounts of the web shop", source: "api" });
    expect(group.members).toEqual([
      { provider: "aws", accountId: "111122223333" },
      { provider: "azure", accountId: "0b1f6471-1bf0-4dda-aec3-cb9272f09590" },
    ]);
  });

  it("puts a 5,000 USD monthly budget with a forecast and an actual threshold on it", async () => {
    const alert = await d.api.getAlert(idOf(d, "web-shop-monthly"));
    expect(alert).toMatchObject({
      amount: 5000,
      currency: "USD",
      period: "monthly",
      groupId: idOf(d, "web-shop"),
      recipients: ["web-team@example.com"],
      enabled: true,
    });
    expect(alert.thresholds).toEqual(
      expect.arrayContaining([
        { percent: 80, basis: "forecast" },
        { percent: 100, basis: "actual" },
      ]),
    );
  });

  it("schedules the weekly report for Monday 08:00 Berlin time", async () => {
    const report = await d.api.getReport(idOf(d, "web-shop-weekly"));
    expect(report).toMatchObject({ report: "services", format: "csv", groupId: idOf(d, "web-shop"), recipients: ["web-team@example.com"] });
    expect(report.schedule).toEqual({
      frequency: "weekly",
      dayOfWeek: "monday",
      dayOfMonth: null,
      time: "08:00",
      timezone: "Europe/Berlin",
    });
    expect(report.nextRunAt).not.toBeNull();
  });

  it("exports the IDs and the group's spend as the service reports it", async () => {
    expect(await valueOf(outputs.groupId)).toBe(idOf(d, "web-shop"));
    expect(await valueOf(outputs.alertId)).toBe(idOf(d, "web-shop-monthly"));
    const alert = await d.api.getAlert(idOf(d, "web-shop-monthly"));
    expect(await valueOf(outputs.spendThisMonth)).toBe(alert.currentSpend);
    expect(await valueOf(outputs.nextReportAt)).toBe((await d.api.getReport(idOf(d, "web-shop-weekly"))).nextRunAt);
  });
});
