import type * as api from "@cloudcost/api";
import type { DateWindow } from "@cloudcost/api";

export type { DateWindow };

/**
 * The contract's calendar periods, required at the first call: a program that names no window never loads the
 * contract (~70 ms of CPU a program run; issue 39).
 */
const periodContaining: typeof api.periodContaining = (period, date) =>
  (require("@cloudcost/api") as typeof api).periodContaining(period, date);

/** The first day of the month `months` before the one `date` falls in (UTC; Date.UTC rolls into earlier years). */
const monthsBefore = (date: Date, months: number) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - months, 1));

/** The calendar quarter `date` falls in (UTC), first to last day; the days after `date` are still to come. */
export function thisQuarter(date: Date = new Date()): DateWindow {
  return periodContaining("quarterly", date);
}

/** The calendar quarter before the one `date` falls in (UTC): for 2026-11-22, 2026-07-01 … 2026-09-30. */
export function lastQuarter(date: Date = new Date()): DateWindow {
  return periodContaining("quarterly", monthsBefore(date, 3));
}

/** The calendar month before the one `date` falls in (UTC). */
export function lastMonth(date: Date = new Date()): DateWindow {
  return periodContaining("monthly", monthsBefore(date, 1));
}

/** The current month from its first day up to and including `date` (UTC). */
export function monthToDate(date: Date = new Date()): DateWindow {
  return { from: periodContaining("monthly", date).from, to: date.toISOString().slice(0, 10) };
}
