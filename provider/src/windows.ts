import type { DateWindow } from "@cloudcost/api";

export type { DateWindow };

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d));

/** The calendar quarter before the one `date` falls in (UTC): for 2026-11-22, 2026-07-01 … 2026-09-30. */
export function lastQuarter(date: Date = new Date()): DateWindow {
  const startMonth = Math.floor(date.getUTCMonth() / 3) * 3 - 3;
  return { from: iso(utc(date.getUTCFullYear(), startMonth, 1)), to: iso(utc(date.getUTCFullYear(), startMonth + 3, 0)) };
}

/** The calendar month before the one `date` falls in (UTC). */
export function lastMonth(date: Date = new Date()): DateWindow {
  return { from: iso(utc(date.getUTCFullYear(), date.getUTCMonth() - 1, 1)), to: iso(utc(date.getUTCFullYear(), date.getUTCMonth(), 0)) };
}

/** The current month from its first day up to and including `date` (UTC). */
export function monthToDate(date: Date = new Date()): DateWindow {
  return { from: iso(utc(date.getUTCFullYear(), date.getUTCMonth(), 1)), to: iso(date) };
}
