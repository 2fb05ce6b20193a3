import { Email, ResourceId, TimeZone, Timestamp, asReturned, page, uniqueBy } from "./common";
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

/**
 * When a report runs. `dayOfWeek` is required for (and only allowed with) weekly schedules, `dayOfMonth`
 * likewise for monthly ones; a monthly run on day 29–31 falls on the last day of shorter months.
 */
export const Schedule = z
  .object({
    frequency: Frequency,
    dayOfWeek: DayOfWeek.nullable().default(null),
    dayOfMonth: z.number().int().min(1).max(31).nullable().default(null),
    time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time of day HH:MM (24-hour)"),
    timezone: TimeZone,
  })
  .strict()
  .superRefine((s, ctx) => {
    const need = (field: "dayOfWeek" | "dayOfMonth", wanted: boolean) => {
      if (wanted && s[field] === null) ctx.addIssue({ code: "custom", path: [field], message: `is required for ${s.frequency} schedules` });
      if (!wanted && s[field] !== null) ctx.addIssue({ code: "custom", path: [field], message: `is only allowed for ${field === "dayOfWeek" ? "weekly" : "monthly"} schedules` });
    };
    need("dayOfWeek", s.frequency === "weekly");
    need("dayOfMonth", s.frequency === "monthly");
  })
  .openapi("Schedule");
export type Schedule = z.infer<typeof Schedule>;

export const ReportInput = z
  .object({
    name: z.string().trim().min(1).max(100),
    report: ReportKind,
    groupId: GroupId.nullable().default(null).openapi({ description: "Cloud Group the report covers; null for the whole organization" }),
    schedule: Schedule,
    format: ReportFormat.default("csv"),
    recipients: z
      .array(Email)
      .min(1)
      .max(MAX_RECIPIENTS)
      .refine(uniqueBy((e: string) => e), "must not contain the same address twice"),
    enabled: z.boolean().default(true),
  })
  .strict()
  .openapi("ReportInput");
export type ReportInput = z.input<typeof ReportInput>;
export type ReportFields = z.output<typeof ReportInput>;

/** A report as the service returns it: the input fields (defaults applied) plus server fields. */
export const ScheduledReport = z.object({
  ...asReturned(ReportInput.shape),
  id: ReportId,
  nextRunAt: Timestamp.nullable().openapi({ description: "next delivery in UTC; null while the report is disabled" }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .openapi("ScheduledReport");
export type ScheduledReport = z.infer<typeof ScheduledReport>;
export const ScheduledReportPage = page(ScheduledReport, "ScheduledReportPage");
