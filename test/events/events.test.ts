import type { BudgetAlert, Event, ScheduledReport } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { Webhook } from "standardwebhooks";
import { alertBody, call, expectProblem, fields, reportBody } from "../sandbox/api-client";
import { WEEKDAYS, control, deliveries, events, eventually, tenthOfNextMonth } from "./support/events-api";
import { Receiver } from "./support/receiver";

/**
 * Issue 15 through HTTP against a real `serve`: alerts fire once when spend (injected, or billed as the
 * organization's clock moves) reaches a threshold, reports run on the clock into the captured outbox,
 * webhooks reach a real receiver signed as Standard Webhooks, and the controls keep to scopes and
 * organizations.
 */
describe("events, the outbox and the sandbox clock", () => {
  let sandbox: RunningSandbox;
  let receiver: Receiver;
  let token: string;
  let readOnly: string;
  let secret: string;
  let start: Date;

  const alert = async (overrides: Record<string, unknown>): Promise<BudgetAlert> => {
    const reply = await call(sandbox, "POST", "/alerts", { token, json: alertBody(overrides) });
    expect(reply.status).toBe(201);
    return reply.body as BudgetAlert;
  };
  const advance = async (by: string) => {
    const reply = await control(sandbox, "POST", "/clock", token, { advance: by });
    expect(reply.status).toBe(200);
    return fields(reply);
  };
  const spend = async (amount: number) =>
    expect((await control(sandbox, "POST", "/spend", token, { accountId: "111122223333", service: "Amazon EC2", amount })).status).toBe(
      200,
    );

  beforeAll(async () => {
    [sandbox, receiver] = await Promise.all([
      startSandbox({ args: ["--rate-limit", "0", "--webhook-backoff-ms", "200"] }),
      Receiver.start(),
    ]);
    [token, readOnly] = await Promise.all([sandbox.token("read,write"), sandbox.token("read")]);
    start = tenthOfNextMonth();
    const set = await control(sandbox, "POST", "/clock", token, { now: start.toISOString() });
    expect(fields(set)).toEqual({ now: start.toISOString(), frozen: true });
    secret = fields(await call(sandbox, "GET", "/webhooks/signing-secret", { token })).secret as string;
  });
  afterAll(async () => {
    await Promise.all([sandbox?.dispose(), receiver?.close()]);
  });

  let firedEvent: Event;
  let quietEvent: Event;

  test("injected spend crosses a threshold: one event, one e-mail, one signed webhook whose body is the event", async () => {
    const probe = await alert({
      amount: 1e9,
      thresholds: [{ percent: 100, basis: "actual" }],
      recipients: ["ops@example.com"],
      webhookUrl: receiver.url,
    });
    const budget = Math.round(probe.currentSpend) + 500;
    const replaced = await call(sandbox, "PUT", `/alerts/${probe.id}`, {
      token,
      json: alertBody({
        amount: budget,
        thresholds: [{ percent: 100, basis: "actual" }],
        recipients: ["ops@example.com"],
        webhookUrl: receiver.url,
      }),
    });
    expect(replaced.status).toBe(200);

    await spend(400);
    await advance("PT1S"); // a synchronous evaluation: 400 more is still below the budget
    expect(await events(sandbox, token, probe.id)).toEqual([]);
    expect((fields(await call(sandbox, "GET", `/alerts/${probe.id}`, { token })).currentSpend as number) - probe.currentSpend).toBeCloseTo(
      400,
      2,
    );

    await spend(200);
    const [fired] = await eventually(async () => {
      const found = await events(sandbox, token, probe.id);
      return found.length ? found : undefined;
    }, "the crossing caused by injected spend");
    firedEvent = fired!;
    expect(fired).toMatchObject({
      type: "budget_alert.threshold_crossed",
      data: { alertId: probe.id, alertName: "Monthly cap", threshold: { percent: 100, basis: "actual" }, amount: budget, currency: "USD" },
    });
    if (fired!.type !== "budget_alert.threshold_crossed") throw new Error("unexpected type");
    expect(fired!.data.spend).toBeGreaterThanOrEqual(budget);
    expect(fired!.data.periodStart).toBe(start.toISOString().slice(0, 8) + "01");

    const [hook] = await receiver.waitFor(1);
    const asServed = await call(sandbox, "GET", `/events/${fired!.id}`, { token });
    expect(hook!.body).toBe(asServed.text);
    expect(hook!.headers["webhook-id"]).toBe(fired!.id);
    // Wall-clock seconds, not the organization's clock (which is weeks ahead).
    expect(Math.abs(Number(hook!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(300);
    expect(new Webhook(secret).verify(hook!.body, hook!.headers as Record<string, string>)).toEqual(JSON.parse(asServed.text));
    expect(() =>
      new Webhook(`whsec_${Buffer.from("another key of 32 bytes!!!!!!!!!").toString("base64")}`).verify(
        hook!.body,
        hook!.headers as Record<string, string>,
      ),
    ).toThrow();

    const log = await eventually(async () => {
      const d = await deliveries(sandbox, token, fired!.id);
      return d.some((x) => x.channel === "webhook" && x.status === "succeeded") ? d : undefined;
    }, "the webhook delivery recorded as succeeded");
    expect(log).toEqual([
      { channel: "email", target: "ops@example.com", status: "succeeded", attempts: [expect.objectContaining({ statusCode: null })] },
      { channel: "webhook", target: receiver.url, status: "succeeded", attempts: [expect.objectContaining({ statusCode: 204 })] },
    ]);
    const outbox = fields(await control(sandbox, "GET", "/outbox?limit=200", readOnly)).items as {
      eventId: string;
      to: string;
      subject: string;
    }[];
    expect(outbox.filter((m) => m.eventId === fired!.id)).toEqual([
      expect.objectContaining({ to: "ops@example.com", subject: expect.stringContaining("Monthly cap") }),
    ]);

    // More spend, another evaluation: never a second event or webhook for this (alert, period, threshold).
    await spend(5000);
    await advance("PT1S");
    expect(await events(sandbox, token, probe.id)).toHaveLength(1);
    expect(receiver.received.filter((r) => r.headers["webhook-id"] === fired!.id)).toHaveLength(1);
  });

  test("a clock step evaluates before it answers; a disabled alert never fires", async () => {
    const now = fields(await control(sandbox, "GET", "/clock", readOnly));
    expect(now.frozen).toBe(true);
    const probe = await alert({ amount: 1e9, recipients: [], thresholds: [{ percent: 100, basis: "actual" }] });
    const budget = Math.round(probe.currentSpend) + 1;
    const body = (enabled: boolean) =>
      alertBody({ amount: budget, recipients: [], thresholds: [{ percent: 100, basis: "actual" }], enabled });
    expect((await call(sandbox, "PUT", `/alerts/${probe.id}`, { token, json: body(true) })).status).toBe(200);
    const disabled = fields(await call(sandbox, "POST", "/alerts", { token, json: body(false) })).id as string;

    // One more billed day: the spend so far passes the budget; the events exist when the call returns.
    await advance("P1D");
    const fired = await events(sandbox, token, probe.id);
    expect(fired).toHaveLength(1);
    quietEvent = fired[0]!;
    expect(await events(sandbox, token, disabled)).toEqual([]);
    const after = fields(await call(sandbox, "GET", `/alerts/${probe.id}`, { token }));
    expect(after.currentSpend as number).toBeGreaterThanOrEqual(budget);
  });

  test("a clock step over a month end judges the month that ended, fully billed", async () => {
    const probe = await alert({ amount: 1e9, recipients: [], thresholds: [{ percent: 100, basis: "actual" }] });
    const budget = Math.round(probe.currentSpend) + 1;
    const body = alertBody({ amount: budget, recipients: [], thresholds: [{ percent: 100, basis: "actual" }] });
    expect((await call(sandbox, "PUT", `/alerts/${probe.id}`, { token, json: body })).status).toBe(200);
    // Without the step nothing reaches the budget: the clock stands still.
    await advance("PT1S");
    expect(await events(sandbox, token, probe.id)).toEqual([]);

    await advance("P1M");
    const ended = (await events(sandbox, token, probe.id)).filter(
      (e) => e.type === "budget_alert.threshold_crossed" && e.data.periodStart === probe.periodStart,
    );
    expect(ended).toHaveLength(1);
    const next = new Date(Date.parse(`${probe.periodEnd}T00:00:00Z`) + 86_400_000).toISOString();
    expect(ended[0]).toMatchObject({ createdAt: next, data: { periodStart: probe.periodStart, periodEnd: probe.periodEnd } });
  });

  test("reports run on the organization's clock: CSV and PDF attached to one message per recipient", async () => {
    const clock = new Date(fields(await control(sandbox, "GET", "/clock", token)).now as string);
    const tomorrow = new Date(clock.getTime() + 86_400_000);
    const daily = fields(
      await call(sandbox, "POST", "/reports", {
        token,
        json: reportBody({
          name: "Daily summary",
          schedule: { frequency: "daily", time: "09:00", timezone: "UTC" },
          recipients: ["a@example.com", "b@example.com"],
        }),
      }),
    ) as unknown as ScheduledReport;
    const weekly = fields(
      await call(sandbox, "POST", "/reports", {
        token,
        json: reportBody({
          name: "Weekly services",
          report: "services",
          format: "pdf",
          schedule: { frequency: "weekly", dayOfWeek: WEEKDAYS[tomorrow.getUTCDay()], time: "09:00", timezone: "UTC" },
          recipients: ["c@example.com"],
        }),
      }),
    ) as unknown as ScheduledReport;
    expect(daily.lastRunAt).toBeNull();
    const runAt = `${tomorrow.toISOString().slice(0, 10)}T09:00:00.000Z`;
    expect(daily.nextRunAt).toBe(runAt);

    await advance("P1D");
    const day = (offset: number) => new Date(Date.parse(runAt) + offset * 86_400_000).toISOString().slice(0, 10);
    const [dailyEvent] = await events(sandbox, token, daily.id);
    expect(dailyEvent).toMatchObject({
      type: "scheduled_report.delivered",
      createdAt: runAt,
      data: { reportId: daily.id, format: "csv", from: day(-1), to: day(-1), recipients: ["a@example.com", "b@example.com"] },
    });
    const [weeklyEvent] = await events(sandbox, token, weekly.id);
    expect(weeklyEvent).toMatchObject({ data: { format: "pdf", from: day(-7), to: day(-1) } });

    const outbox = fields(await control(sandbox, "GET", "/outbox?limit=200", readOnly)).items as {
      id: string;
      eventId: string;
      to: string;
      attachments: { filename: string; contentType: string; size: number }[];
    }[];
    const csvMessages = outbox.filter((m) => m.eventId === dailyEvent!.id);
    expect(csvMessages.map((m) => m.to).sort()).toEqual(["a@example.com", "b@example.com"]);
    const csv = await control(sandbox, "GET", `/outbox/${csvMessages[0]!.id}/attachments/0`, readOnly);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.bytes.length).toBe(csvMessages[0]!.attachments[0]!.size);
    const rows = csv.text.trim().split("\r\n");
    expect(rows[0]).toBe("provider,amount");
    expect(rows.slice(1).map((r) => r.split(",")[0])).toEqual(["aws", "azure", "total"]);

    const pdfMessage = outbox.find((m) => m.eventId === weeklyEvent!.id)!;
    expect(pdfMessage.attachments[0]).toMatchObject({
      contentType: "application/pdf",
      filename: `weekly-services-${day(-7)}-${day(-1)}.pdf`,
    });
    const pdf = await control(sandbox, "GET", `/outbox/${pdfMessage.id}/attachments/0`, token);
    expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.bytes.subarray(-6).toString("latin1")).toMatch(/%%EOF/);

    const after = fields(await call(sandbox, "GET", `/reports/${daily.id}`, { token }));
    expect(after).toMatchObject({ lastRunAt: runAt, nextRunAt: `${day(1)}T09:00:00.000Z` });
  });

  test("redelivery sends the same webhook-id again; after a rotation both signatures verify", async () => {
    const before = receiver.received.length;
    const redelivered = await call(sandbox, "POST", `/events/${firedEvent.id}/redeliver`, { token });
    expect(redelivered.status).toBe(202);
    expect(fields(redelivered)).toMatchObject({ channel: "webhook", status: "pending" });
    const [, again] = (await receiver.waitFor(before + 1)).slice(before - 1);
    expect(again!.headers["webhook-id"]).toBe(firedEvent.id);
    expect(new Webhook(secret).verify(again!.body, again!.headers as Record<string, string>)).toBeTruthy();

    const rotated = fields(await call(sandbox, "POST", "/webhooks/signing-secret/rotate", { token })).secret as string;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(fields(await call(sandbox, "GET", "/webhooks/signing-secret", { token })).secret).toBe(rotated);
    expect((await call(sandbox, "POST", `/events/${firedEvent.id}/redeliver`, { token })).status).toBe(202);
    const third = (await receiver.waitFor(before + 2))[before + 1]!;
    const signatures = String(third.headers["webhook-signature"]).split(" ");
    expect(signatures).toHaveLength(2);
    for (const [key, signature] of [
      [rotated, signatures[0]!],
      [secret, signatures[1]!],
    ] as const) {
      // Each signature on its own verifies with its own secret.
      expect(
        new Webhook(key).verify(third.body, { ...(third.headers as Record<string, string>), "webhook-signature": signature }),
      ).toBeTruthy();
    }
    const log = await eventually(async () => {
      const d = (await deliveries(sandbox, token, firedEvent.id)).find((x) => x.channel === "webhook")!;
      return d.attempts.length === 3 && d.status === "succeeded" ? d : undefined;
    }, "three attempts in the delivery log");
    expect(log.attempts.map((a) => a.statusCode)).toEqual([204, 204, 204]);
    // An event without a webhook has nothing to redeliver.
    expectProblem(await call(sandbox, "POST", `/events/${quietEvent.id}/redeliver`, { token }), 409);
  });

  test("events and the outbox: ?type= filter and paging", async () => {
    const reports = await call(sandbox, "GET", "/events?type=scheduled_report.delivered&limit=1", { token });
    expect(reports.status).toBe(200);
    const page = fields(reports);
    expect((page.items as Event[]).map((e) => e.type)).toEqual(["scheduled_report.delivered"]);
    const next = await call(
      sandbox,
      "GET",
      `/events?type=scheduled_report.delivered&limit=1&cursor=${encodeURIComponent(page.nextCursor as string)}`,
      {
        token,
      },
    );
    expect((fields(next).items as Event[])[0]!.type).toBe("scheduled_report.delivered");
    // A cursor of the filtered list is not one of the whole list.
    expectProblem(await call(sandbox, "GET", `/events?cursor=${encodeURIComponent(page.nextCursor as string)}`, { token }), 400);
    expectProblem(await call(sandbox, "GET", "/events?type=budget_alert.fired", { token }), 400);
  });

  test("scopes and organizations: read tokens read, writes need write, no token is a 401, other organizations see nothing", async () => {
    const outbox = fields(await control(sandbox, "GET", "/outbox?limit=200", readOnly)).items as { id: string }[];
    const message = outbox[0]!.id;
    for (const path of ["/clock", "/outbox", `/outbox/${message}/attachments/0`]) {
      expect((await control(sandbox, "GET", path, readOnly)).status).toBe(200);
      expect((await control(sandbox, "GET", path, undefined)).status).toBe(401);
    }
    for (const [method, path, json] of [
      ["POST", "/clock", { advance: "PT1S" }],
      ["POST", "/spend", { accountId: "111122223333", service: "x", amount: 1 }],
      ["DELETE", "/outbox", undefined],
    ] as const) {
      expect((await control(sandbox, method, path, readOnly, json)).status).toBe(403);
      expect((await control(sandbox, method, path, undefined, json)).status).toBe(401);
    }
    expect((await call(sandbox, "GET", "/events", { token: readOnly })).status).toBe(200);
    expect((await call(sandbox, "GET", `/events/${firedEvent.id}/deliveries`, { token: readOnly })).status).toBe(200);
    expect((await call(sandbox, "GET", "/events", {})).status).toBe(401);
    expectProblem(await call(sandbox, "GET", "/webhooks/signing-secret", { token: readOnly }), 403);
    expectProblem(await call(sandbox, "POST", `/events/${firedEvent.id}/redeliver`, { token: readOnly }), 403);

    await sandbox.cliJson(["org", "create", "other", "--json"]);
    await sandbox.cliJson(["account", "add", "--org", "other", "--provider", "aws", "--id", "210987654321", "--json"]);
    const other = (await sandbox.cliJson<{ token: string }>(["token", "create", "--org", "other", "--scopes", "read,write", "--json"]))
      .token;
    expect(await events(sandbox, other)).toEqual([]);
    for (const path of [`/events/${firedEvent.id}`, `/events/${firedEvent.id}/deliveries`])
      expectProblem(await call(sandbox, "GET", path, { token: other }), 404);
    expectProblem(await call(sandbox, "POST", `/events/${firedEvent.id}/redeliver`, { token: other }), 404);
    expect(fields(await control(sandbox, "GET", "/outbox", other)).items).toEqual([]);
    expectProblem(await control(sandbox, "GET", `/outbox/${message}/attachments/0`, other), 404);
    // Another organization keeps real time, and its secret is its own.
    const theirs = fields(await control(sandbox, "GET", "/clock", other));
    expect(theirs.frozen).toBe(false);
    expect(Math.abs(Date.parse(theirs.now as string) - Date.now())).toBeLessThan(300_000);
    expect(fields(await call(sandbox, "GET", "/webhooks/signing-secret", { token: other })).secret).not.toBe(secret);
    // Its spend cannot name our accounts.
    expectProblem(await control(sandbox, "POST", "/spend", other, { accountId: "111122223333", service: "x", amount: 1 }), 422);
  });

  test("bad input: clear problems, never a 500, nothing changed", async () => {
    const before = fields(await control(sandbox, "GET", "/clock", token));
    const past = new Date(Date.parse(before.now as string) - 1000).toISOString();
    expectProblem(await control(sandbox, "POST", "/clock", token, { now: past }), 409);
    const invalid: unknown[] = [
      { advance: "P-1D" },
      { advance: "banana" },
      { advance: "P400D" },
      { advance: "P99999999999Y" },
      { advance: "p1d" },
      { advance: "PT0S" },
      { now: "next tuesday" },
      { now: "9999-01-01T00:00:00Z" },
      { now: before.now, advance: "P1D" },
      {},
      { advance: 5 },
    ];
    for (const json of invalid) {
      const problem = expectProblem(await control(sandbox, "POST", "/clock", token, json), 400);
      expect(problem.errors?.length).toBeGreaterThan(0);
    }
    const badSpend: unknown[] = [
      { accountId: "111122223333", service: "EC2", amount: -5 },
      { accountId: "111122223333", service: "EC2", amount: 0 },
      { accountId: "111122223333", service: "EC2", amount: 1e15 },
      { accountId: "111122223333", service: "EC2", amount: 0.001 },
      { accountId: "111122223333", service: "  ", amount: 1 },
      { accountId: "not-an-account", service: "EC2", amount: 1 },
      { accountId: "111122223333", service: "EC2", amount: "12" },
      { accountId: "111122223333", service: "EC2", amount: 1, extra: true },
    ];
    for (const json of badSpend) expectProblem(await control(sandbox, "POST", "/spend", token, json), 400);
    // A mistyped Azure subscription is told both forms, not only the AWS rule.
    const azureTypo = expectProblem(
      await control(sandbox, "POST", "/spend", token, { accountId: "3f2504e0-4f89-11d3-9a0c", service: "EC2", amount: 1 }),
      400,
    );
    expect(azureTypo.errors).toMatchObject([
      { path: "body.accountId", message: "must be a connected account's ID (AWS: 12 digits; Azure: a GUID)" },
    ]);
    expectProblem(await control(sandbox, "POST", "/spend", token, { accountId: "999999999999", service: "EC2", amount: 1 }), 422);
    const malformed = await fetch(`${sandbox.origin}/sandbox/v1/clock`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect(fields(await control(sandbox, "GET", "/clock", token))).toEqual(before);
    for (const path of ["/outbox/msg_0000000000zz/attachments/0", "/outbox/nope/attachments/0", "/outbox/msg_0000000000zz/attachments/x"])
      expectProblem(await control(sandbox, "GET", path, token), 404);
    expectProblem(await call(sandbox, "GET", "/events/evt_0000000000zz", { token }), 404);
    const wrongMethod = await control(sandbox, "PUT", "/clock", token, { advance: "P1D" });
    expectProblem(wrongMethod, 405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, POST, HEAD");
    expectProblem(await control(sandbox, "GET", "/nothing-here", token), 404);

    // Emptying the outbox leaves the events and their delivery log.
    expect((await control(sandbox, "DELETE", "/outbox", token)).status).toBe(204);
    expect(fields(await control(sandbox, "GET", "/outbox", token)).items).toEqual([]);
    expect(await deliveries(sandbox, token, firedEvent.id)).toHaveLength(2);
  });
});
