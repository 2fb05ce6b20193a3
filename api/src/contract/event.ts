import { AlertId, AmountSource, Threshold } from "./budget-alert";
import { CalendarDate, Currency, Email, Money, PageQuery, ResourceId, Timestamp, page } from "./common";
import { GroupId } from "./cloud-group";
import { ReportFormat, ReportId, ReportKind } from "./scheduled-report";
import { z } from "./zod";

// Events (issue 15). The spec's Events section is "not shown": these shapes are our decision, documented
// here and in the OpenAPI document. Webhooks follow the Standard Webhooks specification
// (https://www.standardwebhooks.com, "Webhook headers" and "Signature scheme").

export const EventId = ResourceId("evt").openapi("EventId", { example: "evt_01j9z6w3k2m4n5p6q7r8" });

export const EventType = z.enum(["budget_alert.threshold_crossed", "scheduled_report.delivered"]).openapi("EventType");
export type EventType = z.infer<typeof EventType>;

/** What `budget_alert.threshold_crossed` carries: the alert, the threshold reached and the spend that reached it. */
export const ThresholdCrossedData = z
  .object({
    alertId: AlertId,
    alertName: z.string(),
    groupId: GroupId.nullable(),
    threshold: Threshold,
    amount: Money.openapi({ description: "the amount of the period the threshold was judged against (`effectiveAmount`), in `currency`" }),
    amountSource: AmountSource.openapi({ description: "where `amount` came from: `amount`, a planned amount or `autoAdjust`" }),
    thresholdAmount: Money.openapi({
      description: "the spend the threshold stands for: its `amount`, or `percent` of `amount` rounded up to the cent",
    }),
    currency: Currency,
    spend: Money.openapi({
      description: "`currentSpend` (basis `actual`) or `forecastedSpend` (basis `forecast`) when the threshold was reached",
    }),
    periodStart: CalendarDate,
    periodEnd: CalendarDate,
  })
  .openapi("ThresholdCrossedData");
export type ThresholdCrossedData = z.infer<typeof ThresholdCrossedData>;

/** What `scheduled_report.delivered` carries: the report and the window it covered. */
export const ReportDeliveredData = z
  .object({
    reportId: ReportId,
    reportName: z.string(),
    report: ReportKind,
    format: ReportFormat,
    from: CalendarDate.openapi({
      description: "first day of the window (daily: the previous day; weekly: the previous 7 days; monthly: the previous calendar month)",
    }),
    to: CalendarDate.openapi({ description: "last day of the window" }),
    recipients: z.array(Email),
    // Optional only because events recorded before issue 27 (in existing sandbox data folders) have none.
    columns: z.array(z.string()).optional().openapi({
      description: "the report's column names, as in its CSV header (absent only on events recorded before rows were carried)",
    }),
    rows: z.array(z.array(z.string())).optional().openapi({
      description:
        "the report's rows, cells as in its CSV (amounts with two decimals), so a webhook is a spend feed (absent only on events recorded before rows were carried)",
    }),
  })
  .openapi("ReportDeliveredData");
export type ReportDeliveredData = z.infer<typeof ReportDeliveredData>;

const eventFields = {
  id: EventId,
  createdAt: Timestamp.openapi({ description: "when it happened on the organization's clock (the sandbox's clock controls can move it)" }),
};

/** An event, discriminated by `type`. A webhook's body is exactly this JSON, as `GET /events/{eventId}` returns it. */
export const Event = z
  .discriminatedUnion("type", [
    z
      .object({ ...eventFields, type: z.literal("budget_alert.threshold_crossed"), data: ThresholdCrossedData })
      .openapi("ThresholdCrossedEvent"),
    z.object({ ...eventFields, type: z.literal("scheduled_report.delivered"), data: ReportDeliveredData }).openapi("ReportDeliveredEvent"),
  ])
  .openapi("Event");
export type Event = z.infer<typeof Event>;
export const EventPage = page(Event, "EventPage");

/** `GET /events`: the page parameters plus an optional filter on the type. */
export const EventQuery = PageQuery.extend({
  type: EventType.optional().openapi({ description: "only events of this type" }),
})
  .strict()
  .openapi("EventQuery");
export type EventQuery = z.infer<typeof EventQuery>;

export const DeliveryChannel = z.enum(["email", "webhook"]).openapi("DeliveryChannel");
export type DeliveryChannel = z.infer<typeof DeliveryChannel>;
export const DeliveryStatus = z.enum(["pending", "succeeded", "failed"]).openapi("DeliveryStatus");
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const DeliveryAttempt = z
  .object({
    at: Timestamp.openapi({ description: "when the attempt started (wall clock)" }),
    statusCode: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "the receiver's HTTP status; null when none came (timeout, connection error)" }),
    durationMs: z.number().int().min(0),
    error: z.string().optional().openapi({ description: "why the attempt failed, when it did" }),
  })
  .openapi("DeliveryAttempt");
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

/**
 * One channel target of an event: one e-mail delivery per recipient, one webhook delivery per `webhookUrl`.
 * A webhook that fails (non-2xx, timeout, connection error) is retried with exponential backoff, 5 attempts
 * in all; every attempt is listed.
 */
export const Delivery = z
  .object({
    channel: DeliveryChannel,
    target: z.string().openapi({ description: "the recipient's address or the webhook URL" }),
    status: DeliveryStatus,
    attempts: z.array(DeliveryAttempt),
  })
  .openapi("Delivery");
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryList = z.object({ items: z.array(Delivery) }).openapi("DeliveryList");
export type DeliveryList = z.infer<typeof DeliveryList>;

/**
 * The organization's webhook signing secret (Standard Webhooks: `whsec_` + base64 of the key). Treat as a
 * secret: it proves that a webhook came from the service.
 */
export const SigningSecret = z
  .object({
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must be a Standard Webhooks secret (whsec_ + base64)")
      .openapi({ example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }),
  })
  .openapi("SigningSecret");
export type SigningSecret = z.infer<typeof SigningSecret>;
