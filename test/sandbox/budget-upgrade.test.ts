import Database from "better-sqlite3";
import { join } from "node:path";
import { BudgetAlert, ScheduledReport } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { control, events, tenthOfNextMonth } from "../events/support/events-api";
import { alertBody, call, reportBody } from "./api-client";

/** The fields issue 27 added, as a data folder written before it does not have them. */
const ALERT_FIELDS_27 = ["filters", "plannedAmounts", "autoAdjust", "startDate", "endDate"];
const REPORT_FIELDS_27 = ["filters", "webhookUrl"];

/** Rewrites every stored alert and report of the data folder to its pre-issue-27 shape (the sandbox must be stopped). */
function downgrade(dataDir: string): void {
  const db = new Database(join(dataDir, "sandbox.db"), { fileMustExist: true });
  try {
    for (const [table, drop] of [
      ["budget_alerts", ALERT_FIELDS_27],
      ["scheduled_reports", REPORT_FIELDS_27],
    ] as const) {
      const rows = db.prepare(`SELECT id, fields FROM ${table}`).all() as { id: string; fields: string }[];
      for (const row of rows) {
        const fields = JSON.parse(row.fields) as Record<string, unknown>;
        for (const key of drop) delete fields[key];
        db.prepare(`UPDATE ${table} SET fields = ? WHERE id = ?`).run(JSON.stringify(fields), row.id);
      }
    }
    // Events: threshold events had no amountSource/thresholdAmount, report events no columns/rows.
    const events = db.prepare("SELECT id, body FROM events").all() as { id: string; body: string }[];
    for (const row of events) {
      const event = JSON.parse(row.body) as { data: Record<string, unknown> };
      for (const key of ["amountSource", "thresholdAmount", "columns", "rows"]) delete event.data[key];
      db.prepare("UPDATE events SET body = ? WHERE id = ?").run(JSON.stringify(event), row.id);
    }
  } finally {
    db.close();
  }
}

/**
 * A data folder made before issue 27 keeps working: its alerts and reports read with the new fields'
 * defaults, can be replaced, and a threshold that fired before the upgrade does not fire again after it
 * (the event's dedupe key of a percent threshold is unchanged).
 */
describe("a data folder from before issue 27", () => {
  let first: RunningSandbox;
  beforeAll(async () => {
    first = await startSandbox({ args: ["--rate-limit", "0"] });
  });
  afterAll(() => first.dispose());

  it("reads with defaults, replaces, and fires nothing twice", async () => {
    const token = await first.token("read,write");
    expect((await control(first, "POST", "/clock", token, { now: tenthOfNextMonth().toISOString() })).status).toBe(200);
    const created = BudgetAlert.parse((await call(first, "POST", "/alerts", { token, json: alertBody({ amount: 1 }) })).body);
    const report = ScheduledReport.parse(
      (
        await call(first, "POST", "/reports", {
          token,
          json: reportBody({ schedule: { frequency: "daily", time: "00:30", timezone: "UTC" } }),
        })
      ).body,
    );
    await control(first, "POST", "/clock", token, { advance: "P1D" });
    const [crossed] = await events(first, token, created.id);
    expect(crossed).toBeDefined();
    expect(await events(first, token, report.id)).toHaveLength(1);
    await first.stop();

    const tables = new Database(join(first.dataDir, "sandbox.db"), { readonly: true });
    const names = (tables.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    tables.close();
    expect(names).toEqual(expect.arrayContaining(["budget_alerts", "scheduled_reports"]));
    downgrade(first.dataDir);

    const second = await startSandbox({ dataDir: first.dataDir, args: ["--rate-limit", "0"] });
    try {
      const alert = BudgetAlert.parse((await call(second, "GET", `/alerts/${created.id}`, { token })).body);
      expect(alert).toMatchObject({
        filters: {},
        plannedAmounts: [],
        autoAdjust: null,
        startDate: null,
        endDate: null,
        effectiveAmount: 1,
        effectiveAmountSource: "amount",
        active: true,
        thresholds: [{ percent: 80, basis: "actual" }],
      });
      expect(ScheduledReport.parse((await call(second, "GET", `/reports/${report.id}`, { token })).body)).toMatchObject({
        filters: {},
        webhookUrl: null,
      });
      // Old events read (and list) through the contract: the threshold event's amount facts follow from what it carries.
      const upgraded = await events(second, token, created.id);
      expect(upgraded).toEqual([crossed]);
      const [delivered] = await events(second, token, report.id);
      expect(delivered!.data).not.toHaveProperty("rows");
      expect((await call(second, "GET", `/events/${delivered!.id}`, { token })).status).toBe(200);
      await control(second, "POST", "/clock", token, { advance: "PT1S" });
      expect(await events(second, token, created.id)).toHaveLength(1);
      const replaced = await call(second, "PUT", `/alerts/${created.id}`, {
        token,
        json: alertBody({ amount: 1, filters: { providers: ["aws"] } }),
      });
      expect(replaced.status).toBe(200);
      expect(BudgetAlert.parse(replaced.body).filters).toEqual({ providers: ["aws"] });
    } finally {
      await second.stop();
    }
  });
});
