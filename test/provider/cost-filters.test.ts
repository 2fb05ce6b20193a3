/**
 * Issue 33 item 4, the dynamic door: each cost function of `@cloudcost/pulumi` with each filter (as a BudgetAlert's
 * `filters`) answers what the API answers for the same query parameters. The native door is
 * test/engine/function-filters.test.ts, on the same cases.
 */
import * as cloudcost from "@cloudcost/pulumi";
import { startDeployment, type Deployment } from "@cloudcost/testkit";
import {
  COST_FUNCTIONS,
  FILTER_WINDOW,
  apiAnswer,
  dynamicFilters,
  figureOf,
  filterCases,
  type CostFunction,
  type FilterCase,
} from "./cost-filter-cases";

let deployment: Deployment;
let cases: FilterCase[];

beforeAll(async () => {
  deployment = await startDeployment();
  const [account] = await cloudcost.getAccounts();
  cases = filterCases(account!.accountId);
});
afterAll(() => deployment?.stop());

const FUNCTIONS = Object.keys(COST_FUNCTIONS) as CostFunction[];

test.each(FUNCTIONS)("%s answers each filter as the API does, and a filter changes the answer", async (fn) => {
  const { sandbox, token } = deployment;
  const unfiltered = figureOf(fn, await apiAnswer(sandbox.baseUrl, token, fn, {}));
  for (const { name, query } of cases) {
    const expected = await apiAnswer(sandbox.baseUrl, token, fn, query);
    // The case is one that filters: otherwise an ignored filter would pass unseen.
    expect([name, figureOf(fn, expected)]).not.toEqual([name, unfiltered]);
    const read = (await cloudcost[fn]({ ...FILTER_WINDOW, filters: dynamicFilters(query) })) as unknown as Record<string, unknown>;
    expect([name, figureOf(fn, read), read.filters]).toEqual([name, figureOf(fn, expected), expected.filters]);
  }
});

test("a filter given at the top level, as the native functions take them, is refused rather than ignored", async () => {
  // Plain JavaScript gets past the type (`CostReadRequest` refuses these keys at compile time).
  const stray = { ...FILTER_WINDOW, providers: ["aws"] } as unknown as cloudcost.CostWindow;
  await expect(cloudcost.getCostSummary(stray)).rejects.toThrow(/providers.*filters/);
});
