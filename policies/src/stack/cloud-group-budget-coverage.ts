import { z } from "@cloudcost/api";
import { referenceExample } from "../rules/code-example";
import { UNKNOWN } from "../inputs/raw";
import { StackAlert, StackGroup, StackView } from "./stack-view";
import { StackViolation, stackPolicy } from "./define";
import { composable } from "../compose";

export const CoverageConfig = z.object({
  countDisabledAlerts: z.boolean().default(false).describe("Let a disabled alert (enabled: false) cover its group."),
});
export type CoverageConfig = z.output<typeof CoverageConfig>;

/** An alert covers a group when its groupId comes from the group's resource, or names the group the resource adopts. */
function covers(alert: StackAlert, group: StackGroup): boolean {
  if (alert.groupUrns.includes(group.urn)) return true;
  const { groupId } = alert.alert;
  return typeof groupId === "string" && groupId === group.group.adoptId;
}

export function checkCoverage(stack: StackView, config: CoverageConfig): StackViolation[] {
  const active = stack.alerts.filter((a) => config.countDisabledAlerts || a.alert.enabled !== false);
  // An alert whose groupId is unknown and not traceable to a resource might cover any group: no verdict.
  if (active.some((a) => a.alert.groupId === UNKNOWN && a.groupUrns.length === 0)) return [];
  return stack.groups
    .filter((g) => !active.some((a) => covers(a, g)))
    .map((g) => ({
      urn: g.urn,
      message: `Cloud Group "${g.name}" has no ${config.countDisabledAlerts ? "" : "enabled "}budget alert: declare a BudgetAlert with ${referenceExample("groupId", g.name, "cloudcost_cloud_group", "id")}`,
    }));
}

export const cloudGroupBudgetCoverage = composable(
  stackPolicy({
    name: "cloud-group-budget-coverage",
    description: "Every Cloud Group declared in the stack is covered by a budget alert.",
    enforcementLevel: "mandatory",
    config: CoverageConfig,
    check: checkCoverage,
  }),
  CoverageConfig,
);
