import { CalendarDate, Money, Provider } from "./common";
import { GroupId } from "./cloud-group";
import { z } from "./zod";

/** Longest window a cost read accepts (decision): 366 days, so any calendar year fits. */
export const MAX_WINDOW_DAYS = 366;

const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/** Query of every `/cost/*` read: an inclusive date window and an optional Cloud Group. */
export const CostQuery = z
  .object({
    from: CalendarDate.openapi({ description: "first day of the window, inclusive" }),
    to: CalendarDate.openapi({ description: "last day of the window, inclusive" }),
    groupId: GroupId.optional().openapi({ description: "restrict to the members of this Cloud Group" }),
  })
  .strict()
  .superRefine((q, ctx) => {
    const span = daysBetween(q.from, q.to);
    if (span < 0) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before `from`" });
    else if (span + 1 > MAX_WINDOW_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: `window must be at most ${MAX_WINDOW_DAYS} days` });
  });
export type CostQuery = z.infer<typeof CostQuery>;

const Window = {
  from: CalendarDate,
  to: CalendarDate,
  currency: z.string().openapi({ description: "the organization's billing currency" }),
  groupId: z.string().nullable(),
};
export const ProviderAmount = z.object({ provider: Provider, amount: Money }).openapi("ProviderAmount");

export const Forecast = z
  .object({
    actual: Money.openapi({ description: "spend in the window up to and including yesterday" }),
    projected: Money.openapi({ description: "forecast spend for the rest of the window (today onwards)" }),
    total: Money.openapi({ description: "actual + projected" }),
    lower: Money.openapi({ description: "80% interval, lower bound of `total`" }),
    upper: Money.openapi({ description: "80% interval, upper bound of `total`" }),
  })
  .openapi("ForecastTotals");
export type ForecastTotals = z.infer<typeof Forecast>;

export const CostSummary = z
  .object({
    ...Window,
    total: Money.openapi({ description: "actual spend in the window" }),
    byProvider: z.array(ProviderAmount),
    forecast: Forecast,
  })
  .openapi("CostSummary");
export type CostSummary = z.infer<typeof CostSummary>;

export const ServiceCost = z.object({ service: z.string(), provider: Provider, amount: Money }).openapi("ServiceCost");
export const CostByService = z
  .object({ ...Window, total: Money, items: z.array(ServiceCost).openapi({ description: "largest first" }) })
  .openapi("CostByService");
export type CostByService = z.infer<typeof CostByService>;

export const DailyCost = z.object({ date: CalendarDate, amount: Money, byProvider: z.array(ProviderAmount) }).openapi("DailyCost");
export const CostByDay = z.object({ ...Window, total: Money, days: z.array(DailyCost) }).openapi("CostByDay");
export type CostByDay = z.infer<typeof CostByDay>;

export const ForecastDay = z
  .object({ date: CalendarDate, amount: Money, kind: z.enum(["actual", "forecast"]), lower: Money, upper: Money })
  .openapi("ForecastDay");
export const CostForecast = z.object({ ...Window, ...Forecast.shape, days: z.array(ForecastDay) }).openapi("CostForecast");
export type CostForecast = z.infer<typeof CostForecast>;

const PeriodTotal = z.object({ from: CalendarDate, to: CalendarDate, amount: Money });
export const CostComparison = z
  .object({
    ...Window,
    current: PeriodTotal.openapi({ description: "the requested window" }),
    previous: PeriodTotal.openapi({ description: "the window of the same length right before it" }),
    change: Money,
    changePercent: z.number().nullable().openapi({ description: "null when the previous window cost nothing" }),
    byProvider: z.array(z.object({ provider: Provider, current: Money, previous: Money, change: Money })),
  })
  .openapi("CostComparison");
export type CostComparison = z.infer<typeof CostComparison>;
