import { lastQuarter } from "@cloudcost/pulumi";
import { runExample } from "./example-program";
import { idOf, startDeployment, valueOf, type Deployment } from "@cloudcost/testkit";

/** examples/forecast-budgets: each group's quarterly budget follows its cost history in the sandbox. */
let d: Deployment;
let outputs: Record<string, unknown>;

beforeAll(async () => {
  d = await startDeployment();
  outputs = await runExample("forecast-budgets");
});
afterAll(() => d?.stop());

/** The current calendar quarter, computed independently of the example. */
function currentQuarter(now = new Date()): { from: string; to: string } {
  const q = Math.floor(now.getUTCMonth() / 3);
  const iso = (m: number, day: number) => new Date(Date.UTC(now.getUTCFullYear(), m, day)).toISOString().slice(0, 10);
  return { from: iso(q * 3, 1), to: iso(q * 3 + 3, 0) };
}

describe("examples/forecast-budgets, deployed", () => {
  it.each(["storefront", "analytics"])("sets %s's budget to 110%% of last quarter, never below this quarter's forecast", async (slug) => {
    const groupId = idOf(d, slug);
    const history = await d.api.getCostSummary({ ...lastQuarter(), groupId });
    const forecast = await d.api.getCostForecast({ ...currentQuarter(), groupId });
    const expected = Math.max(Math.round(history.total * 110) / 100, Math.round(forecast.total * 100) / 100, 1);
    expect(history.total).toBeGreaterThan(0);
    const alert = await d.api.getAlert(idOf(d, `${slug}-quarterly`));
    expect(alert).toMatchObject({ groupId, period: "quarterly", currency: history.currency });
    expect(alert.amount).toBeCloseTo(expected, 2);
  });

  it("exports what each budget was derived from", async () => {
    const storefront = await valueOf<{ budget: number; lastQuarter: number; forecastThisQuarter: number }>(outputs.storefront);
    expect(storefront.budget).toBe(
      Math.max(Math.round(storefront.lastQuarter * 110) / 100, Math.round(storefront.forecastThisQuarter * 100) / 100, 1),
    );
  });
});
