import { BudgetAlert } from "@cloudcost/pulumi";
import { z } from "@cloudcost/api";
import { perCurrencyAmounts } from "../config/fields";
import { AlertView, readAlert } from "../inputs/budget-alert";
import { UNKNOWN } from "../inputs/raw";
import { formatMoney, monthlyAmount, periodAmount } from "../rules/monthly-amount";
import { resourcePolicy } from "./define";
import { composable } from "../compose";

export const MaxAmountConfig = z.object({
  maxMonthlyAmount: perCurrencyAmounts(
    { USD: 100_000 },
    "Largest budget per month for each currency (quarterly amounts count ÷ 3, annual ÷ 12). A currency without an entry is not limited.",
  ),
});
export type MaxAmountConfig = z.output<typeof MaxAmountConfig>;

export function checkMaxAmount(alert: AlertView, config: MaxAmountConfig): string[] {
  const { amount, currency, period } = alert;
  if (amount === UNKNOWN || currency === UNKNOWN || period === UNKNOWN) return [];
  const max = config.maxMonthlyAmount[currency];
  if (max === undefined) return [];
  const perMonth = monthlyAmount(amount, period);
  if (perMonth <= max) return [];
  const asMonthly = period === "monthly" ? "" : ` (${formatMoney(perMonth, currency)} per month)`;
  return [
    `amount ${formatMoney(amount, currency)} per ${periodNoun(period)}${asMonthly} is above the maximum of ${formatMoney(max, currency)} per month: ` +
      `lower amount to at most ${formatMoney(periodAmount(max, period), currency)} or raise maxMonthlyAmount.${currency}`,
  ];
}

function periodNoun(period: "monthly" | "quarterly" | "annual"): string {
  return { monthly: "month", quarterly: "quarter", annual: "year" }[period];
}

export const budgetAlertMaxAmount = composable(
  resourcePolicy(BudgetAlert, {
    name: "budget-alert-max-amount",
    description: "A budget alert's amount, normalised to a month, stays within the configured maximum for its currency.",
    enforcementLevel: "mandatory",
    config: MaxAmountConfig,
    read: readAlert,
    check: checkMaxAmount,
  }),
  MaxAmountConfig,
);
