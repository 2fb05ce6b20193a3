import type { BudgetAlert, ScheduledReport } from "@cloudcost/api";
import { runExample, stackConfigOf } from "./example-program";
import { idOf, startDeployment, valueOf, type Deployment } from "@cloudcost/testkit";

/** examples/platform-teams with its own Pulumi.dev.yaml, deployed into a sandbox and checked there. */
let d: Deployment;
let outputs: Record<string, unknown>;

beforeAll(async () => {
  d = await startDeployment();
  outputs = await runExample("platform-teams", stackConfigOf("platform-teams", "dev", d.engine.project));
});
afterAll(() => d?.stop());

const TEAMS = [
  {
    name: "storefront",
    owner: "storefront-lead@example.com",
    budget: 4000,
    members: ["aws:111122223333", "azure:0b1f6471-1bf0-4dda-aec3-cb9272f09590"],
    day: "monday",
  },
  {
    name: "data",
    owner: "data-lead@example.com",
    budget: 6500,
    members: ["aws:777788889999", "azure:6f1a3c2e-8d4b-4b7a-9c51-2e0d7f3a9b14"],
    day: "friday",
  },
  { name: "platform", owner: "platform-lead@example.com", budget: 1500, members: ["aws:444455556666"], day: "monday" },
];

describe("examples/platform-teams, deployed from the team list in Pulumi.dev.yaml", () => {
  it.each(TEAMS)("gives team $name a group of its accounts", async (team) => {
    const group = await d.api.getGroup(idOf(d, `${team.name}-group`));
    expect(group.name).toBe(`Team ${team.name}`);
    expect(group.members.map((m) => `${m.provider}:${m.accountId}`)).toEqual(team.members);
  });

  it.each(TEAMS)("gives team $name its monthly budget, mailed to the owner and FinOps", async (team) => {
    const alert: BudgetAlert = await d.api.getAlert(idOf(d, `${team.name}-budget`));
    expect(alert).toMatchObject({ amount: team.budget, period: "monthly", currency: "USD", groupId: idOf(d, `${team.name}-group`) });
    expect([...alert.recipients].sort()).toEqual(["finops@example.com", team.owner].sort());
  });

  it.each(TEAMS)("gives team $name a weekly comparison report on its day", async (team) => {
    const report: ScheduledReport = await d.api.getReport(idOf(d, `${team.name}-weekly`));
    expect(report).toMatchObject({ report: "comparison", groupId: idOf(d, `${team.name}-group`), recipients: [team.owner] });
    expect(report.schedule).toMatchObject({ frequency: "weekly", dayOfWeek: team.day, time: "09:00", timezone: "Europe/Berlin" });
  });

  it("exports each team's IDs under its name", async () => {
    const teams = await valueOf<Record<string, { groupId: string; alertId: string; reportId: string }>>(outputs.teams);
    expect(Object.keys(teams).sort()).toEqual(["data", "platform", "storefront"]);
    expect(teams.data).toMatchObject({ groupId: idOf(d, "data-group"), alertId: idOf(d, "data-budget"), reportId: idOf(d, "data-weekly") });
  });
});
