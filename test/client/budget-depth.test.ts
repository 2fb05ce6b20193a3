import { ApiError, CloudCostClient, closeAllPools } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";

afterAll(() => closeAllPools());

/**
 * Issue 27 through the typed client: cost reads take the filters alerts and reports take (the client
 * turns them into repeated query parameters), alerts and reports round-trip every new field, and what the
 * service refuses arrives as an ApiError naming the field.
 */
describe("the client and deep budgets", () => {
  let sandbox: RunningSandbox;
  let client: CloudCostClient;
  const window = { from: "2026-10-01", to: "2026-10-31" };
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    client = new CloudCostClient({ baseUrl: sandbox.baseUrl, auth: { apiToken: await sandbox.token("read,write") } });
  });
  afterAll(() => sandbox.dispose());

  it("reads cost with filters: repeated values are alternatives, the read echoes them canonically", async () => {
    const all = await client.getCostByService(window);
    const [a, b] = all.items;
    const both = await client.getCostSummary({ ...window, filters: { services: [a!.service, b!.service], regions: [] } });
    expect(Math.round(both.total * 100)).toBe(Math.round(a!.amount * 100) + Math.round(b!.amount * 100));
    expect(both.filters).toEqual({ services: [a!.service, b!.service] });
    const tagged = await client.getCostByDay({ ...window, filters: { tags: [{ key: "env", values: ["prod", "staging", "dev"] }] } });
    expect(tagged.total).toBe((await client.getCostByDay(window)).total); // every line carries one of these values
    const forecast = await client.getCostForecast({ ...window, filters: { providers: ["azure"] } });
    expect(forecast.filters).toEqual({ providers: ["azure"] });
    const team = { tags: [{ key: "team", values: ["data"] }] };
    const comparison = await client.getCostComparison({ ...window, filters: team });
    expect(comparison.current.amount).toBe((await client.getCostSummary({ ...window, filters: team })).total);
    expect(comparison.current.amount).toBeLessThan(all.total);
  });

  it("round-trips an alert with every new field, typed, and its outputs", async () => {
    const created = await client.createAlert({
      name: "Deep",
      amount: 4000,
      currency: "USD",
      period: "quarterly",
      filters: { accountIds: ["0B1F6471-1BF0-4DDA-AEC3-CB9272F09590"], tags: [{ key: "team", values: ["web", "ml"] }] },
      thresholds: [
        { amount: 2500.5, basis: "forecast", recipients: ["Lead@Example.com"] },
        { percent: 100, basis: "actual" },
      ],
      plannedAmounts: [{ periodStart: "2027-01-01", amount: 5000 }],
      startDate: "2026-01-15",
      endDate: "2027-12-31",
    });
    expect(created).toMatchObject({
      filters: { accountIds: ["0b1f6471-1bf0-4dda-aec3-cb9272f09590"], tags: [{ key: "team", values: ["web", "ml"] }] },
      thresholds: [
        { amount: 2500.5, basis: "forecast", recipients: ["lead@example.com"] },
        { percent: 100, basis: "actual" },
      ],
      plannedAmounts: [{ periodStart: "2027-01-01", amount: 5000 }],
      autoAdjust: null,
      startDate: "2026-01-15",
      endDate: "2027-12-31",
      effectiveAmountSource: expect.stringMatching(/^(amount|planned)$/),
    });
    expect(await client.getAlert(created.id)).toEqual(created);
    const report = await client.createReport({
      name: "Feed",
      report: "budget_status",
      schedule: { frequency: "daily", time: "06:00", timezone: "UTC" },
      webhookUrl: "https://feed.example/budgets",
    });
    expect(report).toMatchObject({ recipients: [], filters: {}, webhookUrl: "https://feed.example/budgets" });
  });

  it("a refused filter is an ApiError naming the field, for a read and for a create", async () => {
    const read = await client.getCostSummary({ ...window, filters: { accountIds: ["999999999999"] } }).catch((e: unknown) => e);
    expect(read).toBeInstanceOf(ApiError);
    expect(read).toMatchObject({ status: 422, errors: [expect.objectContaining({ path: "query.accountIds.0", code: "unknown_account" })] });
    const create = await client
      .createAlert({
        name: "Bad",
        amount: 10,
        currency: "USD",
        period: "monthly",
        thresholds: [{ percent: 50, amount: 5, basis: "actual" }],
        autoAdjust: { lookbackPeriods: 13 },
      })
      .catch((e: unknown) => e);
    expect(create).toBeInstanceOf(ApiError);
    expect((create as ApiError).status).toBe(400);
    expect((create as ApiError).errors?.map((e) => e.path).sort()).toEqual(["body.autoAdjust.lookbackPeriods", "body.thresholds.0.amount"]);
  });
});
