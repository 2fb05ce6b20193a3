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
  if (currency === UNKNOWN || period === UNKNOWN) return [];
  const max = config.maxMonthlyAmount[currency];
  if (max === undefined) return [];
  const over = (value: number, what: string, field: string): string[] => {
    const perMonth = monthlyAmount(value, period);
    if (perMonth <= max) return [];
    const asMonthly = period === "monthly" ? "" : ` (${formatMoney(perMonth, currency)} per month)`;
    return [
      `${what} ${formatMoney(value, currency)} per ${periodNoun(period)}${asMonthly} is above the maximum of ${formatMoney(max, currency)} per month: ` +
        `lower ${field} to at most ${formatMoney(periodAmount(max, period), currency)} or raise maxMonthlyAmount.${currency}`,
    ];
  };
  const messages = amount === UNKNOWN ? [] : over(amount, "amount", "amount");
  // Issue 27: a planned amount replaces `amount` for its period, so each one must stay within the maximum too.
  if (alert.plannedAmounts !== UNKNOWN)
    alert.plannedAmounts.forEach((p, i) => {
      if (p !== UNKNOWN) messages.push(...over(p.amount, `the planned amount for ${p.periodStart}`, `plannedAmounts[${i}].amount`));
    });
  return messages;
}

function periodNoun(period: "monthly" | "quarterly" | "annual"): string {
  return { monthly: "month", quarterly: "quarter", annual: "year" }[period];
}

export const budgetAlertMaxAmount = composable(
  resourcePolicy(BudgetAlert, {
    name: "budget-alert-max-amount",
    description:
      "A budget alert's amount and each planned amount, normalised to a month, stay within the configured maximum for its currency.",
    enforcementLevel: "mandatory",
    config: MaxAmountConfig,
    read: readAlert,
    check: checkMaxAmount,
  }),
  MaxAmountConfig,
);
