import type { Policies } from "@pulumi/policy";
import { budgetAlertCurrency } from "./policies/budget-alert-currency";
import { budgetAlertForecast } from "./policies/budget-alert-forecast";
import { budgetAlertGroupScope } from "./policies/budget-alert-group-scope";
import { budgetAlertMaxAmount } from "./policies/budget-alert-max-amount";
import { budgetAlertRecipients } from "./policies/budget-alert-recipients";
import { budgetAlertThresholdAmounts } from "./policies/budget-alert-threshold-amounts";
import { budgetAlertThresholds } from "./policies/budget-alert-thresholds";
import { filterTagKeys } from "./policies/filter-tag-keys";
import { cloudGroupMembers } from "./policies/cloud-group-members";
import { scheduledReportDelivery } from "./policies/scheduled-report-delivery";
import { scheduledReportRecipients } from "./policies/scheduled-report-recipients";
import { budgetAlertAdjustedAmount } from "./stack/budget-alert-adjusted-amount";
import { budgetTotalCap } from "./stack/budget-total-cap";
import { cloudGroupBudgetCoverage } from "./stack/cloud-group-budget-coverage";
import { cloudGroupExclusiveMembership } from "./stack/cloud-group-exclusive-membership";

/** Our default set, in the order the CLI lists them: every policy as shipped. */
export function defaultPolicies(): Policies {
  return [
    budgetAlertMaxAmount(),
    budgetAlertCurrency(),
    budgetAlertThresholds(),
    budgetAlertThresholdAmounts(),
    budgetAlertRecipients(),
    budgetAlertGroupScope(),
    budgetAlertForecast(),
    filterTagKeys(),
    scheduledReportRecipients(),
    scheduledReportDelivery(),
    cloudGroupMembers(),
    cloudGroupBudgetCoverage(),
    budgetTotalCap(),
    budgetAlertAdjustedAmount(),
    cloudGroupExclusiveMembership(),
  ];
}
