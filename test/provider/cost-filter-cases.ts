/**
 * Issue 33: every cost function, every filter field, through every door, against the API's own answer. The cases
 * and the API's side live here so that each door (the dynamic functions in test/provider, the native plugin's
 * functions under the real CLI in test/engine) is held to the same list.
 */

/** A window in the seeded dataset's past, so nothing in it moves while a test runs. */
export const FILTER_WINDOW = { from: "2026-10-01", to: "2026-10-31" } as const;

/** The cost functions, by their native name, with the API path each reads. */
export const COST_FUNCTIONS = {
  getCostSummary: "/cost/summary",
  getCostByService: "/cost/services",
  getCostByDay: "/cost/daily",
  getCostForecast: "/cost/forecast",
  getCostComparison: "/cost/comparison",
} as const;
export type CostFunction = keyof typeof COST_FUNCTIONS;

/**
 * One filter case: the query's parameters as the native schema names them (top level, `tag` as KEY=VALUE) — what
 * the Python, Go, TypeScript and YAML SDKs send — which are also the API's own query parameters.
 */
export interface FilterCase {
  name: string;
  query: { providers?: string[]; accountIds?: string[]; services?: string[]; regions?: string[]; tag?: string[] };
}

/** Every filter field alone, then several together. ACCOUNT is one of the organization's connected accounts. */
export function filterCases(account: string): FilterCase[] {
  return [
    { name: "providers", query: { providers: ["aws"] } },
    { name: "accountIds", query: { accountIds: [account] } },
    { name: "services", query: { services: ["Amazon EC2"] } },
    { name: "regions", query: { regions: ["us-east-1", "westeurope"] } },
    { name: "tag", query: { tag: ["team=web", "team=data", "env=prod"] } },
    { name: "combined", query: { providers: ["aws"], services: ["Amazon EC2", "Amazon S3"], tag: ["env=prod"] } },
  ];
}

/** The dynamic functions' form of a case: `filters` exactly as a BudgetAlert's (`tags` as key and values). */
export function dynamicFilters(query: FilterCase["query"]): Record<string, unknown> {
  const { tag, ...lists } = query;
  const tags = new Map<string, string[]>();
  for (const t of tag ?? []) {
    const [key, value] = [t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1)];
    tags.set(key, [...(tags.get(key) ?? []), value]);
  }
  return { ...lists, ...(tags.size ? { tags: [...tags].map(([key, values]) => ({ key, values })) } : {}) };
}

/** The one figure each function is compared by: the window's total (the comparison: its change, both windows in it). */
export function figureOf(fn: CostFunction, result: Record<string, unknown>): number {
  const value = fn === "getCostComparison" ? result.change : result.total;
  if (typeof value !== "number") throw new Error(`${fn} answered without its figure: ${JSON.stringify(result)}`);
  return value;
}

/** The API's own answer: a plain GET with the query's parameters (repeated for lists), no client in between. */
export async function apiAnswer(
  baseUrl: string,
  token: string,
  fn: CostFunction,
  query: FilterCase["query"] & { groupId?: string },
): Promise<Record<string, unknown>> {
  const params = new URLSearchParams(FILTER_WINDOW);
  for (const [key, value] of Object.entries(query)) for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  const response = await fetch(`${baseUrl}${COST_FUNCTIONS[fn]}?${params}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`GET ${COST_FUNCTIONS[fn]}?${params}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}
