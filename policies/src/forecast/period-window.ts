import type { BudgetPeriod } from "@cloudcost/api";

/** An inclusive window of calendar dates, YYYY-MM-DD, as the `/cost/*` reads take it. */
export interface DateWindow {
  from: string;
  to: string;
}

const MONTHS_PER_PERIOD: Record<BudgetPeriod, number> = { monthly: 1, quarterly: 3, annual: 12 };

/**
 * The budget period containing `now`, in UTC calendar terms (decision: the service's periods are
 * calendar months, quarters starting in January/April/July/October, and calendar years).
 */
export function currentPeriodWindow(period: BudgetPeriod, now: Date): DateWindow {
  const length = MONTHS_PER_PERIOD[period];
  const year = now.getUTCFullYear();
  const firstMonth = Math.floor(now.getUTCMonth() / length) * length;
  const from = new Date(Date.UTC(year, firstMonth, 1));
  const to = new Date(Date.UTC(year, firstMonth + length, 0));
  return { from: isoDate(from), to: isoDate(to) };
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}
