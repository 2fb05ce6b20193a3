import type { Scope } from "@cloudcost/api/contract";
import {
  AwsAccountId,
  AzureSubscriptionId,
  EventId,
  PageQuery,
  Timestamp,
  TrimmedName,
  TwoDecimalMoney,
  page,
  z,
} from "@cloudcost/api/contract";
import { Duration } from "luxon";

// The sandbox controls under `/sandbox/v1` (issue 15): sandbox-only, so they are NOT part of the
// service's contract or its OpenAPI document (api/openapi.json); sandbox/README.md documents them.

/** The control endpoints, below `/sandbox/v1` (OpenAPI-style paths): the routes are registered from this list, and the 405 handler knows them. */
export const CONTROL_ROUTES = [
  { method: "GET", path: "/clock", scope: "read" },
  { method: "POST", path: "/clock", scope: "write" },
  { method: "POST", path: "/spend", scope: "write" },
  { method: "GET", path: "/outbox", scope: "read" },
  { method: "DELETE", path: "/outbox", scope: "write" },
  { method: "GET", path: "/outbox/{messageId}/attachments/{n}", scope: "read" },
] as const satisfies readonly { method: "GET" | "POST" | "DELETE"; path: string; scope: Scope }[];
export type ControlRoute = (typeof CONTROL_ROUTES)[number];
/** `METHOD /path` of each control (distributed over the list, so only the pairs that exist). */
export type ControlKey = ControlRoute extends infer R ? (R extends ControlRoute ? `${R["method"]} ${R["path"]}` : never) : never;

/** How far one clock change may move an organization's clock (the evaluation walks every day in between). */
export const MAX_CLOCK_STEP_DAYS = 366;
/** The latest time a clock may be set to, counted from the real time. */
export const MAX_CLOCK_AHEAD_YEARS = 10;
/** The largest single spend injection, in the organization's currency. */
export const MAX_INJECTED_AMOUNT = 1_000_000_000;

/** `GET /sandbox/v1/clock` and the answer of `POST`: the organization's time, and whether it is set (frozen) or real. */
export const ClockState = z.object({
  now: Timestamp,
  frozen: z.boolean(),
});
export type ClockState = z.infer<typeof ClockState>;

/** An ISO 8601 duration luxon understands (`P8D`, `PT1H`, `P1M`), positive. */
export const IsoDuration = z
  .string()
  .max(64)
  .refine((text) => {
    const d = Duration.fromISO(text);
    return d.isValid && d.toMillis() > 0;
  }, "must be a positive ISO 8601 duration, e.g. P8D, PT1H, P1M");

/** `POST /sandbox/v1/clock`: exactly one of `now` (an absolute time) or `advance` (a duration). */
export const ClockChange = z.union([
  z
    .object({
      now: z.string().datetime({ offset: true, message: "must be an ISO 8601 date-time with a time zone, e.g. 2026-12-01T00:00:00Z" }),
    })
    .strict(),
  z.object({ advance: IsoDuration }).strict(),
]);
export type ClockChange = z.infer<typeof ClockChange>;

/** `POST /sandbox/v1/spend`: spend added on the organization's current day. */
export const SpendInjection = z
  .object({
    // One message for both forms: a union would report only the AWS rule to someone who typed an Azure ID.
    accountId: z.string().refine((v) => AwsAccountId.safeParse(v).success || AzureSubscriptionId.safeParse(v).success, {
      error: "must be a connected account's ID (AWS: 12 digits; Azure: a GUID)",
    }),
    service: TrimmedName(100),
    amount: TwoDecimalMoney.gt(0, "must be greater than 0 (spend cannot be taken back)").max(
      MAX_INJECTED_AMOUNT,
      `must be at most ${MAX_INJECTED_AMOUNT}`,
    ),
  })
  .strict();
export type SpendInjection = z.infer<typeof SpendInjection>;

/** The answer of a spend injection: what was recorded, on which day of the organization's clock. */
export const InjectedSpend = z.object({
  provider: z.enum(["aws", "azure"]),
  accountId: z.string(),
  service: z.string(),
  amount: z.number(),
  currency: z.string(),
  date: z.string(),
});
export type InjectedSpend = z.infer<typeof InjectedSpend>;

export const MessageId = z.string().regex(/^msg_[0-9a-z]{10,40}$/, "must be an ID starting with msg_");

export const AttachmentInfo = z.object({ filename: z.string(), contentType: z.string(), size: z.number().int() });
export type AttachmentInfo = z.infer<typeof AttachmentInfo>;

/** A captured e-mail: one per recipient of an event. */
export const OutboxMessage = z.object({
  id: MessageId,
  eventId: EventId,
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  attachments: z.array(AttachmentInfo),
  createdAt: Timestamp,
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;
export const OutboxPage = page(OutboxMessage, "OutboxPage");
export const OutboxQuery = PageQuery;

/** `GET /sandbox/v1/outbox/{messageId}/attachments/{n}`: `n` counts from 0. */
export const AttachmentParams = z
  .object({
    messageId: MessageId,
    n: z
      .string()
      .regex(/^(0|[1-9]\d{0,2})$/, "must be an attachment index (0, 1, …)")
      .transform(Number),
  })
  .strict();
