import { BudgetAlert } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { UNKNOWN } from "../inputs/raw";
import { formatMoney } from "../rules/monthly-amount";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const ThresholdAmountsConfig = z.object({
  maxPercentOfAmount: z
    .number()
    .gt(0)
    .max(1000)
    .default(100)
    .describe("Largest absolute threshold, as a percent of the budget amount (and of each planned amount)."),
});
export type ThresholdAmountsConfig = z.output<typeof ThresholdAmountsConfig>;

/**
 * An absolute threshold (`{ amount, basis }`, issue 27) above the budget can only fire once the budget is
 * already exceeded — and when amounts change (a lower planned amount for a period) it silently stops being
 * a warning. Judged against `amount` and each planned amount; periods set from history (`autoAdjust`) are
 * only known to the service, and are not judged.
 */
export function checkThresholdAmounts(alert: AlertView, config: ThresholdAmountsConfig): string[] {
  const { amount, currency, thresholds, plannedAmounts } = alert;
  if (currency === UNKNOWN || thresholds === UNKNOWN) return [];
  const budgets: { label: string; value: number }[] = [];
  if (amount !== UNKNOWN) budgets.push({ label: "amount", value: amount });
  if (plannedAmounts !== UNKNOWN)
    for (const p of plannedAmounts) if (p !== UNKNOWN) budgets.push({ label: `the planned amount for ${p.periodStart}`, value: p.amount });
  const fc = (n: number) => formatMoney(n, currency);
  return thresholds.flatMap((t, i) => {
    if (t === UNKNOWN || t.amount === undefined) return [];
    const level = t.amount;
    const above = budgets.filter((b) => level > (b.value * config.maxPercentOfAmount) / 100);
    if (above.length === 0) return [];
    const limit = config.maxPercentOfAmount === 100 ? "" : ` × ${config.maxPercentOfAmount}%`;
    const smallest = Math.min(...above.map((b) => (b.value * config.maxPercentOfAmount) / 100));
    return [
      `thresholds[${i}] (amount ${fc(level)}, ${t.basis}) is above ${above.map((b) => `${b.label} ${fc(b.value)}${limit}`).join(", ")}: ` +
        `it would fire only after the budget is exceeded; lower it to at most ${fc(smallest)}, or use a percent threshold, which follows each period's amount`,
    ];
  });
}

export const budgetAlertThresholdAmounts = composable(
  resourcePolicy(BudgetAlert, {
    name: "budget-alert-threshold-amounts",
    description: "An absolute threshold is not above the budget: neither above amount nor above any planned amount (configurable).",
    enforcementLevel: "mandatory",
    config: ThresholdAmountsConfig,
    read: readAlert,
    check: checkThresholdAmounts,
  }),
  ThresholdAmountsConfig,
);
