import type { BudgetPeriod, Threshold } from "@cloudcost/api";

/**
 * What an omitted `BudgetAlert` input means (decision; the contract requires these fields). The policy
 * pack judges declared alerts with the same defaults.
 */
export const BUDGET_ALERT_DEFAULTS: {
  readonly currency: string;
  readonly period: BudgetPeriod;
  readonly thresholds: readonly Threshold[];
} = {
  currency: "USD",
  period: "monthly",
  thresholds: [{ percent: 100, basis: "actual" }],
};
