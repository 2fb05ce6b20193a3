import { BudgetAlert, CostSummary, KNOWN_REGIONS, ScheduledReport } from "@cloudcost/api";
import { DateTime } from "luxon";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_AWS, DEMO_AZURE, alertBody, call, expectProblem, fields, reportBody } from "./api-client";

/**
 * Issue 27 through HTTP against a real `serve`: filters on the cost reads and on alerts (what a budget
 * counts can be read before it is declared), planned and history-based amounts, the active window, the
 * canonical forms that never drift, and the refusals of everything a filter cannot evaluate.
 */
describe("budgets as deep as the clouds' own", () => {
  let sandbox: RunningSandbox;
  let token: string;
  const lastMonth = DateTime.utc().minus({ months: 1 });
  const WINDOW = { from: lastMonth.startOf("month").toISODate()!, to: lastMonth.endOf("month").toISODate()! };
  const post = (path: string, json: unknown) => call(sandbox, "POST", path, { token, json });
  const put = (path: string, json: unknown) => call(sandbox, "PUT", path, { token, json });
  /** `/cost/summary` of `window` with extra query parameters (already encoded). */
  const summary = async (params: string, window: { from: string; to: string } = WINDOW): Promise<CostSummary> => {
    const reply = await call(sandbox, "GET", `/cost/summary?from=${window.from}&to=${window.to}${params ? `&${params}` : ""}`, { token });
    expect(reply.status).toBe(200);
    return CostSummary.parse(reply.body);
  };
  const cents = (n: number) => Math.round(n * 100);

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token("read,write");
  });
  afterAll(() => sandbox.dispose());

  describe("filters on the cost reads", () => {
    it("tags partition the cost (OR within a key, AND across keys) and the read echoes the canonical filters", async () => {
      const all = await summary("");
      const teams = ["platform", "data", "web", "ml"];
      const perTeam = await Promise.all(teams.map((t) => summary(`tag=team%3D${t}`)));
      expect(perTeam.reduce((a, s) => a + cents(s.total), 0)).toBe(cents(all.total));
      expect(perTeam.filter((s) => s.total > 0).length).toBeGreaterThan(1); // the tags really split the data
      const two = await summary("tag=team%3Dplatform&tag=team%3Ddata");
      expect(cents(two.total)).toBe(cents(perTeam[0]!.total) + cents(perTeam[1]!.total));
      expect(two.filters).toEqual({ tags: [{ key: "team", values: ["platform", "data"] }] });
      // AND across keys: a team's AWS cost plus its Azure cost is the team's cost.
      const awsData = await summary("providers=aws&tag=team%3Ddata");
      const azureData = await summary("providers=azure&tag=team%3Ddata");
      expect(cents(awsData.total) + cents(azureData.total)).toBe(cents(perTeam[1]!.total));
      expect(awsData.byProvider.find((p) => p.provider === "azure")!.amount).toBe(0);
    });

    it("every line has a known region: all of a provider's regions count exactly that provider's cost", async () => {
      const all = await summary("");
      const regions = (p: "aws" | "azure") => KNOWN_REGIONS[p].map((r) => `regions=${r}`).join("&");
      const aws = await summary(regions("aws"));
      const azure = await summary(regions("azure"));
      expect(aws.total).toBe(all.byProvider.find((p) => p.provider === "aws")!.amount);
      expect(azure.total).toBe(all.byProvider.find((p) => p.provider === "azure")!.amount);
      expect((await summary("regions=ap-east-1")).total).toBe(0); // a real region no account runs in counts nothing
    });

    it("services and accounts: OR within a key, and the service breakdown agrees", async () => {
      const services = CostByServiceItems(
        (await call(sandbox, "GET", `/cost/services?from=${WINDOW.from}&to=${WINDOW.to}&accountIds=${DEMO_AWS[0]}`, { token })).body,
      );
      expect(services.length).toBeGreaterThan(0);
      const [first, second] = services;
      const both = await summary(
        `accountIds=${DEMO_AWS[0]}&services=${encodeURIComponent(first!.service)}&services=${encodeURIComponent(second!.service)}`,
      );
      expect(cents(both.total)).toBe(cents(first!.amount) + cents(second!.amount));
      const upper = DEMO_AZURE[0].toUpperCase();
      expect((await summary(`accountIds=${upper}`)).filters).toEqual({ accountIds: [DEMO_AZURE[0]] });
    });

    it("refuses a filter it cannot evaluate, naming the parameter; never a 500", async () => {
      const bad = async (params: string, status: number, path: string) => {
        const reply = await call(sandbox, "GET", `/cost/daily?from=${WINDOW.from}&to=${WINDOW.to}&${params}`, { token });
        expect(expectProblem(reply, status).errors?.map((e) => e.path)).toContain(path);
      };
      await bad("accountIds=999999999999", 422, "query.accountIds.0");
      await bad("tag=owner%3Dme", 422, "query.tag.0.key");
      await bad("regions=us-east-9", 400, "query.regions.0");
      await bad("services=Amazon%20EC3", 400, "query.services.0");
      await bad("providers=gcp", 400, "query.providers.0");
      await bad("tag=team", 400, "query.tag.0");
      await bad("providers=azure&services=Amazon%20EC2", 400, "query.services.0");
      await bad("accountIds=12", 400, "query.accountIds.0");
      await bad(Array.from({ length: 51 }, () => "services=Amazon%20S3").join("&"), 400, "query.services");
      await bad("services=Amazon%20S3&services=Amazon%20S3", 400, "query.services");
    });
  });

  describe("alerts", () => {
    it("counts what the same filters count on a cost read, before and after it is declared", async () => {
      const filters = { providers: ["aws"], tags: [{ key: "env", values: ["prod", "dev"] }] };
      const alert = BudgetAlert.parse(fields(await post("/alerts", alertBody({ filters }))));
      expect(alert.filters).toEqual(filters);
      const period = { from: alert.periodStart, to: alert.periodEnd };
      const read = await summary("providers=aws&tag=env%3Dprod&tag=env%3Ddev", period);
      expect(alert.currentSpend).toBe(read.forecast.actual);
      expect(alert.forecastedSpend).toBe(read.forecast.total);
      expect(alert.currentSpend).toBeLessThan((await summary("", period)).forecast.actual);
    });

    it("returns what it was given, or the canonical form, so a second PUT changes nothing (no drift)", async () => {
      const body = alertBody({ filters: { services: [], tags: [] }, plannedAmounts: [], autoAdjust: null });
      const created = await post("/alerts", body);
      expect(created.status).toBe(201);
      const alert = BudgetAlert.parse(created.body);
      expect(alert).toMatchObject({ filters: {}, plannedAmounts: [], autoAdjust: null, startDate: null, endDate: null });
      expect(alert.thresholds).toEqual([{ percent: 80, basis: "actual" }]);
      const again = await put(`/alerts/${alert.id}`, { ...body, filters: {} });
      expect(again.status).toBe(200);
      expect(again.headers.get("etag")).toBe(created.headers.get("etag"));
      expect(fields(again).updatedAt).toBe(alert.updatedAt);
    });

    it("planned amounts replace the amount for the periods they name; the effective amount is an output", async () => {
      const month = DateTime.utc().startOf("month");
      const alert = BudgetAlert.parse(
        fields(
          await post(
            "/alerts",
            alertBody({
              amount: 5000,
              plannedAmounts: [
                { periodStart: month.plus({ months: 1 }).toISODate(), amount: 9000 },
                { periodStart: month.toISODate(), amount: 6500.25 },
              ],
            }),
          ),
        ),
      );
      expect(alert).toMatchObject({ amount: 5000, effectiveAmount: 6500.25, effectiveAmountSource: "planned" });
      expect(alert.plannedAmounts.map((p) => p.amount)).toEqual([9000, 6500.25]); // as sent, in the order sent
      const plain = BudgetAlert.parse(fields(await post("/alerts", alertBody({ amount: 5000 }))));
      expect(plain).toMatchObject({ effectiveAmount: 5000, effectiveAmountSource: "amount" });
    });

    it("autoAdjust sets the amount to the mean of the last N complete periods' actual spend", async () => {
      const group = fields(await post("/groups", { name: "History" }));
      await put(`/groups/${String(group.id)}/members`, { members: [{ provider: "azure", accountId: DEMO_AZURE[1] }] });
      const alert = BudgetAlert.parse(
        fields(await post("/alerts", alertBody({ groupId: group.id, autoAdjust: { lookbackPeriods: 3 }, amount: 1 }))),
      );
      const month = DateTime.utc().startOf("month");
      const totals = await Promise.all(
        [1, 2, 3].map(async (back) => {
          const m = month.minus({ months: back });
          return (await summary(`groupId=${String(group.id)}`, { from: m.toISODate()!, to: m.endOf("month").toISODate()! })).total;
        }),
      );
      expect(alert.effectiveAmountSource).toBe("autoAdjust");
      expect(alert.effectiveAmount).toBeCloseTo(totals.reduce((a, b) => a + b, 0) / 3, 2);
      expect(alert.amount).toBe(1);
      // History that cost nothing (a filter no cost matches) leaves `amount`.
      const empty = BudgetAlert.parse(
        fields(await post("/alerts", alertBody({ autoAdjust: { lookbackPeriods: 2 }, filters: { regions: ["ap-east-1"] } }))),
      );
      expect(empty).toMatchObject({ effectiveAmount: 5000, effectiveAmountSource: "amount" });
    });

    it("the active window: an output says whether the alert evaluates today; both ends can be changed at any time", async () => {
      const today = DateTime.utc();
      const created = BudgetAlert.parse(fields(await post("/alerts", alertBody({ startDate: today.plus({ days: 3 }).toISODate() }))));
      expect(created.active).toBe(false);
      // A start date in the past (the month rolled over) is still replaceable: the Azure failure mode designed out.
      const moved = await put(
        `/alerts/${created.id}`,
        alertBody({ startDate: today.minus({ months: 2 }).toISODate(), endDate: today.plus({ years: 1 }).toISODate() }),
      );
      expect(moved.status).toBe(200);
      expect(BudgetAlert.parse(moved.body).active).toBe(true);
      const ended = await put(`/alerts/${created.id}`, alertBody({ endDate: today.minus({ days: 1 }).toISODate() }));
      expect(BudgetAlert.parse(ended.body)).toMatchObject({ active: false, startDate: null });
    });
  });

  describe("hostile and sloppy input: field errors, never a 500, nothing stored", () => {
    const many = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));
    const cases: [string, Record<string, unknown>, number, string][] = [
      ["filters of the wrong type", { filters: "aws" }, 400, "body.filters"],
      ["a filter list of the wrong type", { filters: { providers: "aws" } }, 400, "body.filters.providers"],
      ["an unknown filter key", { filters: { owner: ["me"] } }, 400, "body.filters.owner"],
      ["an unknown service", { filters: { services: ["Amazon EC3"] } }, 400, "body.filters.services.0"],
      ["an unknown region", { filters: { regions: ["us-east-9"] } }, 400, "body.filters.regions.0"],
      ["a region of a provider left out", { filters: { providers: ["aws"], regions: ["westeurope"] } }, 400, "body.filters.regions.0"],
      [
        "an account of a provider left out",
        { filters: { providers: ["aws"], accountIds: [DEMO_AZURE[0]] } },
        400,
        "body.filters.accountIds.0",
      ],
      ["an account ID of neither form", { filters: { accountIds: ["1234-5678"] } }, 400, "body.filters.accountIds.0"],
      ["an account not connected", { filters: { accountIds: ["999999999999"] } }, 422, "body.filters.accountIds.0"],
      [
        "the same account twice, in two spellings",
        { filters: { accountIds: [DEMO_AZURE[0], DEMO_AZURE[0].toUpperCase()] } },
        400,
        "body.filters.accountIds",
      ],
      ["too many accounts", { filters: { accountIds: many(101, (i) => String(100000000000 + i)) } }, 400, "body.filters.accountIds"],
      ["a huge list", { filters: { services: many(10_000, () => "Amazon S3") } }, 400, "body.filters.services"],
      [
        "a duplicate tag key",
        {
          filters: {
            tags: [
              { key: "team", values: ["a"] },
              { key: "team", values: ["b"] },
            ],
          },
        },
        400,
        "body.filters.tags",
      ],
      ["a tag key with =", { filters: { tags: [{ key: "a=b", values: ["x"] }] } }, 400, "body.filters.tags.0.key"],
      ["a tag key with surrounding space", { filters: { tags: [{ key: " team", values: ["x"] }] } }, 400, "body.filters.tags.0.key"],
      ["a tag without values", { filters: { tags: [{ key: "team", values: [] }] } }, 400, "body.filters.tags.0.values"],
      ["a tag value too long", { filters: { tags: [{ key: "team", values: ["x".repeat(257)] }] } }, 400, "body.filters.tags.0.values.0"],
      [
        "a tag key that is not a cost allocation tag",
        { filters: { tags: [{ key: "owner", values: ["me"] }] } },
        422,
        "body.filters.tags.0.key",
      ],
      ["both percent and amount", { thresholds: [{ percent: 80, amount: 100, basis: "actual" }] }, 400, "body.thresholds.0.amount"],
      ["neither percent nor amount", { thresholds: [{ basis: "forecast" }] }, 400, "body.thresholds.0.percent"],
      ["an amount threshold of a third decimal", { thresholds: [{ amount: 10.001, basis: "actual" }] }, 400, "body.thresholds.0.amount"],
      ["an amount threshold as a string", { thresholds: [{ amount: "100", basis: "actual" }] }, 400, "body.thresholds.0.amount"],
      [
        "the same amount threshold twice",
        {
          thresholds: [
            { amount: 100, basis: "actual" },
            { amount: 100, basis: "actual", recipients: ["a@example.com"] },
          ],
        },
        400,
        "body.thresholds",
      ],
      [
        "threshold recipients that are not addresses",
        { thresholds: [{ percent: 80, basis: "actual", recipients: ["nobody"] }] },
        400,
        "body.thresholds.0.recipients.0",
      ],
      [
        "threshold recipients as null",
        { thresholds: [{ percent: 80, basis: "actual", recipients: null }] },
        400,
        "body.thresholds.0.recipients",
      ],
      [
        "a periodStart not at a period start",
        { plannedAmounts: [{ periodStart: "2026-12-15", amount: 10 }] },
        400,
        "body.plannedAmounts.0.periodStart",
      ],
      [
        "a quarterly periodStart in February",
        { period: "quarterly", plannedAmounts: [{ periodStart: "2027-02-01", amount: 10 }] },
        400,
        "body.plannedAmounts.0.periodStart",
      ],
      [
        "a periodStart that is no date",
        { plannedAmounts: [{ periodStart: "2027-02-30", amount: 10 }] },
        400,
        "body.plannedAmounts.0.periodStart",
      ],
      ["a planned amount of zero", { plannedAmounts: [{ periodStart: "2027-01-01", amount: 0 }] }, 400, "body.plannedAmounts.0.amount"],
      [
        "the same period planned twice",
        {
          plannedAmounts: [
            { periodStart: "2027-01-01", amount: 1 },
            { periodStart: "2027-01-01", amount: 2 },
          ],
        },
        400,
        "body.plannedAmounts",
      ],
      [
        "too many planned amounts",
        { plannedAmounts: many(61, (i) => ({ periodStart: `${2030 + i}-01-01`, amount: 1 })) },
        400,
        "body.plannedAmounts",
      ],
      ["lookbackPeriods 0", { autoAdjust: { lookbackPeriods: 0 } }, 400, "body.autoAdjust.lookbackPeriods"],
      ["lookbackPeriods 13", { autoAdjust: { lookbackPeriods: 13 } }, 400, "body.autoAdjust.lookbackPeriods"],
      ["lookbackPeriods 1.5", { autoAdjust: { lookbackPeriods: 1.5 } }, 400, "body.autoAdjust.lookbackPeriods"],
      [
        "autoAdjust with planned amounts",
        { autoAdjust: { lookbackPeriods: 3 }, plannedAmounts: [{ periodStart: "2027-01-01", amount: 1 }] },
        400,
        "body.autoAdjust",
      ],
      ["dates reversed", { startDate: "2027-01-02", endDate: "2027-01-01" }, 400, "body.endDate"],
      ["a start date that is a timestamp", { startDate: "2027-01-02T00:00:00Z" }, 400, "body.startDate"],
    ];
    it.each(cases)("%s", async (_, overrides, status, path) => {
      const before = (fields(await call(sandbox, "GET", "/alerts?limit=200", { token })).items as unknown[]).length;
      const problem = expectProblem(await post("/alerts", alertBody(overrides)), status);
      expect(problem.errors?.map((e) => e.path)).toContain(path);
      expect((fields(await call(sandbox, "GET", "/alerts?limit=200", { token })).items as unknown[]).length).toBe(before);
    });

    it.each([
      ["a budget_status report with filters", { report: "budget_status", filters: { providers: ["aws"] } }, 400, "body.filters"],
      ["a report without recipients or webhook", { recipients: [] }, 400, "body.recipients"],
      ["a report webhook over plain http", { webhookUrl: "http://feed.example/x" }, 400, "body.webhookUrl"],
      ["a report filter on an unconnected account", { filters: { accountIds: ["999999999999"] } }, 422, "body.filters.accountIds.0"],
      ["an unknown report kind", { report: "budget" }, 400, "body.report"],
    ])("reports: %s", async (_, overrides, status, path) => {
      const problem = expectProblem(await post("/reports", reportBody(overrides)), status);
      expect(problem.errors?.map((e) => e.path)).toContain(path);
    });

    it("a PUT that would make a filter unevaluable changes nothing", async () => {
      const created = BudgetAlert.parse(fields(await post("/alerts", alertBody({ filters: { providers: ["azure"] } }))));
      expectProblem(await put(`/alerts/${created.id}`, alertBody({ filters: { tags: [{ key: "owner", values: ["x"] }] } })), 422);
      expect(BudgetAlert.parse(fields(await call(sandbox, "GET", `/alerts/${created.id}`, { token }))).filters).toEqual({
        providers: ["azure"],
      });
    });
  });

  it("reports take filters, a webhook and the budget_status kind; a spend feed needs no recipients", async () => {
    const feed = ScheduledReport.parse(
      fields(
        await post(
          "/reports",
          reportBody({ report: "budget_status", recipients: [], webhookUrl: "https://feed.example/cost", format: "pdf" }),
        ),
      ),
    );
    expect(feed).toMatchObject({ report: "budget_status", recipients: [], webhookUrl: "https://feed.example/cost", filters: {} });
    const filtered = ScheduledReport.parse(
      fields(await post("/reports", reportBody({ filters: { services: ["Amazon S3"], providers: [] } }))),
    );
    expect(filtered.filters).toEqual({ services: ["Amazon S3"] });
  });
});

/** The items of a `/cost/services` body. */
function CostByServiceItems(body: unknown): { service: string; amount: number }[] {
  return (body as { items: { service: string; amount: number }[] }).items;
}
