import { z } from "@cloudcost/api";
import { perCurrencyAmounts } from "../config/fields";
import { UNKNOWN } from "../inputs/raw";
import { formatMoney, monthlyAmount } from "../rules/monthly-amount";
import { StackView } from "./stack-view";
import { StackViolation, stackPolicy } from "./define";
import { composable } from "../compose";

export const TotalCapConfig = z.object({
  maxTotalMonthlyAmount: perCurrencyAmounts(
    { USD: 1_000_000 },
    "Cap on the sum of all budgets per month, for each currency (amounts are summed only within one currency). A currency without an entry is not capped.",
  ),
  includeOrganizationWide: z.boolean().default(true).describe("Count organization-wide alerts (no groupId) in the sum."),
  includeDisabled: z.boolean().default(false).describe("Count disabled alerts (enabled: false) in the sum."),
});
export type TotalCapConfig = z.output<typeof TotalCapConfig>;

interface Contribution {
  urn: string;
  name: string;
  perMonth: number;
}

/**
 * Sums the known monthly amounts per currency. Budget amounts are positive, so a sum of the known ones
 * that is over the cap is over it whatever the unknown ones turn out to be: no false violation in preview.
 */
export function checkTotalCap(stack: StackView, config: TotalCapConfig): StackViolation[] {
  const byCurrency = new Map<string, Contribution[]>();
  for (const { urn, name, alert } of stack.alerts) {
    if (alert.amount === UNKNOWN || alert.currency === UNKNOWN || alert.period === UNKNOWN) continue;
    if (!config.includeDisabled && alert.enabled === false) continue;
    if (!config.includeOrganizationWide && alert.groupId === null) continue;
    const list = byCurrency.get(alert.currency) ?? [];
    list.push({ urn, name, perMonth: monthlyAmount(alert.amount, alert.period) });
    byCurrency.set(alert.currency, list);
  }
  const violations: StackViolation[] = [];
  for (const [currency, list] of byCurrency) {
    const cap = config.maxTotalMonthlyAmount[currency];
    const total = list.reduce((sum, c) => sum + c.perMonth, 0);
    if (cap === undefined || total <= cap) continue;
    const largest = [...list].sort((a, b) => b.perMonth - a.perMonth);
    const names = largest
      .slice(0, 5)
      .map((c) => `${c.name} ${formatMoney(c.perMonth, currency)}`)
      .join(", ");
    violations.push({
      urn: largest[0]!.urn,
      message:
        `the budgets in ${currency} add up to ${formatMoney(total, currency)} per month, above the cap of ${formatMoney(cap, currency)}: ` +
        `lower budgets by ${formatMoney(total - cap, currency)} per month (largest: ${names}${list.length > 5 ? ", …" : ""}) or raise maxTotalMonthlyAmount.${currency}`,
    });
  }
  return violations;
}

export const budgetTotalCap = composable(
  stackPolicy({
    name: "budget-total-cap",
    description: "The sum of all budgets in the stack, per month and per currency, stays under the configured cap.",
    enforcementLevel: "mandatory",
    config: TotalCapConfig,
    check: checkTotalCap,
  }),
  TotalCapConfig,
);
