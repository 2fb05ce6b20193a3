import type { DayOfWeek, Schedule } from "@cloudcost/api/contract";
import { DateTime } from "luxon";
import { scheduleZone } from "./schedule-zone";

/** Luxon numbers weekdays 1 (Monday) to 7 (Sunday). */
const WEEKDAY: Readonly<Record<DayOfWeek, number>> = {
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
  sunday: 7,
};

function runsOn(schedule: Schedule, day: DateTime): boolean {
  if (schedule.frequency === "weekly") return day.weekday === WEEKDAY[schedule.dayOfWeek ?? "monday"];
  // A monthly run on day 29–31 falls on the last day of shorter months (contract: `Schedule`).
  if (schedule.frequency === "monthly") return day.day === Math.min(schedule.dayOfMonth ?? 1, day.daysInMonth ?? 28);
  return true;
}

/**
 * The next delivery strictly after `now`, as an RFC 3339 UTC timestamp. The wall-clock time is read in
 * the schedule's IANA zone; a time skipped by a DST change moves forward (luxon's rule).
 */
export function nextRunAt(schedule: Schedule, now: Date = new Date()): string {
  const [hour, minute] = schedule.time.split(":").map(Number) as [number, number];
  const start = DateTime.fromJSDate(now, { zone: scheduleZone(schedule.timezone) }).startOf("day");
  // Two months of days always contain the next run of any schedule.
  for (let offset = 0; offset <= 62; offset++) {
    const day = start.plus({ days: offset });
    if (!runsOn(schedule, day)) continue;
    const at = DateTime.fromObject(
      { year: day.year, month: day.month, day: day.day, hour, minute },
      { zone: scheduleZone(schedule.timezone) },
    );
    if (at.toMillis() > now.getTime()) return at.toUTC().toISO({ suppressMilliseconds: false }) ?? "";
  }
  throw new Error(`no run within two months for schedule ${JSON.stringify(schedule)}`);
}
