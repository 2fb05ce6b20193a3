import type { BudgetAlert, Event, ScheduledReport } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { Webhook } from "standardwebhooks";
import { DEMO_AZURE, alertBody, call, fields, reportBody } from "../sandbox/api-client";
import { control, deliveries, events, eventually, tenthOfNextMonth } from "./support/events-api";
import { Receiver } from "./support/receiver";

type Crossed = Extract<Event, { type: "budget_alert.threshold_crossed" }>;
type Delivered = Extract<Event, { type: "scheduled_report.delivered" }>;

/**
 * Issue 27's evaluation through HTTP against a real `serve`, on the organization's clock: absolute
 * thresholds, routing per threshold, planned and history-based amounts (the amount used travels in the
 * event), filters, the active window, and reports as a signed spend feed with the `budget_status` kind.
 */
describe("evaluation of deep budgets", () => {
  let sandbox: RunningSandbox;
  let receiver: Receiver;
  let token: string;
  let secret: string;
  let today: string;

  const alert = async (overrides: Record<string, unknown>): Promise<BudgetAlert> => {
    const reply = await call(sandbox, "POST", "/alerts", { token, json: alertBody(overrides) });
    expect(reply.status).toBe(201);
    return reply.body as BudgetAlert;
  };
  const replace = async (id: string, overrides: Record<string, unknown>): Promise<BudgetAlert> => {
    const reply = await call(sandbox, "PUT", `/alerts/${id}`, { token, json: alertBody(overrides) });
    expect(reply.status).toBe(200);
    return reply.body as BudgetAlert;
  };
  /** A probe alert that cannot fire, to read the scope's spend so far before the real one is set. */
  const spendSoFar = async (overrides: Record<string, unknown> = {}): Promise<{ id: string; spend: number }> => {
    const probe = await alert({ ...overrides, amount: 1e9, recipients: [], thresholds: [{ percent: 1000, basis: "actual" }] });
    return { id: probe.id, spend: probe.currentSpend };
  };
  const advance = async (by: string) => expect((await control(sandbox, "POST", "/clock", token, { advance: by })).status).toBe(200);
  const inject = async (amount: number, accountId = "111122223333", service = "Amazon EC2") =>
    expect((await control(sandbox, "POST", "/spend", token, { accountId, service, amount })).status).toBe(200);
  const crossings = async (alertId: string) => (await events(sandbox, token, alertId)) as Crossed[];
  const outboxTo = async (eventId: string) =>
    ((fields(await control(sandbox, "GET", "/outbox?limit=200", token)).items as { eventId: string; to: string }[]) ?? [])
      .filter((m) => m.eventId === eventId)
      .map((m) => m.to)
      .sort();

  beforeAll(async () => {
    [sandbox, receiver] = await Promise.all([
      startSandbox({ args: ["--rate-limit", "0", "--webhook-backoff-ms", "200"] }),
      Receiver.start(),
    ]);
    token = await sandbox.token("read,write");
    const start = tenthOfNextMonth();
    today = start.toISOString().slice(0, 10);
    expect((await control(sandbox, "POST", "/clock", token, { now: start.toISOString() })).status).toBe(200);
    secret = fields(await call(sandbox, "GET", "/webhooks/signing-secret", { token })).secret as string;
  });
  afterAll(async () => {
    await Promise.all([sandbox?.dispose(), receiver?.close()]);
  });

  test("an absolute threshold fires once, to its own recipients; a percent one to the alert's; events carry the amount used", async () => {
    const { id, spend } = await spendSoFar();
    const amount = Math.round(spend) + 1000;
    const level = Math.round(spend) + 100;
    await replace(id, {
      amount,
      recipients: ["all@example.com"],
      thresholds: [
        { amount: level, basis: "actual", recipients: ["route@example.com"] },
        { percent: 100, basis: "actual" },
      ],
    });
    await inject(50);
    await advance("PT1S");
    expect(await crossings(id)).toEqual([]);

    await inject(100);
    await advance("PT1S");
    const [absolute] = await crossings(id);
    expect(absolute).toMatchObject({
      data: {
        threshold: { amount: level, basis: "actual", recipients: ["route@example.com"] },
        thresholdAmount: level,
        amount,
        amountSource: "amount",
      },
    });
    expect(absolute!.data.spend).toBeGreaterThanOrEqual(level);
    expect(await outboxTo(absolute!.id)).toEqual(["route@example.com"]);

    await inject(1000);
    await advance("PT1S");
    const all = await crossings(id);
    expect(all).toHaveLength(2); // the absolute one did not fire again
    const percent = all.find((e) => e.data.threshold.percent === 100)!;
    expect(percent.data).toMatchObject({ thresholdAmount: amount, amount, amountSource: "amount" });
    expect(await outboxTo(percent.id)).toEqual(["all@example.com"]);
  });

  test("a planned amount is the period's amount: the threshold is judged against it and the event says so", async () => {
    const { id, spend } = await spendSoFar();
    const periodStart = `${today.slice(0, 8)}01`;
    const planned = Math.round(spend) + 50;
    const updated = await replace(id, {
      amount: 1e9,
      plannedAmounts: [{ periodStart, amount: planned }],
      recipients: [],
      thresholds: [{ percent: 100, basis: "actual" }],
    });
    expect(updated).toMatchObject({ effectiveAmount: planned, effectiveAmountSource: "planned" });
    await advance("PT1S");
    expect(await crossings(id)).toEqual([]);
    await inject(100);
    await advance("PT1S");
    const [fired] = await crossings(id);
    expect(fired!.data).toMatchObject({ amount: planned, amountSource: "planned", thresholdAmount: planned });
  });

  test("autoAdjust: the amount set from history is the one the event carries", async () => {
    const adjusted = await alert({
      amount: 1e9,
      recipients: [],
      autoAdjust: { lookbackPeriods: 2 },
      thresholds: [{ percent: 1, basis: "actual" }],
    });
    expect(adjusted.effectiveAmountSource).toBe("autoAdjust");
    expect(adjusted.effectiveAmount).toBeLessThan(1e9);
    await advance("PT1S");
    const [fired] = await crossings(adjusted.id);
    expect(fired!.data).toMatchObject({ amount: adjusted.effectiveAmount, amountSource: "autoAdjust" });
  });

  test("filters decide what counts: spend outside them never fires the alert", async () => {
    const filters = { providers: ["azure"], services: ["Virtual Machines"] };
    const { id, spend } = await spendSoFar({ filters });
    const level = Math.round(spend) + 200;
    await replace(id, { filters, amount: 1e9, recipients: [], thresholds: [{ amount: level, basis: "actual" }] });
    await inject(5000); // AWS spend: outside the filters
    await inject(5000, DEMO_AZURE[0], "Storage Accounts"); // Azure, another service: outside too
    await advance("PT1S");
    expect(await crossings(id)).toEqual([]);
    await inject(300, DEMO_AZURE[0], "Virtual Machines");
    await advance("PT1S");
    expect(await crossings(id)).toHaveLength(1);
  });

  test("outside its active window an alert neither evaluates nor fires; moving the window in makes it fire", async () => {
    const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    const reached = { amount: 1, recipients: [], thresholds: [{ percent: 100, basis: "actual" }] };
    const later = await alert({ ...reached, startDate: tomorrow });
    const over = await alert({ ...reached, endDate: yesterday });
    expect([later.active, over.active]).toEqual([false, false]);
    await advance("PT1S");
    expect(await crossings(later.id)).toEqual([]);
    expect(await crossings(over.id)).toEqual([]);

    // Both ends stay changeable: a start date already passed is just another date.
    const moved = await replace(later.id, { ...reached, startDate: yesterday });
    expect(moved.active).toBe(true);
    await advance("PT1S");
    expect(await crossings(later.id)).toHaveLength(1);
    expect(await crossings(over.id)).toEqual([]);
  });

  test("a clock step over the window's end judges up to the end date; later days never count", async () => {
    const now = String(fields(await control(sandbox, "GET", "/clock", token)).now);
    const day = (offset: number) => new Date(Date.parse(now.slice(0, 10)) + offset * 86_400_000).toISOString().slice(0, 10);
    const { id, spend } = await spendSoFar();
    const level = Math.round(spend) + 1; // reached by the next billed day
    await replace(id, { amount: 1e9, recipients: [], endDate: day(1), thresholds: [{ amount: level, basis: "actual" }] });
    await advance("P5D"); // "now" is past the window: only the window's end is judged, billed up to day(1)
    const fired = await crossings(id);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.createdAt).toBe(`${day(2)}T00:00:00.000Z`);
    const read = fields(await call(sandbox, "GET", `/alerts/${id}`, { token }));
    expect(read.active).toBe(false);
    expect(fired[0]!.data.spend).toBeLessThan(read.currentSpend as number); // the days after the end did not count
  });

  test("a planned amount for the next period applies once the clock rolls over, and its events carry it", async () => {
    const now = String(fields(await control(sandbox, "GET", "/clock", token)).now);
    const next = new Date(Date.UTC(Number(now.slice(0, 4)), Number(now.slice(5, 7)), 1)).toISOString().slice(0, 10);
    const planned = await alert({
      amount: 1e9,
      recipients: [],
      plannedAmounts: [{ periodStart: next, amount: 1 }],
      thresholds: [{ percent: 100, basis: "forecast" }],
    });
    expect(planned).toMatchObject({ effectiveAmount: 1e9, effectiveAmountSource: "amount" });
    await advance("PT1S");
    expect(await crossings(planned.id)).toEqual([]);
    await advance("P1M");
    const rolled = fields(await call(sandbox, "GET", `/alerts/${planned.id}`, { token }));
    expect(rolled).toMatchObject({ periodStart: next, effectiveAmount: 1, effectiveAmountSource: "planned" });
    const [fired] = await crossings(planned.id);
    expect(fired!.data).toMatchObject({ periodStart: next, amount: 1, amountSource: "planned", thresholdAmount: 1 });
  });

  test("a budget_status report is a signed spend feed; a filtered report reads only what its filters name", async () => {
    const tracked = await alert({ name: "Tracked", amount: 1e9, recipients: [], thresholds: [{ amount: 1, basis: "actual" }] });
    const feed = fields(
      await call(sandbox, "POST", "/reports", {
        token,
        json: reportBody({
          name: "Budget feed",
          report: "budget_status",
          recipients: [],
          webhookUrl: receiver.url,
          schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
        }),
      }),
    ) as unknown as ScheduledReport;
    const s3 = fields(
      await call(sandbox, "POST", "/reports", {
        token,
        json: reportBody({
          name: "S3 only",
          report: "services",
          filters: { services: ["Amazon S3"] },
          recipients: ["s3@example.com"],
          webhookUrl: receiver.url,
          schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
        }),
      }),
    ) as unknown as ScheduledReport;
    const before = receiver.received.length;
    await advance("P1D");

    const [delivered] = (await events(sandbox, token, feed.id)) as Delivered[];
    expect(delivered!.data.recipients).toEqual([]);
    expect(delivered!.data.columns).toEqual([
      "alert",
      "alert_id",
      "period_start",
      "period_end",
      "currency",
      "amount",
      "amount_source",
      "actual",
      "forecast",
      "percent_used",
      "thresholds_crossed",
    ]);
    const row = (delivered!.data.rows ?? []).find((r) => r[1] === tracked.id)!;
    expect(row).toMatchObject({ 0: "Tracked", 5: "1000000000.00", 6: "amount", 10: "1.00 actual" });
    expect(Number(row[7])).toBeGreaterThan(0);

    const hooks = await receiver.waitFor(before + 2);
    const mine = hooks.slice(before).find((h) => h.headers["webhook-id"] === delivered!.id)!;
    expect(new Webhook(secret).verify(mine.body, mine.headers as Record<string, string>)).toEqual(
      JSON.parse((await call(sandbox, "GET", `/events/${delivered!.id}`, { token })).text),
    );
    // The same delivery log as an alert's webhooks: one webhook target, no e-mail (the feed has no recipients).
    const log = await eventually(async () => {
      const d = await deliveries(sandbox, token, delivered!.id);
      return d.some((x) => x.status === "succeeded") ? d : undefined;
    }, "the feed's delivery recorded as succeeded");
    expect(log).toEqual([
      { channel: "webhook", target: receiver.url, status: "succeeded", attempts: [expect.objectContaining({ statusCode: 204 })] },
    ]);

    const [services] = (await events(sandbox, token, s3.id)) as Delivered[];
    const s3Rows = services!.data.rows ?? [];
    expect(s3Rows.length).toBeGreaterThan(0);
    expect(new Set(s3Rows.map((r) => r[0]))).toEqual(new Set(["Amazon S3"]));
    await eventually(async () => ((await outboxTo(services!.id)).length ? true : undefined), "the filtered report's e-mail");
    expect(await outboxTo(services!.id)).toEqual(["s3@example.com"]);
  });
});
