// First: an unsupported @pulumi/policy (or @pulumi/pulumi) stops the import with an error naming the version needed.
import "./supported-sdk";

/**
 * What `require("@cloudcost/policies")` (and `@cloudcost/policies/library`) gives a program: every policy
 * as a factory and our default set, for a platform team that builds its own pack from ours (README.md,
 * "Compose your own pack"). Importing it starts nothing: constructing a `PolicyPack` starts its gRPC server
 * and prints a port, so our own pack is a separate entry (`index.ts`, package.json `main`, which
 * `pulumi policy` runs).
 */
export type { PolicyFactory, PolicyOptions } from "./compose";
export { PACK_NAME } from "./pack-name";
export { defaultPolicies } from "./policies";
export { budgetAlertCurrency } from "./policies/budget-alert-currency";
export { budgetAlertForecast } from "./policies/budget-alert-forecast";
export { budgetAlertGroupScope } from "./policies/budget-alert-group-scope";
export { budgetAlertMaxAmount } from "./policies/budget-alert-max-amount";
export { budgetAlertRecipients } from "./policies/budget-alert-recipients";
export { budgetAlertThresholdAmounts } from "./policies/budget-alert-threshold-amounts";
export { budgetAlertThresholds } from "./policies/budget-alert-thresholds";
export { filterTagKeys } from "./policies/filter-tag-keys";
export { cloudGroupMembers } from "./policies/cloud-group-members";
export { scheduledReportDelivery } from "./policies/scheduled-report-delivery";
export { scheduledReportRecipients } from "./policies/scheduled-report-recipients";
export { budgetAlertAdjustedAmount } from "./stack/budget-alert-adjusted-amount";
export { budgetTotalCap } from "./stack/budget-total-cap";
export { cloudGroupBudgetCoverage } from "./stack/cloud-group-budget-coverage";
export { cloudGroupExclusiveMembership } from "./stack/cloud-group-exclusive-membership";
// Issue 32: the same policies judge a Terraform/OpenTofu plan (`cloudcost-policies check-plan`).
export { PlanInputError, judgePlan, type PlanVerdict, type PlanViolation } from "./plan/check-plan";
// Issue 40: one verdict on a plan or a preview, in every format, with waivers and the budget a change adds.
export { planVerdict, type ReportOptions } from "./plan/plan-verdict";
export { previewVerdict } from "./preview/preview-verdict";
export { FORMATS, render, type Format } from "./formats";
export type { Finding, Level, SourceLocation, Verdict, WaiverRef } from "./verdict/verdict";
export type { BudgetDelta, DeltaRow } from "./verdict/budget-delta";
