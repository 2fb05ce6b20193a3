import type { DateWindow, Schedule } from "@cloudcost/api/contract";
import { DateTime } from "luxon";
import { scheduleZone } from "../store/schedule-zone";

/**
 * The days a report run covers (issue 15), counted from the run's date in the schedule's time zone:
 * daily = the previous day; weekly = the previous 7 days; monthly = the previous calendar month.
 */
export function reportWindow(schedule: Schedule, runAt: Date): DateWindow {
  const runDay = DateTime.fromJSDate(runAt, { zone: scheduleZone(schedule.timezone) }).startOf("day");
  const day = (d: DateTime): string => d.toISODate() ?? "";
  if (schedule.frequency === "daily") return { from: day(runDay.minus({ days: 1 })), to: day(runDay.minus({ days: 1 })) };
  if (schedule.frequency === "weekly") return { from: day(runDay.minus({ days: 7 })), to: day(runDay.minus({ days: 1 })) };
  const previousMonth = runDay.startOf("month").minus({ months: 1 });
  return { from: day(previousMonth), to: day(previousMonth.endOf("month")) };
}
