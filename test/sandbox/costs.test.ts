import { CostByDay, CostByService, CostComparison, CostForecast, CostSummary, Problem } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { call } from "./api-client";
import { daysFromToday } from "./dates";

const cents = (n: number) => Math.round(n * 100);
const sumCents = (values: number[]) => values.reduce((a, b) => a + cents(b), 0);

describe("cost reads over the synthetic dataset", () => {
  let sandbox: RunningSandbox;
  let token: string;
  const read = async (kind: string, query: string) => {
    const r = await call(sandbox, "GET", `/cost/${kind}?${query}`, { token });
    if (r.status !== 200) throw new Error(`${kind}: ${r.status} ${r.text}`);
    return r.body;
  };
  const past = `from=${daysFromToday(-45)}&to=${daysFromToday(-1)}`;
  const straddling = `from=${daysFromToday(-7)}&to=${daysFromToday(7)}`;

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token("read");
  });
  afterAll(() => sandbox.dispose());

  it("answers the same figures for the same window every time", async () => {
    expect(await read("summary", past)).toEqual(await read("summary", past));
  });

  it("keeps summary, daily and per-service figures consistent with each other", async () => {
    const summary = CostSummary.parse(await read("summary", past));
    const daily = CostByDay.parse(await read("daily", past));
    const services = CostByService.parse(await read("services", past));
    expect(summary.total).toBeGreaterThan(0);
    expect(daily.days).toHaveLength(45);
    expect(sumCents(daily.days.map((d) => d.amount))).toBe(cents(summary.total));
    expect(sumCents(services.items.map((s) => s.amount))).toBe(cents(summary.total));
    expect(sumCents(summary.byProvider.map((p) => p.amount))).toBe(cents(summary.total));
    const amounts = services.items.map((s) => s.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(summary.forecast).toEqual({
      actual: summary.total,
      projected: 0,
      total: summary.total,
      lower: summary.total,
      upper: summary.total,
    });
  });

  it("bills up to yesterday and forecasts from today, with an interval around the forecast", async () => {
    const forecast = CostForecast.parse(await read("forecast", straddling));
    expect(forecast.days.map((d) => d.kind)).toEqual([...Array<string>(7).fill("actual"), ...Array<string>(8).fill("forecast")]);
    expect(forecast.days[7]!.date).toBe(daysFromToday(0));
    for (const d of forecast.days.filter((x) => x.kind === "forecast")) {
      expect(d.lower).toBeLessThan(d.amount);
      expect(d.upper).toBeGreaterThan(d.amount);
    }
    expect(cents(forecast.total)).toBe(cents(forecast.actual) + cents(forecast.projected));
    expect(forecast.lower).toBeLessThan(forecast.total);
    expect(forecast.upper).toBeGreaterThan(forecast.total);
    const daily = CostByDay.parse(await read("daily", straddling));
    expect(daily.days.map((d) => d.date)).toEqual(forecast.days.slice(0, 7).map((d) => d.date));
  });

  it("compares a window with the same-length window before it", async () => {
    const comparison = CostComparison.parse(await read("comparison", `from=${daysFromToday(-14)}&to=${daysFromToday(-8)}`));
    expect(comparison.previous).toMatchObject({ from: daysFromToday(-21), to: daysFromToday(-15) });
    const previous = CostSummary.parse(await read("summary", `from=${daysFromToday(-21)}&to=${daysFromToday(-15)}`));
    expect(comparison.previous.amount).toBe(previous.total);
    expect(comparison.change).toBeCloseTo(comparison.current.amount - comparison.previous.amount, 2);
    expect(comparison.changePercent).toBeCloseTo((comparison.change / comparison.previous.amount) * 100, 1);
  });

  it("answers a window entirely in the future with nothing billed", async () => {
    const s = CostSummary.parse(await read("summary", `from=${daysFromToday(10)}&to=${daysFromToday(20)}`));
    expect(s.total).toBe(0);
    expect(s.forecast.projected).toBeGreaterThan(0);
  });

  it.each([
    ["from=2026-02-30&to=2026-03-01", "query.from"],
    ["from=2026-03-01&to=2026-02-01", "query.to"],
    ["from=2024-01-01&to=2025-01-01", "query.to"],
    ["from=20260101&to=2026-01-02", "query.from"],
    ["to=2026-01-02", "query.from"],
    ["from=2026-01-01&to=2026-01-02&groupId=abc", "query.groupId"],
    ["from=2026-01-01&to=2026-01-02&currency=EUR", "query.currency"],
  ])("rejects %s with a 400 naming %s", async (query, path) => {
    const r = await call(sandbox, "GET", `/cost/summary?${query}`, { token });
    expect(r.status).toBe(400);
    expect(Problem.parse(r.body).errors?.map((e) => e.path)).toContain(path);
  });

  it("refuses a comparison whose previous window would start before 0000-01-01 (400 naming query.from)", async () => {
    const r = await call(sandbox, "GET", "/cost/comparison?from=0000-01-01&to=0000-01-05", { token });
    expect(r.status).toBe(400);
    expect(Problem.parse(r.body).errors?.map((e) => e.path)).toEqual(["query.from"]);
    expect(CostComparison.parse(await read("comparison", "from=0000-01-06&to=0000-01-10")).previous).toMatchObject({
      from: "0000-01-01",
      to: "0000-01-05",
    });
  });

  it("accepts a whole leap year (366 days) as a window", async () => {
    expect(CostByDay.parse(await read("daily", "from=2024-01-01&to=2024-12-31")).days).toHaveLength(366);
    expect(CostSummary.parse(await read("summary", "from=2024-01-01&to=2024-12-31")).total).toBeGreaterThan(0);
  });

  it("answers 404 for a group that does not exist", async () => {
    expect((await call(sandbox, "GET", `/cost/daily?${past}&groupId=grp_doesnotexist00`, { token })).status).toBe(404);
  });
});
