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
import { BudgetPeriod, isPeriodStart, PERIOD_START_RULE } from "./budget-period";
import { GroupId } from "./cloud-group";
import { CostFilters } from "./cost-filter";
import { WebhookUrl } from "./webhook-url";
import { z } from "./zod";

export const AlertId = ResourceId("alr").openapi("AlertId", { example: "alr_01j9z6w3k2m4n5p6q7r8" });
export const ThresholdBasis = z.enum(["actual", "forecast"]).openapi("ThresholdBasis");

/** Money a client sends for a budget: whole cents, > 0, at most 10^12. */
const BudgetMoney = TwoDecimalMoney.gt(0).max(1e12);

/**
 * A threshold: `percent` of the period's amount (`effectiveAmount`) or an absolute `amount` in the alert's
 * currency — exactly one of the two (issue 27). `recipients` routes this threshold's e-mail: left out, it
 * goes to the alert's `recipients`; a list (possibly empty: webhook only) replaces them. Returned as sent.
 */
export const Threshold = z
  .object({
    percent: z.number().gt(0).max(1000).optional().openapi({ description: "percent of the period's amount, > 0 and ≤ 1000" }),
    amount: BudgetMoney.optional().openapi({ description: "an absolute spend in the alert's currency, whole cents, > 0" }),
    basis: ThresholdBasis.openapi({ description: "`actual`: spend so far reaches it; `forecast`: the period's forecast reaches it" }),
    recipients: recipientSet(z.array(Email).max(MAX_RECIPIENTS)).optional().openapi({
      description:
        "who gets this threshold's e-mail instead of the alert's `recipients`; `[]`: nobody (webhook only); left out: the alert's",
    }),
  })
  .strict()
  .superRefine((t, ctx) => {
    if ((t.percent === undefined) === (t.amount === undefined))
      ctx.addIssue({
        code: "custom",
        path: [t.percent === undefined ? "percent" : "amount"],
        message: "give exactly one of percent and amount",
      });
  })
  .openapi("Threshold", { oneOf: [{ required: ["percent"] }, { required: ["amount"] }] });
export type ThresholdInput = z.input<typeof Threshold>;
export type Threshold = z.output<typeof Threshold>;

/** What makes two thresholds the same (and an event's dedupe key): basis and level, recipients aside. */
export const thresholdKey = (t: Pick<Threshold, "basis" | "percent" | "amount">): string =>
  t.percent !== undefined ? `${t.basis}:${t.percent}` : `${t.basis}:amount:${t.amount}`;

export const MAX_THRESHOLDS = 10;
export const MAX_PLANNED_AMOUNTS = 60;

/** One period's own amount (AWS planned budget limits): it replaces `amount` for the period starting on `periodStart`. */
export const PlannedAmount = z
  .object({
    periodStart: CalendarDate.openapi({ description: `first day of a period of the alert's kind (${PERIOD_START_RULE})` }),
    amount: BudgetMoney,
  })
  .strict()
  .openapi("PlannedAmount");
export type PlannedAmount = z.infer<typeof PlannedAmount>;

/** Amounts from history: each period's amount is the mean actual spend of the last `lookbackPeriods` complete periods. */
export const AutoAdjust = z
  .object({ lookbackPeriods: z.number().int().min(1).max(12).openapi({ description: "complete periods to average, 1 to 12" }) })
  .strict()
  .openapi("AutoAdjust");
export type AutoAdjust = z.infer<typeof AutoAdjust>;

/** Where the current period's amount came from. */
export const AmountSource = z.enum(["amount", "planned", "autoAdjust"]).openapi("AmountSource");
export type AmountSource = z.infer<typeof AmountSource>;

type AlertShape = { period: BudgetPeriod; plannedAmounts: PlannedAmount[]; autoAdjust: AutoAdjust | null };
type Window = { startDate: string | null; endDate: string | null };

/**
 * The rules across an alert's fields: planned amounts start periods of the alert's kind; one source of
 * amounts; a window in order. `AlertRequest` applies them; a client validating a partial object (the
 * provider's Check with preview unknowns) applies them when every field they read is known.
 */
export function alertRules(a: AlertShape & Window, ctx: z.RefinementCtx): void {
  a.plannedAmounts.forEach((p, i) => {
    if (!isPeriodStart(a.period, p.periodStart))
      ctx.addIssue({
        code: "custom",
        path: ["plannedAmounts", i, "periodStart"],
        message: `must be the first day of a ${a.period} period (${PERIOD_START_RULE})`,
      });
  });
  if (a.autoAdjust !== null && a.plannedAmounts.length > 0)
    ctx.addIssue({ code: "custom", path: ["autoAdjust"], message: "cannot be combined with plannedAmounts: choose one source of amounts" });
  if (a.startDate !== null && a.endDate !== null && a.endDate < a.startDate)
    ctx.addIssue({ code: "custom", path: ["endDate"], message: "must not be before startDate" });
}

/** The fields a client sends to create (POST) or replace (PUT) an alert, each with its own rules (see `AlertRequest`). */
export const AlertInput = z
  .object({
    name: TrimmedName(100),
    amount: BudgetMoney.openapi({
      description: "the budget per period; `plannedAmounts` replace it for the periods they name, `autoAdjust` sets it from history",
    }),
    currency: Currency,
    period: BudgetPeriod,
    groupId: GroupId.nullable().default(null).openapi({ description: "Cloud Group the budget covers; null for the whole organization" }),
    filters: CostFilters.default({}),
    thresholds: z
      .array(Threshold)
      .min(1)
      .max(MAX_THRESHOLDS)
      .refine(uniqueBy(thresholdKey), "must not contain the same level (percent or amount) and basis twice")
      // `uniqueItems` states the part of the rule a JSON Schema validator can check (identical items).
      .openapi({
        uniqueItems: true,
        description: "no two thresholds with the same percent (or amount) and basis, whatever their recipients",
      }),
    recipients: recipientSet(z.array(Email).max(MAX_RECIPIENTS).default([])),
    webhookUrl: WebhookUrl.nullable().default(null).openapi({
      description:
        "called when a threshold is crossed: an absolute https URL (plain http only for localhost and 127.0.0.1); treat as a secret",
    }),
    enabled: z.boolean().default(true),
    plannedAmounts: z
      .array(PlannedAmount)
      .max(MAX_PLANNED_AMOUNTS)
      .refine(
        uniqueBy((p: PlannedAmount) => p.periodStart),
        "must not name the same periodStart twice",
      )
      .default([])
      .openapi({ uniqueItems: true, description: "per-period amounts, returned as sent; `[]` (the default) is none" }),
    autoAdjust: AutoAdjust.nullable().default(null).openapi({
      description: "set each period's amount from history (not with `plannedAmounts`); `amount` applies while history is empty",
    }),
    startDate: CalendarDate.nullable()
      .default(null)
      .openapi({ description: "first day the alert is active (any day, updatable at any time); null: since ever" }),
    endDate: CalendarDate.nullable()
      .default(null)
      .openapi({ description: "last day the alert is active, not before `startDate` (updatable at any time); null: no end" }),
  })
  .strict();
export type AlertInput = z.input<typeof AlertInput>;
export type AlertFields = z.output<typeof AlertInput>;

/**
 * What the service applies to a create (POST) or replace (PUT): `AlertInput`'s fields with `alertRules`.
 * `AlertInput` itself stays a plain object schema, so clients can `pick`, `omit` and `extend` it (zod
 * refuses those on a refined object).
 */
export const AlertRequest = AlertInput.superRefine(alertRules).openapi("AlertInput");

/** An alert as the service returns it: the input fields (defaults applied) plus server fields. */
export const BudgetAlert = z
  .object({
    ...asReturned(AlertInput.shape),
    id: AlertId,
    effectiveAmount: Money.openapi({
      description: "the amount of the current period: its planned amount, the history mean (`autoAdjust`) or `amount`; an output",
    }),
    effectiveAmountSource: AmountSource.openapi({ description: "where `effectiveAmount` came from" }),
    active: z
      .boolean()
      .openapi({ description: "enabled and today (the organization's clock) within `startDate`…`endDate`: the alert evaluates and fires" }),
    currentSpend: Money.openapi({
      description: "spend of the alert's scope and filters in the current period so far, in `spendCurrency`",
    }),
    forecastedSpend: Money.openapi({
      description: "forecast spend of the alert's scope and filters for the whole current period, in `spendCurrency`",
    }),
    spendCurrency: z.string().openapi({ description: "the organization's billing currency" }),
    periodStart: CalendarDate.openapi({ description: "first day of the current period (UTC)" }),
    periodEnd: CalendarDate.openapi({ description: "last day of the current period (UTC)" }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("BudgetAlert");
export type BudgetAlert = z.infer<typeof BudgetAlert>;
export const BudgetAlertPage = page(BudgetAlert, "BudgetAlertPage");

/**
 * The spend a threshold stands for in a period whose amount is `amount`: its own `amount`, or the smallest
 * whole-cent spend that reaches `percent` of it (spend is whole cents, so reaching this is reaching the
 * percentage; the tolerance absorbs binary noise such as 1250.5 × 80 = 100039.99999999999).
 */
export function thresholdLevel(t: Pick<Threshold, "percent" | "amount">, amount: number): number {
  return t.amount ?? Math.ceil(amount * (t.percent ?? 0) - 1e-6) / 100;
}
