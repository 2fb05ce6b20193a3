import type { CostForecast } from "@cloudcost/api";
import { resolveApiSettings } from "../../../policies/src/forecast/api-settings";
import { periodContaining } from "@cloudcost/api";
import { ForecastConfig, compareWithForecast } from "../../../policies/src/policies/budget-alert-forecast";

const forecast = (actual: number, total: number): CostForecast => ({
  from: "2026-11-01",
  to: "2026-11-30",
  currency: "USD",
  groupId: null,
  filters: {},
  actual,
  projected: total - actual,
  total,
  lower: total * 0.9,
  upper: total * 1.1,
  days: [],
});

describe("budget-alert-forecast logic", () => {
  const config = ForecastConfig.parse({});

  test("a budget below the forecast would fire at once", () => {
    const [message] = compareWithForecast(1000, "USD", forecast(400, 1450.5), config);
    expect(message).toContain("the budget 1,000 USD is below the 1,450.5 USD the service forecasts for 2026-11-01..2026-11-30");
    expect(message).toContain("raise amount to at least 1,451 USD");
    expect(message).not.toContain("spend so far");
    expect(compareWithForecast(1000, "USD", forecast(1200, 1500), config)[0]).toContain("spend so far (1,200 USD) already exceeds it");
  });

  test("a budget far above the forecast would never fire; in between is fine", () => {
    expect(compareWithForecast(1000, "USD", forecast(100, 900), config)).toEqual([]);
    expect(compareWithForecast(2700, "USD", forecast(100, 900), config)).toEqual([]);
    expect(compareWithForecast(2701, "USD", forecast(100, 900), config)[0]).toContain("more than 3 times the 900 USD");
    expect(compareWithForecast(2701, "USD", forecast(100, 900), { farAboveFactor: 4 })).toEqual([]);
  });

  test("the period window is the calendar month, quarter or year in UTC", () => {
    const now = new Date("2028-02-15T23:30:00Z");
    expect(periodContaining("monthly", now)).toEqual({ from: "2028-02-01", to: "2028-02-29" });
    expect(periodContaining("quarterly", now)).toEqual({ from: "2028-01-01", to: "2028-03-31" });
    expect(periodContaining("quarterly", new Date("2026-11-30T00:00:00Z"))).toEqual({ from: "2026-10-01", to: "2026-12-31" });
    expect(periodContaining("annual", now)).toEqual({ from: "2028-01-01", to: "2028-12-31" });
  });

  test("API settings come from the policy config first, then the provider's environment variables", () => {
    const env = { CLOUDCOST_API_URL: "http://127.0.0.1:1/api/v1", CLOUDCOST_API_TOKEN: "env-token" };
    expect(resolveApiSettings({ timeoutMs: 100 }, {})).toEqual({ reason: expect.stringContaining("no API location") });
    expect(resolveApiSettings({ timeoutMs: 100 }, { CLOUDCOST_API_URL: "http://x/api/v1" })).toEqual({
      reason: expect.stringContaining("no credentials"),
    });
    expect(resolveApiSettings({ timeoutMs: 100 }, env)).toMatchObject({
      options: {
        baseUrl: env.CLOUDCOST_API_URL,
        baseUrlSetting: "CLOUDCOST_API_URL (this policy's apiUrl is not set)",
        auth: { apiToken: "env-token" },
      },
    });
    expect(
      resolveApiSettings(
        { timeoutMs: 100, apiUrl: "http://y/api/v1", clientId: "c", clientSecret: "s" },
        { CLOUDCOST_API_URL: "http://x/api/v1" },
      ),
    ).toMatchObject({
      options: { baseUrl: "http://y/api/v1", baseUrlSetting: "this policy's apiUrl", auth: { clientId: "c", clientSecret: "s" } },
    });
  });
});
