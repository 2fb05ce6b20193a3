import { BudgetAlert, BudgetAlertPage, CostSummary, Problem, ScheduledReport } from "@cloudcost/api";
import { DateTime } from "luxon";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { DEMO_AWS, alertBody, call, fields, reportBody } from "./api-client";
import { daysFromToday } from "./dates";

describe("budget alerts and scheduled reports", () => {
  let sandbox: RunningSandbox;
  let token: string;
  const post = (path: string, json: unknown) => call(sandbox, "POST", path, { token, json });
  const summary = async (from: string, to: string, groupId?: string) =>
    CostSummary.parse(
      (await call(sandbox, "GET", `/cost/summary?from=${from}&to=${to}${groupId ? `&groupId=${groupId}` : ""}`, { token })).body,
    );

  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--rate-limit", "0"] });
    token = await sandbox.token();
  });
  afterAll(() => sandbox.dispose());

  describe("alerts", () => {
    it("creates an alert with defaults and spend for the current month of the whole organization", async () => {
      const r = await post("/alerts", alertBody({ recipients: ["FinOps@Example.com"] }));
      expect(r.status).toBe(201);
      const alert = BudgetAlert.parse(r.body);
      const today = DateTime.utc();
      const start = today.startOf("month").toISODate()!;
      const end = today.endOf("month").toISODate()!;
      expect(alert).toMatchObject({
        groupId: null,
        webhookUrl: null,
        enabled: true,
        recipients: ["finops@example.com"],
        spendCurrency: "USD",
        periodStart: start,
        periodEnd: end,
      });
      const month = await summary(start, end);
      expect(alert.currentSpend).toBe(month.forecast.actual);
      expect(alert.forecastedSpend).toBe(month.forecast.total);
    });

    it.each([
      ["quarterly", "quarter"],
      ["annual", "year"],
    ] as const)("computes %s spend over the calendar %s, scoped to its Cloud Group", async (period, unit) => {
      const group = fields(await post("/groups", { name: `Alert scope ${period}` }));
      await call(sandbox, "PUT", `/groups/${String(group.id)}/members`, {
        token,
        json: { members: [{ provider: "aws", accountId: DEMO_AWS[2] }] },
      });
      const alert = BudgetAlert.parse((await post("/alerts", alertBody({ period, groupId: group.id }))).body);
      const start = DateTime.utc().startOf(unit).toISODate()!;
      const end = DateTime.utc().endOf(unit).toISODate()!;
      expect([alert.periodStart, alert.periodEnd]).toEqual([start, end]);
      const scoped = await summary(start, end, String(group.id));
      expect(alert.forecastedSpend).toBe(scoped.forecast.total);
      expect(alert.forecastedSpend).toBeLessThan((await summary(start, end)).forecast.total);
    });

    it.each([
      [
        {
          thresholds: [
            { percent: 50, basis: "actual" },
            { percent: 0, basis: "forecast" },
          ],
        },
        "body.thresholds.1.percent",
      ],
      [
        {
          thresholds: [
            { percent: 50, basis: "actual" },
            { percent: 50, basis: "actual" },
          ],
        },
        "body.thresholds",
      ],
      [{ currency: "usd" }, "body.currency"],
      [{ currency: "XYZ" }, "body.currency"],
      [{ amount: 10.123 }, "body.amount"],
      [{ webhookUrl: "http://example.com/hook" }, "body.webhookUrl"],
      [{ recipients: ["not-an-address"] }, "body.recipients.0"],
      [{ name: "   " }, "body.name"],
      [{ colour: "red" }, "body.colour"],
    ])("rejects %j with a 400 naming %s and creates nothing", async (override, path) => {
      const before = BudgetAlertPage.parse((await call(sandbox, "GET", "/alerts?limit=200", { token })).body).items.length;
      const r = await post("/alerts", alertBody(override));
      expect(r.status).toBe(400);
      expect(Problem.parse(r.body).errors?.map((e) => e.path)).toContain(path);
      expect(BudgetAlertPage.parse((await call(sandbox, "GET", "/alerts?limit=200", { token })).body).items.length).toBe(before);
    });

    it("replaces every field with PUT (omitted ones fall back to their defaults) and deletes", async () => {
      const created = BudgetAlert.parse(
        (await post("/alerts", alertBody({ webhookUrl: "https://hooks.example.com/x", enabled: false }))).body,
      );
      const put = await call(sandbox, "PUT", `/alerts/${created.id}`, { token, json: alertBody({ amount: 9000, recipients: undefined }) });
      expect(put.status).toBe(200);
      const replaced = BudgetAlert.parse(put.body);
      expect(replaced).toMatchObject({
        id: created.id,
        amount: 9000,
        webhookUrl: null,
        enabled: true,
        recipients: [],
        createdAt: created.createdAt,
      });
      expect(BudgetAlert.parse((await call(sandbox, "GET", `/alerts/${created.id}`, { token })).body)).toEqual(replaced);
      expect((await call(sandbox, "DELETE", `/alerts/${created.id}`, { token })).status).toBe(204);
      expect((await call(sandbox, "GET", `/alerts/${created.id}`, { token })).status).toBe(404);
      expect((await call(sandbox, "DELETE", `/alerts/${created.id}`, { token })).status).toBe(404);
    });

    it("rejects an unknown groupId with a 422 naming it", async () => {
      const r = await post("/alerts", alertBody({ groupId: "grp_doesnotexist00" }));
      expect(r.status).toBe(422);
      expect(Problem.parse(r.body).errors).toEqual([
        { path: "body.groupId", code: "unknown_group", message: expect.stringContaining("grp_doesnotexist00") },
      ]);
    });
  });

  describe("reports", () => {
    it("computes nextRunAt for a weekly schedule in its time zone", async () => {
      const report = ScheduledReport.parse((await post("/reports", reportBody())).body);
      const next = DateTime.fromISO(report.nextRunAt!, { zone: "Europe/Berlin" });
      expect(report.nextRunAt).toMatch(/Z$/);
      expect([next.weekday, next.hour, next.minute]).toEqual([1, 9, 0]);
      expect(next.toMillis()).toBeGreaterThan(Date.now());
      expect(next.toMillis() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
      expect(report).toMatchObject({ format: "csv", enabled: true, groupId: null });
    });

    it("runs a monthly day-31 report on the last day of shorter months", async () => {
      const schedule = { frequency: "monthly", dayOfMonth: 31, time: "23:30", timezone: "America/New_York" };
      const report = ScheduledReport.parse((await post("/reports", reportBody({ schedule }))).body);
      const next = DateTime.fromISO(report.nextRunAt!, { zone: "America/New_York" });
      expect(next.day).toBe(next.daysInMonth);
      expect([next.hour, next.minute]).toEqual([23, 30]);
    });

    it("has no nextRunAt while disabled, and gets one back when enabled", async () => {
      const report = ScheduledReport.parse((await post("/reports", reportBody({ enabled: false }))).body);
      expect(report.nextRunAt).toBeNull();
      const enabled = ScheduledReport.parse(
        (
          await call(sandbox, "PUT", `/reports/${report.id}`, {
            token,
            json: reportBody({ schedule: { frequency: "daily", time: "06:00", timezone: "UTC" } }),
          })
        ).body,
      );
      expect(enabled.nextRunAt).toMatch(/T06:00:00\.000Z$/);
    });

    it.each([
      [{ schedule: { frequency: "weekly", time: "09:00", timezone: "UTC" } }, "body.schedule.dayOfWeek"],
      [{ schedule: { frequency: "daily", dayOfMonth: 3, time: "09:00", timezone: "UTC" } }, "body.schedule.dayOfMonth"],
      [{ schedule: { frequency: "daily", time: "25:00", timezone: "UTC" } }, "body.schedule.time"],
      [{ schedule: { frequency: "daily", time: "09:00", timezone: "Mars/Olympus" } }, "body.schedule.timezone"],
      [{ recipients: [] }, "body.recipients"],
      [{ report: "everything" }, "body.report"],
    ])("rejects %j with a 400 naming %s", async (override, path) => {
      const r = await post("/reports", reportBody(override));
      expect(r.status).toBe(400);
      expect(Problem.parse(r.body).errors?.map((e) => e.path)).toContain(path);
    });

    it("rejects an unknown groupId with a 422 naming it, on create and on replace", async () => {
      expect((await post("/reports", reportBody({ groupId: "grp_doesnotexist00" }))).status).toBe(422);
      const report = ScheduledReport.parse((await post("/reports", reportBody())).body);
      const r = await call(sandbox, "PUT", `/reports/${report.id}`, { token, json: reportBody({ groupId: "grp_doesnotexist00" }) });
      expect(r.status).toBe(422);
      expect(ScheduledReport.parse((await call(sandbox, "GET", `/reports/${report.id}`, { token })).body)).toEqual(report);
    });
  });

  it("uses yesterday as the last billed day", async () => {
    const s = await summary(daysFromToday(-1), daysFromToday(0));
    expect(s.forecast.actual).toBe(s.total);
    expect(s.forecast.projected).toBeGreaterThan(0);
  });
});
