import type { AlertFields, AmountSource } from "@cloudcost/api/contract";
import type { Costs } from "./cost-reads";

/** The amount a budget alert has in one period, and where it came from (issue 27). */
export interface BudgetAmount {
  amount: number;
  source: AmountSource;
}

/**
 * The amount of the period starting on `periodStart`: its planned amount when `plannedAmounts` names it;
 * with `autoAdjust`, the mean actual spend of the last N complete periods (history that cost nothing
 * leaves `amount`, so a new scope is not a zero budget that every threshold crosses at once); else `amount`.
 * A pure function of the cost data, so the value set at a period start is the value read all period.
 */
export function budgetAmount(costs: Costs, orgId: string, alert: AlertFields, periodStart: string): BudgetAmount {
  const planned = alert.plannedAmounts.find((p) => p.periodStart === periodStart);
  if (planned) return { amount: planned.amount, source: "planned" };
  if (alert.autoAdjust !== null) {
    const mean = costs.historyMean(orgId, alert, alert.period, periodStart, alert.autoAdjust.lookbackPeriods);
    if (mean > 0) return { amount: mean, source: "autoAdjust" };
  }
  return { amount: alert.amount, source: "amount" };
}

/** True when `date` (YYYY-MM-DD) is inside the alert's active window (`startDate`…`endDate`, both inclusive, either open). */
export function inWindow(alert: Pick<AlertFields, "startDate" | "endDate">, date: string): boolean {
  return (alert.startDate === null || date >= alert.startDate) && (alert.endDate === null || date <= alert.endDate);
}
