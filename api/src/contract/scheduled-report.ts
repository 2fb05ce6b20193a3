import { Email, MAX_RECIPIENTS, ResourceId, TimeZone, Timestamp, TrimmedName, asReturned, page, recipientSet } from "./common";
import { GroupId } from "./cloud-group";
import { CostFilters, isUnfiltered } from "./cost-filter";
import { WebhookUrl } from "./webhook-url";
import { z } from "./zod";

export const ReportId = ResourceId("rpt").openapi("ReportId", { example: "rpt_01j9z6w3k2m4n5p6q7r8" });

/**
 * What a report delivers: one kind per `/cost/*` read, and `budget_status` (issue 27): each budget alert
 * of the report's scope with its amount, actual and forecast spend, percent used and the thresholds
 * crossed in its current period at the run.
 */
export const ReportKind = z.enum(["summary", "services", "daily", "forecast", "comparison", "budget_status"]).openapi("ReportKind");
export type ReportKind = z.infer<typeof ReportKind>;
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

/** The fields a client sends to create (POST) or replace (PUT) a report, each with its own rules (see `ReportRequest`). */
export const ReportInput = z
  .object({
    name: TrimmedName(100),
    report: ReportKind,
    groupId: GroupId.nullable().default(null).openapi({ description: "Cloud Group the report covers; null for the whole organization" }),
    // `budget_status` reports take none: each alert's own filters apply (refused otherwise, below).
    filters: CostFilters.default({}),
    schedule: Schedule,
    format: ReportFormat.default("csv"),
    recipients: recipientSet(z.array(Email).max(MAX_RECIPIENTS).default([])).openapi({
      description: "e-mail addresses, each at most once; at least one unless `webhookUrl` is set (a spend feed)",
    }),
    webhookUrl: WebhookUrl.nullable().default(null).openapi({
      description:
        "receives every run as a signed `scheduled_report.delivered` event carrying the report's rows (a spend feed); treat as a secret",
    }),
    enabled: z.boolean().default(true),
  })
  .strict();
export type ReportInput = z.input<typeof ReportInput>;
export type ReportFields = z.output<typeof ReportInput>;

/** The rules across a report's fields: someone to deliver to; no filters on `budget_status` (each alert's own apply). */
export function reportRules(r: Pick<ReportFields, "recipients" | "webhookUrl" | "report" | "filters">, ctx: z.RefinementCtx): void {
  if (r.recipients.length === 0 && r.webhookUrl === null)
    ctx.addIssue({ code: "custom", path: ["recipients"], message: "needs at least one address unless webhookUrl is set" });
  if (r.report === "budget_status" && !isUnfiltered(r.filters))
    ctx.addIssue({ code: "custom", path: ["filters"], message: "must be empty for budget_status reports: each alert's own filters apply" });
}

/** What the service applies to a create or replace: `ReportInput`'s fields with `reportRules` (`ReportInput` stays pickable). */
export const ReportRequest = ReportInput.superRefine(reportRules).openapi("ReportInput", {
  // `reportRules`' first rule, which a JSON Schema can state: someone to deliver to.
  anyOf: [
    { required: ["recipients"], properties: { recipients: { type: "array", minItems: 1 } } },
    { required: ["webhookUrl"], properties: { webhookUrl: { type: "string" } } },
  ],
});

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
