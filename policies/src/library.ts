/**
 * The policies as factories, for a platform team that builds its own pack from ours (see README.md,
 * "Compose your own pack"). Importing this module starts nothing; `index.ts` is the pack we ship.
 */
export { composable, type PolicyFactory, type PolicyOptions } from "./compose";
export { defaultPolicies } from "./policies";
export { budgetAlertCurrency } from "./policies/budget-alert-currency";
export { budgetAlertForecast } from "./policies/budget-alert-forecast";
export { budgetAlertGroupScope } from "./policies/budget-alert-group-scope";
export { budgetAlertMaxAmount } from "./policies/budget-alert-max-amount";
export { budgetAlertRecipients } from "./policies/budget-alert-recipients";
export { budgetAlertThresholds } from "./policies/budget-alert-thresholds";
export { cloudGroupMembers } from "./policies/cloud-group-members";
export { scheduledReportDelivery } from "./policies/scheduled-report-delivery";
export { scheduledReportRecipients } from "./policies/scheduled-report-recipients";
export { budgetTotalCap } from "./stack/budget-total-cap";
export { cloudGroupBudgetCoverage } from "./stack/cloud-group-budget-coverage";
export { cloudGroupExclusiveMembership } from "./stack/cloud-group-exclusive-membership";
