import { z } from "@cloudcost/api";
import { perCurrencyAmounts } from "../config/fields";
import { UNKNOWN } from "../inputs/raw";
import { formatMoney, monthlyAmount, periodAmount } from "../rules/monthly-amount";
import { StackView } from "./stack-view";
import { StackViolation, stackPolicy } from "./define";
import { composable } from "../compose";

export const AdjustedAmountConfig = z.object({
  maxMonthlyAmount: perCurrencyAmounts(
    { USD: 100_000 },
    "Largest amount the service may set from history (autoAdjust) per month, for each currency (quarterly ÷ 3, annual ÷ 12). A currency without an entry is not limited.",
  ),
});
export type AdjustedAmountConfig = z.output<typeof AdjustedAmountConfig>;

/**
 * An amount set from history (`autoAdjust`, issue 27) is computed by the service: the declared inputs do
 * not hold it, so a resource policy cannot judge it. It is the `effectiveAmount` output, which a stack
 * policy sees during `up` (AnalyzeStack gets outputs). A growing history can lift a budget past what any
 * declared amount may be; this holds it to the same per-month maximum as budget-alert-max-amount. In
 * preview the output is not known yet, and the alert is not judged.
 */
export function checkAdjustedAmount(stack: StackView, config: AdjustedAmountConfig): StackViolation[] {
  return stack.alerts.flatMap(({ urn, alert }) => {
    const { autoAdjust, effectiveAmount, currency, period } = alert;
    if (autoAdjust === UNKNOWN || autoAdjust === null) return [];
    if (effectiveAmount === UNKNOWN || effectiveAmount === null || currency === UNKNOWN || period === UNKNOWN) return [];
    const max = config.maxMonthlyAmount[currency];
    if (max === undefined || monthlyAmount(effectiveAmount, period) <= max) return [];
    return [
      {
        urn,
        message:
          `the amount set from history (autoAdjust over ${autoAdjust.lookbackPeriods} period(s)) is ${formatMoney(effectiveAmount, currency)}, ` +
          `above the maximum of ${formatMoney(periodAmount(max, period), currency)} per ${period === "monthly" ? "month" : period === "quarterly" ? "quarter" : "year"}: ` +
          `replace autoAdjust with plannedAmounts or a fixed amount within the maximum, or raise maxMonthlyAmount.${currency}`,
      },
    ];
  });
}

export const budgetAlertAdjustedAmount = composable(
  stackPolicy({
    name: "budget-alert-adjusted-amount",
    description: "An amount the service sets from history (autoAdjust: the effectiveAmount output) stays within the per-alert maximum.",
    enforcementLevel: "mandatory",
    config: AdjustedAmountConfig,
    check: checkAdjustedAmount,
  }),
  AdjustedAmountConfig,
);
