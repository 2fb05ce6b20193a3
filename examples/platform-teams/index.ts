import * as pulumi from "@pulumi/pulumi";
import { BudgetAlert, CloudGroup, ScheduledReport } from "@cloudcost/pulumi";
import { z } from "zod";

/**
 * One team as written in stack config (Pulumi.<stack>.yaml, key `teams`). The schema is the single
 * definition: it checks the config before anything is declared and gives the program its types.
 */
const Team = z.object({
  /** Lower-case slug: it becomes part of resource names, so renaming a team replaces its resources. */
  name: z.string().regex(/^[a-z][a-z0-9-]{1,30}$/, "must be a lower-case slug such as storefront"),
  owner: z.email(),
  monthlyBudget: z.number().positive(),
  awsAccountIds: z.array(z.string()).default([]),
  azureSubscriptionIds: z.array(z.string()).default([]),
  reportDay: z.enum(["monday", "tuesday", "wednesday", "thursday", "friday"]).default("monday"),
});
type Team = z.infer<typeof Team>;
const Teams = z
  .array(Team)
  .min(1)
  .refine((teams) => new Set(teams.map((t) => t.name)).size === teams.length, "team names must be unique");

const config = new pulumi.Config();
/** Receives every team's alerts besides the team's owner (reports go to the owner only). */
const finops = config.get("finopsEmail") ?? "finops@example.com";
const timezone = config.get("timezone") ?? "Europe/Berlin";

function readTeams(): Team[] {
  const parsed = Teams.safeParse(config.requireObject<unknown>("teams"));
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `teams.${i.path.join(".")}: ${i.message}`);
  throw new Error(`invalid stack config:\n  ${problems.join("\n  ")}`);
}

/** A group, its monthly budget and its weekly report: what every team gets. */
function teamResources(team: Team) {
  const group = new CloudGroup(`${team.name}-group`, {
    name: `Team ${team.name}`,
    description: `Accounts of team ${team.name} (owner: ${team.owner})`,
    awsAccountIds: team.awsAccountIds,
    azureSubscriptionIds: team.azureSubscriptionIds,
  });
  const alert = new BudgetAlert(`${team.name}-budget`, {
    name: `Team ${team.name} monthly budget`,
    groupId: group.id,
    amount: team.monthlyBudget,
    thresholds: [
      { percent: 90, basis: "forecast" },
      { percent: 100, basis: "actual" },
    ],
    recipients: [team.owner, finops],
  });
  const report = new ScheduledReport(`${team.name}-weekly`, {
    name: `Team ${team.name} weekly cost`,
    report: "comparison",
    groupId: group.id,
    schedule: { frequency: "weekly", dayOfWeek: team.reportDay, time: "09:00", timezone },
    recipients: [team.owner],
  });
  return { groupId: group.id, alertId: alert.id, reportId: report.id, spendThisMonth: alert.currentSpend };
}

export const teams = Object.fromEntries(readTeams().map((team) => [team.name, teamResources(team)]));
