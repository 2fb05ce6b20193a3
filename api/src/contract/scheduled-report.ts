import { Email, ResourceId, TimeZone, Timestamp, TrimmedName, asReturned, page, uniqueBy } from "./common";
import { GroupId } from "./cloud-group";
import { MAX_RECIPIENTS } from "./budget-alert";
import { z } from "./zod";

export const ReportId = ResourceId("rpt").openapi("ReportId", { example: "rpt_01j9z6w3k2m4n5p6q7r8" });

/** Which cost read a report delivers: one per `/cost/*` endpoint. */
export const ReportKind = z.enum(["summary", "services", "daily", "forecast", "comparison"]).openapi("ReportKind");
export const ReportFormat = z.enum(["csv", "pdf"]).openapi("ReportFormat");
export const Frequency = z.enum(["daily", "weekly", "monthly"]).openapi("Frequency");
export type Frequency = z.infer<typeof Frequency>;
export const DayOfWeek = z.enum(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]).openapi("DayOfWeek");
export type DayOfWeek = z.infer<typeof DayOfWeek>;

const Time = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time of day HH:MM (24-hour)")
  .openapi({ description: "time of day, HH:MM (24-hour), in `timezone`" });

/** A day field a frequency requires: absent or null is "required", anything else the field's own error. */
function requiredFor(frequency: Frequency) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined || issue.input === null ? `is required for ${frequency} schedules` : undefined;
}
/** A day field a frequency does not take: absent or null only (the service answers null). */
const onlyFor = (frequency: Frequency) => z.null({ error: `is only allowed for ${frequency} schedules` }).default(null);

/**
 * When a report runs: a union discriminated by `frequency`. `dayOfWeek` is required for (and only allowed
 * with) weekly schedules, `dayOfMonth` likewise for monthly ones; a monthly run on day 29–31 falls on the
 * last day of shorter months.
 */
export const Schedule = z
  .discriminatedUnion("frequency", [
    z
      .object({
        frequency: z.literal("daily"),
        dayOfWeek: onlyFor("weekly"),
        dayOfMonth: onlyFor("monthly"),
        time: Time,
        timezone: TimeZone,
      })
      .strict()
      .openapi("DailySchedule"),
    z
      .object({
        frequency: z.literal("weekly"),
        dayOfWeek: z.enum(DayOfWeek.options, { error: requiredFor("weekly") }),
        dayOfMonth: onlyFor("monthly"),
        time: Time,
        timezone: TimeZone,
      })
      .strict()
      .openapi("WeeklySchedule"),
    z
      .object({
        frequency: z.literal("monthly"),
        dayOfWeek: onlyFor("weekly"),
        dayOfMonth: z
          .number({ error: requiredFor("monthly") })
          .int()
          .min(1)
          .max(31),
        time: Time,
        timezone: TimeZone,
      })
      .strict()
      .openapi("MonthlySchedule"),
  ])
  .openapi("Schedule");
export type Schedule = z.infer<typeof Schedule>;

export const ReportInput = z
  .object({
    name: TrimmedName(100),
    report: ReportKind,
    groupId: GroupId.nullable().default(null).openapi({ description: "Cloud Group the report covers; null for the whole organization" }),
    schedule: Schedule,
    format: ReportFormat.default("csv"),
    recipients: z
      .array(Email)
      .min(1)
      .max(MAX_RECIPIENTS)
      .refine(
        uniqueBy((e: string) => e),
        "must not contain the same address twice",
      )
      .openapi({ uniqueItems: true, description: "e-mail addresses, each at most once (compared case-insensitively, after trimming)" }),
    enabled: z.boolean().default(true),
  })
  .strict()
  .openapi("ReportInput");
export type ReportInput = z.input<typeof ReportInput>;
export type ReportFields = z.output<typeof ReportInput>;

/** A report as the service returns it: the input fields (defaults applied) plus server fields. */
export const ScheduledReport = z
  .object({
    ...asReturned(ReportInput.shape),
    id: ReportId,
    nextRunAt: Timestamp.nullable().openapi({
      description: "next delivery in UTC, on the organization's clock (sandbox clock controls move it); null while the report is disabled",
    }),
    lastRunAt: Timestamp.nullable().openapi({ description: "when the report was last delivered (UTC); null until its first run" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("ScheduledReport");
export type ScheduledReport = z.infer<typeof ScheduledReport>;
export const ScheduledReportPage = page(ScheduledReport, "ScheduledReportPage");
