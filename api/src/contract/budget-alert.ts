import {
  CalendarDate,
  Currency,
  Email,
  Money,
  ResourceId,
  Timestamp,
  TrimmedName,
  MAX_RECIPIENTS,
  TwoDecimalMoney,
  asReturned,
  page,
  recipientSet,
  uniqueBy,
} from "./common";
import { isLoopbackHostname, parseUrl } from "./loopback";
import { BudgetPeriod } from "./budget-period";
import { GroupId } from "./cloud-group";
import { z } from "./zod";

export const AlertId = ResourceId("alr").openapi("AlertId", { example: "alr_01j9z6w3k2m4n5p6q7r8" });
export const ThresholdBasis = z.enum(["actual", "forecast"]).openapi("ThresholdBasis");

export const Threshold = z
  .object({
    percent: z.number().gt(0).max(1000).openapi({ description: "percent of the budget amount, > 0 and ≤ 1000" }),
    basis: ThresholdBasis.openapi({ description: "`actual`: spend so far reaches it; `forecast`: the period's forecast reaches it" }),
  })
  .strict()
  .openapi("Threshold");
export type Threshold = z.infer<typeof Threshold>;

export const MAX_THRESHOLDS = 10;

/**
 * https anywhere; plain http only to this machine. Judged by the WHATWG-parsed host, never by a string
 * prefix (`http://localhost:1@evil.example/` is a request to evil.example).
 */
function isAllowedWebhook(text: string): boolean {
  const url = parseUrl(text);
  if (!url) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHostname(url.hostname));
}

export const WebhookUrl = z
  .string()
  .url("must be an absolute URL")
  .max(2048)
  .refine(isAllowedWebhook, "must be an https URL (plain http only to localhost, 127.0.0.1 or [::1])")
  .openapi({
    description: "an absolute https URL; plain http only to a loopback host (localhost, 127.0.0.1 or [::1]), judged by the parsed host",
  });

/** What a client sends to create (POST) or replace (PUT) an alert. */
export const AlertInput = z
  .object({
    name: TrimmedName(100),
    amount: TwoDecimalMoney.gt(0).max(1e12),
    currency: Currency,
    period: BudgetPeriod,
    groupId: GroupId.nullable().default(null).openapi({ description: "Cloud Group the budget covers; null for the whole organization" }),
    thresholds: z
      .array(Threshold)
      .min(1)
      .max(MAX_THRESHOLDS)
      .refine(
        uniqueBy((t: Threshold) => `${t.basis}:${t.percent}`),
        "must not contain the same percent and basis twice",
      )
      .openapi({ uniqueItems: true, description: "no two thresholds with the same percent and basis" }),
    recipients: recipientSet(z.array(Email).max(MAX_RECIPIENTS).default([])),
    webhookUrl: WebhookUrl.nullable().default(null).openapi({
      description:
        "called when a threshold is crossed: an absolute https URL (plain http only for localhost and 127.0.0.1); treat as a secret",
    }),
    enabled: z.boolean().default(true),
  })
  .strict()
  .openapi("AlertInput");
export type AlertInput = z.input<typeof AlertInput>;
export type AlertFields = z.output<typeof AlertInput>;

/** An alert as the service returns it: the input fields (defaults applied) plus server fields. */
export const BudgetAlert = z
  .object({
    ...asReturned(AlertInput.shape),
    id: AlertId,
    currentSpend: Money.openapi({ description: "spend of the alert's scope in the current period so far, in `spendCurrency`" }),
    forecastedSpend: Money.openapi({ description: "forecast spend of the alert's scope for the whole current period, in `spendCurrency`" }),
    spendCurrency: z.string().openapi({ description: "the organization's billing currency" }),
    periodStart: CalendarDate.openapi({ description: "first day of the current period (UTC)" }),
    periodEnd: CalendarDate.openapi({ description: "last day of the current period (UTC)" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("BudgetAlert");
export type BudgetAlert = z.infer<typeof BudgetAlert>;
export const BudgetAlertPage = page(BudgetAlert, "BudgetAlertPage");
