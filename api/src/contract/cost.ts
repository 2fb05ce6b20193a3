import { CalendarDate, Money, Provider } from "./common";
import { GroupId } from "./cloud-group";
import {
  CostFilters,
  FilterAccountId,
  MAX_FILTER_ACCOUNTS,
  MAX_FILTER_TAGS,
  MAX_FILTER_VALUES,
  MAX_TAG_VALUES,
  RegionName,
  ServiceName,
  TAG_KEY,
  TAG_VALUE,
  type CostFiltersInput,
  type TagFilter,
} from "./cost-filter";
import { z } from "./zod";

/** Longest window a cost read accepts (decision): 366 days, so any calendar year fits. */
export const MAX_WINDOW_DAYS = 366;

const daysBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000;

/**
 * A query parameter that may repeat (`?services=Amazon%20EC2&services=Amazon%20S3`, OpenAPI `style: form,
 * explode: true`): one occurrence arrives as a string, several as a list. A value given twice is refused
 * (the filters are sets), which the document states as `uniqueItems`.
 */
function repeated<T extends z.ZodType>(item: T, max: number, description: string) {
  return z
    .preprocess((v) => (typeof v === "string" ? [v] : v), z.array(item).max(max))
    .optional()
    .openapi({ uniqueItems: true, description: `${description}; repeat the parameter for several (any of them matches), each value once` });
}

/** A pattern's body, without its anchors, to compose it into another. */
const body = (pattern: RegExp): string => pattern.source.replace(/^\^/, "").replace(/\$$/, "");

/**
 * `tag=KEY=VALUE`: split at the first `=` (tag keys never contain one, see `TagKey`). The parameter only
 * has to split here; the key and the value are then judged by `TagFilter` (field errors on `tag.N.key`,
 * `tag.N.values.M`). The document states the whole rule applied: a `TagKey`, `=`, a `TagValue`.
 */
const TagParam = z
  .string()
  .regex(/^[^=]+=/, "must be KEY=VALUE (a tag key, `=`, then the value, which may be empty)")
  .openapi({ example: "team=platform", pattern: `^(?:${body(TAG_KEY)})=(?:${body(TAG_VALUE)})$` });

/** The `tag` parameters as tag filters: values of one key are one entry (OR), keys in order of first appearance. */
function tagFilters(params: readonly string[]): TagFilter[] {
  const byKey = new Map<string, string[]>();
  for (const p of params) {
    const at = p.indexOf("=");
    const key = p.slice(0, at);
    byKey.set(key, [...(byKey.get(key) ?? []), p.slice(at + 1)]);
  }
  return [...byKey].map(([key, values]) => ({ key, values }));
}

const queryFilters = {
  providers: repeated(Provider, 2, "only these cloud providers"),
  accountIds: repeated(FilterAccountId, MAX_FILTER_ACCOUNTS, "only these accounts (12-digit AWS account IDs, Azure subscription GUIDs)"),
  services: repeated(ServiceName, MAX_FILTER_VALUES, "only these services"),
  regions: repeated(RegionName, MAX_FILTER_VALUES, "only these region codes"),
  tag: repeated(
    TagParam,
    MAX_FILTER_TAGS * MAX_TAG_VALUES,
    "only cost carrying this tag, as KEY=VALUE; values of one key are alternatives, different keys must all match",
  ),
};
type QueryFilters = { [K in keyof typeof queryFilters]?: string[] };

/** The filters a cost read's query names, as `CostFilters` input (the same rules as on alerts and reports). */
function filterInput(q: QueryFilters): CostFiltersInput {
  const { providers, accountIds, services, regions, tag } = q;
  const given = Object.entries({ providers, accountIds, services, regions }).filter(([, v]) => v !== undefined);
  return { ...Object.fromEntries(given), ...(tag ? { tags: tagFilters(tag) } : {}) } as CostFiltersInput;
}

/**
 * Query of every `/cost/*` read: an inclusive date window, an optional Cloud Group, and the same filters
 * budget alerts and reports take (issue 27), so a read shows what a budget with those filters counts.
 */
export const CostQuery = z
  .object({
    from: CalendarDate.openapi({ description: "first day of the window, inclusive" }),
    to: CalendarDate.openapi({ description: "last day of the window, inclusive" }),
    groupId: GroupId.optional().openapi({ description: "restrict to the members of this Cloud Group" }),
    ...queryFilters,
  })
  .strict()
  .superRefine((q, ctx) => {
    const span = daysBetween(q.from, q.to);
    if (span < 0) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before `from`" });
    else if (span + 1 > MAX_WINDOW_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: `window must be at most ${MAX_WINDOW_DAYS} days` });
    // The filter rules themselves, reported on the query's parameters (`tags.N` is the N-th distinct `tag` key).
    const filters = CostFilters.safeParse(filterInput(q));
    if (!filters.success)
      for (const issue of filters.error.issues)
        ctx.addIssue({
          code: "custom",
          path: [issue.path[0] === "tags" ? "tag" : String(issue.path[0]), ...issue.path.slice(1).map(String)],
          message: issue.message,
        });
  });
export type CostQuery = z.infer<typeof CostQuery>;

/** A cost read as a caller states it: the window, an optional Cloud Group and the filters, as on alerts and reports. */
export type CostReadRequest = Pick<CostQuery, "from" | "to" | "groupId"> & { filters?: CostFiltersInput } & QueryOnlyFilters;
/**
 * The query's top-level filter parameters are refused where a `CostReadRequest` is expected: the client reads
 * only `filters`, so a `CostQuery` handed over as it is would be read unfiltered (issue 33: the native
 * functions did that and answered the organization's total).
 */
type QueryOnlyFilters = { [K in keyof typeof queryFilters]?: never };

/** The query parameters of a cost read: each filter list as a repeated parameter, tags as `tag=KEY=VALUE`. */
export function costQueryOf(r: CostReadRequest): { [K in keyof CostQuery]?: string | readonly string[] } {
  // What the type refuses, refused at run time too (plain JavaScript): read unfiltered, it would look like an answer.
  const stray = Object.keys(queryFilters).filter((k) => (r as Record<string, unknown>)[k] !== undefined);
  if (stray.length)
    throw new TypeError(
      `${stray.join(", ")}: a cost read takes its filters inside \`filters\` ({ providers, accountIds, services, regions, tags })`,
    );
  const { tags, ...lists } = r.filters ?? {};
  return {
    from: r.from,
    to: r.to,
    groupId: r.groupId,
    ...lists,
    ...(tags?.length ? { tag: tags.flatMap((t) => t.values.map((v) => `${t.key}=${v}`)) } : {}),
  };
}

/** The canonical filters of a valid cost query (`CostQuery` has already checked them). */
export function costFiltersOf(q: CostQuery): CostFilters {
  return CostFilters.parse(filterInput(q));
}

const Window = {
  from: CalendarDate,
  to: CalendarDate,
  currency: z.string().openapi({ description: "the organization's billing currency" }),
  groupId: z.string().nullable(),
  // The filters applied, in canonical form (`{}`: none); the component's own description says how they match.
  filters: CostFilters,
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
