import { compareMembers } from "@cloudcost/api";
import type { BudgetAlert, CloudGroup, Member, ScheduledReport } from "@cloudcost/api";
import { listAll } from "./http";
import type { Desired } from "./provider-run";

export type LiveObject = (CloudGroup | BudgetAlert | ScheduledReport) & { kind: Desired["kind"] };

/** Every group, alert and report of the token's organization, by name (a name seen twice is a duplicate). */
export async function liveByName(baseUrl: string, token: string): Promise<Map<string, LiveObject[]>> {
  const [groups, alerts, reports] = await Promise.all([
    listAll<CloudGroup>(baseUrl, token, "/groups"),
    listAll<BudgetAlert>(baseUrl, token, "/alerts"),
    listAll<ScheduledReport>(baseUrl, token, "/reports"),
  ]);
  const all: LiveObject[] = [
    ...groups.map((g) => ({ ...g, kind: "CloudGroup" as const })),
    ...alerts.map((a) => ({ ...a, kind: "BudgetAlert" as const })),
    ...reports.map((r) => ({ ...r, kind: "ScheduledReport" as const })),
  ];
  const byName = new Map<string, LiveObject[]>();
  for (const o of all) byName.set(o.name, [...(byName.get(o.name) ?? []), o]);
  return byName;
}

/** The part of the live object a declared resource determines, as the service would show it. */
export function expectedLive(d: Desired): Record<string, unknown> {
  const i = d.inputs;
  if (d.kind === "CloudGroup") {
    const members: Member[] = [
      ...((i.awsAccountIds as string[] | undefined) ?? []).map((accountId) => ({ provider: "aws" as const, accountId })),
      ...((i.azureSubscriptionIds as string[] | undefined) ?? []).map((accountId) => ({
        provider: "azure" as const,
        accountId: accountId.toLowerCase(),
      })),
    ];
    return { kind: d.kind, name: i.name, description: i.description, members: members.sort(compareMembers) };
  }
  const common = { kind: d.kind, name: i.name, groupId: i.groupId ?? null, recipients: i.recipients };
  if (d.kind === "BudgetAlert")
    return { ...common, amount: i.amount, thresholds: i.thresholds, currency: "USD", period: "monthly", enabled: true };
  return {
    ...common,
    report: i.report,
    schedule: { dayOfWeek: null, ...(i.schedule as Record<string, unknown>) },
    format: i.format ?? "csv",
    enabled: true,
  };
}
