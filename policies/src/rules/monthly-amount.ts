import type { BudgetPeriod } from "@cloudcost/api";

/** Months per budget period: amounts are compared per month, so quarterly ÷ 3 and annual ÷ 12. */
const MONTHS: Record<BudgetPeriod, number> = { monthly: 1, quarterly: 3, annual: 12 };

export function monthlyAmount(amount: number, period: BudgetPeriod): number {
  return amount / MONTHS[period];
}

/** The largest amount for `period` that stays within `perMonth`. */
export function periodAmount(perMonth: number, period: BudgetPeriod): number {
  return perMonth * MONTHS[period];
}

/** Amounts in messages: thousands separators, at most two decimals, and the currency code. */
export function formatMoney(amount: number, currency: string): string {
  return `${amount.toLocaleString("en-US", { maximumFractionDigits: 2 })} ${currency}`;
}
