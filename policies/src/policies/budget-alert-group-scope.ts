import { BudgetAlert } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import { FILTER_LISTS } from "../inputs/cost-filters";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { UNKNOWN } from "../inputs/raw";
import { resourcePolicy } from "./define";
import { referenceExample } from "../rules/code-example";
import { composable } from "../compose";

export const GroupScopeConfig = z.object({
  allowOrganizationWide: z
    .boolean()
    .default(false)
    .describe("Allow alerts with neither groupId nor a scoping filter, which budget the whole organization."),
  scopingFilters: z
    .array(z.enum(FILTER_LISTS))
    .default([...FILTER_LISTS])
    .describe("Filter lists that scope an alert without a groupId when not empty (issue 27). Empty: only a Cloud Group scopes an alert."),
});
export type GroupScopeConfig = z.output<typeof GroupScopeConfig>;

/**
 * An alert is scoped by a Cloud Group or by one of the configured filter lists. An unknown groupId (e.g. a
 * group created in the same deployment) is scoped: only an absent one is not; unknown filters are not judged.
 */
export function checkGroupScope(alert: AlertView, config: GroupScopeConfig): string[] {
  if (alert.groupId !== null || config.allowOrganizationWide) return [];
  if (alert.filters === UNKNOWN || alert.filters.narrowedBy === UNKNOWN) return [];
  const narrowedBy = alert.filters.narrowedBy;
  if (config.scopingFilters.some((f) => narrowedBy.includes(f))) return [];
  const byFilter =
    config.scopingFilters.length === 0
      ? ""
      : `, or narrow it with filters.${config.scopingFilters.join(", filters.")} (at least one entry)`;
  return [
    `the alert has no groupId${narrowedBy.length ? ` and filters only on ${narrowedBy.join(", ")}` : ""}, so it budgets the whole organization: ` +
      `set groupId to a Cloud Group's id (e.g. ${referenceExample("groupId", "group", "cloudcost_cloud_group", "id")})${byFilter}, or allow organization-wide alerts with allowOrganizationWide: true`,
  ];
}

export const budgetAlertGroupScope = composable(
  resourcePolicy(BudgetAlert, {
    name: "budget-alert-group-scope",
    description:
      "A budget alert is scoped to a Cloud Group or by a filter (configurable: scopingFilters) unless organization-wide alerts are allowed.",
    enforcementLevel: "mandatory",
    config: GroupScopeConfig,
    read: readAlert,
    check: checkGroupScope,
  }),
  GroupScopeConfig,
);
