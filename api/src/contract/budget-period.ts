import { z } from "./zod";

export const BudgetPeriod = z.enum(["monthly", "quarterly", "annual"]).openapi("BudgetPeriod");
export type BudgetPeriod = z.infer<typeof BudgetPeriod>;

/** An inclusive window of calendar dates (YYYY-MM-DD, UTC), as the `/cost/*` reads take it. */
export interface DateWindow {
  from: string;
  to: string;
}

/**
 * Months in each budget period. Decision: periods are calendar months, quarters starting in January,
 * April, July and October, and calendar years, in UTC; the service reports an alert's spend for the
 * period containing today (`periodStart`/`periodEnd`), and amounts compare per month (quarterly ÷ 3,
 * annual ÷ 12).
 */
export const MONTHS_PER_PERIOD: Readonly<Record<BudgetPeriod, number>> = { monthly: 1, quarterly: 3, annual: 12 };

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** The budget period containing `date`, as inclusive first and last days. */
export function periodContaining(period: BudgetPeriod, date: Date): DateWindow {
  const months = MONTHS_PER_PERIOD[period];
  const year = date.getUTCFullYear();
  const firstMonth = Math.floor(date.getUTCMonth() / months) * months;
  return { from: isoDate(new Date(Date.UTC(year, firstMonth, 1))), to: isoDate(new Date(Date.UTC(year, firstMonth + months, 0))) };
}

/** How a period of each kind starts, for messages and the document. */
export const PERIOD_START_RULE = "monthly: the 1st of a month; quarterly: 1 January, April, July or October; annual: 1 January";

/** True when `date` (YYYY-MM-DD) is the first day of a `period` period. */
export function isPeriodStart(period: BudgetPeriod, date: string): boolean {
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && periodContaining(period, d).from === date;
}

/** The period right before the one starting on `periodStart`. */
export function previousPeriod(period: BudgetPeriod, periodStart: string): DateWindow {
  const lastDay = new Date(Date.parse(`${periodStart}T00:00:00Z`) - 86_400_000);
  return periodContaining(period, lastDay);
}
