import type { Event } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { alertBody, call, fields, reportBody } from "../sandbox/api-client";
import { control, tenthOfNextMonth } from "./support/events-api";

const DAY_MS = 86_400_000;

/** Sundays at 07:00 UTC after `from`, up to `to`: the runs of the weekly report below. */
function sundayMornings(from: Date, to: Date): string[] {
  const runs: string[] = [];
  for (let day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), 7)); day <= to;) {
    if (day > from && day.getUTCDay() === 0) runs.push(day.toISOString());
    day = new Date(day.getTime() + DAY_MS);
  }
  return runs;
}

/**
 * Issue 24: one clock step over several due runs records them in the order they fell due, and `GET /events`
 * lists them newest first by that time — a monthly report of the 1st is not listed before weekly ones of
 * later days. The clock starts at a fixed time (12:00 UTC on the 10th of next month), so the runs the step
 * passes do not depend on when the test runs.
 */
describe("a clock step walks the timeline", () => {
  let sandbox: RunningSandbox;
  let token: string;
  let start: Date;
  let to: Date;
  let expected: string[];

  beforeAll(async () => {
    // No timer evaluation in between: the step below is the one evaluation that sees the alert and the reports.
    sandbox = await startSandbox({ args: ["--rate-limit", "0", "--evaluate-every-ms", "86400000"] });
    token = await sandbox.token("read,write");
    start = tenthOfNextMonth();
    expect((await control(sandbox, "POST", "/clock", token, { now: start.toISOString() })).status).toBe(200);
    const create = async (path: string, json: Record<string, unknown>) =>
      expect((await call(sandbox, "POST", path, { token, json })).status).toBe(201);
    const monthly = { frequency: "monthly", dayOfMonth: 1, time: "06:00", timezone: "UTC" };
    await create("/reports", reportBody({ name: "Monthly", schedule: monthly }));
    await create(
      "/reports",
      reportBody({ name: "Weekly", schedule: { frequency: "weekly", dayOfWeek: "sunday", time: "07:00", timezone: "UTC" } }),
    );
    // Any spend reaches 1 USD: the month the step leaves is judged at its end, the next one at the new now.
    await create("/alerts", alertBody({ name: "Tiny", amount: 1, thresholds: [{ percent: 100, basis: "actual" }] }));

    const stepped = await control(sandbox, "POST", "/clock", token, { advance: "P35D" });
    expect(stepped.status).toBe(200);
    to = new Date(fields(stepped).now as string);
    const firstOfNextMonth = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    expected = [
      firstOfNextMonth.toISOString(),
      new Date(firstOfNextMonth.getTime() + 6 * 3_600_000).toISOString(),
      ...sundayMornings(start, to),
      to.toISOString(),
    ].sort((a, b) => b.localeCompare(a));
  });
  afterAll(() => sandbox?.dispose());

  test("GET /events lists every event of the step newest first, each dated when it was due on the organization's clock", async () => {
    const reply = await call(sandbox, "GET", "/events?limit=200", { token });
    expect(reply.status).toBe(200);
    const items = fields(reply).items as Event[];
    expect(items.map((e) => e.createdAt)).toEqual(expected);
    // At 00:00 and at the new now the alert (the month left, the month entered), at 06:00 the monthly report, at 07:00 the weekly one.
    const named: Record<number, string> = { 0: "Tiny", 6: "Monthly", 7: "Weekly", 12: "Tiny" };
    expect(items.map((e) => ("reportName" in e.data ? e.data.reportName : e.data.alertName))).toEqual(
      expected.map((at) => named[new Date(at).getUTCHours()]),
    );
  });

  test("the captured messages were written in the same order: the outbox (newest written first) matches the events", async () => {
    const events = fields(await call(sandbox, "GET", "/events?limit=200", { token })).items as Event[];
    const outbox = fields(await control(sandbox, "GET", "/outbox?limit=200", token)).items as { eventId: string }[];
    // One recipient each, so one message per event.
    expect(outbox.map((m) => m.eventId)).toEqual(events.map((e) => e.id));
  });

  test.each([1, 2, 3])("pages of %i follow the same order, with no event twice and none left out", async (limit) => {
    const all = fields(await call(sandbox, "GET", "/events?limit=200", { token })).items as Event[];
    const paged: Event[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const page = fields(await call(sandbox, "GET", `/events?limit=${limit}${query}`, { token }));
      paged.push(...(page.items as Event[]));
      cursor = page.nextCursor as string | null;
    } while (cursor !== null && paged.length <= all.length);
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  test("?type= keeps that order too, and its pages are the same", async () => {
    const reports = fields(await call(sandbox, "GET", "/events?type=scheduled_report.delivered&limit=200", { token })).items as Event[];
    expect(reports.map((e) => e.createdAt)).toEqual(expected.filter((at) => /T0[67]:00:00\.000Z$/.test(at)));
    const first = fields(await call(sandbox, "GET", "/events?type=scheduled_report.delivered&limit=4", { token }));
    const rest = fields(
      await call(
        sandbox,
        "GET",
        `/events?type=scheduled_report.delivered&limit=200&cursor=${encodeURIComponent(first.nextCursor as string)}`,
        {
          token,
        },
      ),
    );
    expect([...(first.items as Event[]), ...(rest.items as Event[])].map((e) => e.id)).toEqual(reports.map((e) => e.id));
  });
});
