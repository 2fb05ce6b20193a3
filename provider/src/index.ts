// First: an unsupported @pulumi/pulumi stops the import before anything else uses it.
import "./supported-sdk";

export { CloudGroup, type CloudGroupArgs } from "./cloud-group";
export { BudgetAlert, type BudgetAlertArgs, type ThresholdArgs, type PlannedAmountArgs, type AutoAdjustArgs } from "./budget-alert";
export type { CostFiltersArgs, CostFiltersOutput, TagFilterArgs } from "./cost-filters";
export { BUDGET_ALERT_DEFAULTS } from "./budget-alert-defaults";
export { SETTINGS_ENV } from "./runtime/settings-env";
export {
  ScheduledReport,
  type ScheduledReportArgs,
  type ScheduleArgs,
  type ScheduleOutput,
  type ReportKind,
  type DayOfWeek,
} from "./scheduled-report";
export type { ResourceKind } from "./dynamic-provider";
export { nativeTypeToken, kindOfType, type NativeTypeToken, type TypeToken } from "./resource-class";
export { getCostSummary, getCostByService, getCostByDay, getCostForecast, getCostComparison, getAccounts, type CostWindow } from "./cost";
export { getWebhookSigningSecret } from "./webhook-signing-secret";
export { lastMonth, lastQuarter, monthToDate, thisQuarter, type DateWindow } from "./windows";
export { assertSupportedVersion } from "./supported-sdk";
