import { BudgetAlert } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const GroupScopeConfig = z.object({
  allowOrganizationWide: z.boolean().default(false).describe("Allow alerts without groupId, which budget the whole organization."),
});
export type GroupScopeConfig = z.output<typeof GroupScopeConfig>;

/** An unknown groupId (e.g. a group created in the same deployment) is scoped: only an absent one is not. */
export function checkGroupScope(alert: AlertView, config: GroupScopeConfig): string[] {
  if (alert.groupId !== null || config.allowOrganizationWide) return [];
  return [
    "the alert has no groupId, so it budgets the whole organization: set groupId to a Cloud Group's id (e.g. groupId: group.id) or allow organization-wide alerts with allowOrganizationWide: true",
  ];
}

export const budgetAlertGroupScope = composable(
  resourcePolicy(BudgetAlert, {
    name: "budget-alert-group-scope",
    description: "A budget alert is scoped to a Cloud Group unless organization-wide alerts are allowed.",
    enforcementLevel: "mandatory",
    config: GroupScopeConfig,
    read: readAlert,
    check: checkGroupScope,
  }),
  GroupScopeConfig,
);
