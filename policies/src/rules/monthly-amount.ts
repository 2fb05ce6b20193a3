import { MONTHS_PER_PERIOD, type BudgetPeriod } from "@cloudcost/api";

export function monthlyAmount(amount: number, period: BudgetPeriod): number {
  return amount / MONTHS_PER_PERIOD[period];
}

/** The largest amount for `period` that stays within `perMonth`. */
export function periodAmount(perMonth: number, period: BudgetPeriod): number {
  return perMonth * MONTHS_PER_PERIOD[period];
}

/** Amounts in messages: thousands separators, at most two decimals, and the currency code. */
export function formatMoney(amount: number, currency: string): string {
  return `${amount.toLocaleString("en-US", { maximumFractionDigits: 2 })} ${currency}`;
}
