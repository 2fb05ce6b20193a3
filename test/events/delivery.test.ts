import type { Event } from "@cloudcost/api";
import { startSandbox, type RunningSandbox } from "@cloudcost/testkit";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alertBody, call, fields, reportBody } from "../sandbox/api-client";
import { control, deliveries, events, eventually } from "./support/events-api";
import { Receiver } from "./support/receiver";
import { SmtpSink } from "./support/smtp-sink";

/**
 * Webhook delivery as durable, bounded work: retries with exponential backoff from
 * `--webhook-backoff-ms`, 5 attempts in all, a timeout per attempt, pending retries resumed by a
 * restarted `serve`, exactly-once events and webhooks with two `serve` processes on one folder, and the
 * optional SMTP relay.
 */

/** A budget of one cent: every threshold is crossed at the first evaluation. */
const crossingAlert = (webhookUrl: string, thresholds = [{ percent: 100, basis: "actual" }]) =>
  alertBody({ amount: 0.01, thresholds, recipients: ["ops@example.com"], webhookUrl });

async function createAlert(sandbox: RunningSandbox, token: string, body: Record<string, unknown>): Promise<string> {
  const reply = await call(sandbox, "POST", "/alerts", { token, json: body });
  expect(reply.status).toBe(201);
  return fields(reply).id as string;
}

/** A clock step: a synchronous evaluation of the organization. */
async function step(sandbox: RunningSandbox, token: string, by = "PT1S"): Promise<void> {
  expect((await control(sandbox, "POST", "/clock", token, { advance: by })).status).toBe(200);
}

const onlyEvent = async (sandbox: RunningSandbox, token: string, alertId: string): Promise<Event> => {
  const found = await events(sandbox, token, alertId);
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe("webhook retries", () => {
  let sandbox: RunningSandbox;
  let token: string;
  const receivers: Receiver[] = [];
  // The receiver answers from this test's process, which a busy machine may not run for hundreds of milliseconds:
  // in a CI run beside four busy processes, with a 500 ms timeout, the retry reached it 47 ms after the first
  // request, which only the first attempt timing out explains. So the timeout is far above that, and only the
  // answer told to hang meets it.
  beforeAll(async () => {
    sandbox = await startSandbox({ args: ["--webhook-backoff-ms", "200", "--webhook-timeout-ms", "5000"] });
    token = await sandbox.token("read,write");
  });
  afterAll(async () => {
    await Promise.all([sandbox?.dispose(), ...receivers.map((r) => r.close())]);
  });

  test("non-2xx answers and a timeout are retried with doubling backoff until one succeeds", async () => {
    const answers = [500, "hang", 503, 200] as const;
    const receiver = await Receiver.start((n) => answers[n] ?? 200);
    receivers.push(receiver);
    const alertId = await createAlert(sandbox, token, crossingAlert(receiver.url));
    await step(sandbox, token);
    const event = await onlyEvent(sandbox, token, alertId);
    const received = await receiver.waitFor(4);
    expect(new Set(received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.id]));
    const webhook = await eventually(async () => {
      const d = (await deliveries(sandbox, token, event.id)).find((x) => x.channel === "webhook");
      return d?.status === "succeeded" ? d : undefined;
    }, "the delivery settled");
    expect(webhook.attempts.map((a) => a.statusCode)).toEqual([500, null, 503, 200]);
    // Each retry starts at least the backoff (200, 400, 800 ms) after the failed attempt ended, as the delivery
    // records its attempts (start and duration, on the sandbox's clock). The receiver's arrival times are not the
    // measure: a receiver slowed by a busy machine logs an attempt late, and the next one then seems early.
    webhook.attempts.slice(1).forEach((attempt, i) => {
      const failed = webhook.attempts[i]!;
      expect(Date.parse(attempt.at) - (Date.parse(failed.at) + failed.durationMs)).toBeGreaterThanOrEqual(200 * 2 ** i);
    });
    expect(webhook.attempts[1]!.error).toMatch(/timed out after 5000 ms/);
    expect(webhook.attempts[0]!.error).toMatch(/500/);
    expect(webhook.attempts[3]!.error).toBeUndefined();
  });

  test("five attempts in all, then the delivery has failed; redirects are not followed; a refused connection is an attempt", async () => {
    const receiver = await Receiver.start(() => 302);
    receivers.push(receiver);
    const alertId = await createAlert(sandbox, token, crossingAlert(receiver.url));
    await step(sandbox, token);
    const event = await onlyEvent(sandbox, token, alertId);
    const webhook = await eventually(async () => {
      const d = (await deliveries(sandbox, token, event.id)).find((x) => x.channel === "webhook");
      return d?.status === "failed" ? d : undefined;
    }, "the delivery failed for good");
    expect(webhook.attempts.map((a) => a.statusCode)).toEqual([302, 302, 302, 302, 302]);
    expect(receiver.received).toHaveLength(5);
    // A connection that is refused is an attempt with no status.
    const closed = await Receiver.start();
    const url = closed.url;
    await closed.close();
    const refusedId = await createAlert(sandbox, token, crossingAlert(url));
    await step(sandbox, token);
    const refused = await onlyEvent(sandbox, token, refusedId);
    const attempt = await eventually(async () => {
      const d = (await deliveries(sandbox, token, refused.id)).find((x) => x.channel === "webhook");
      return d?.attempts[0];
    }, "a refused attempt");
    expect(attempt).toMatchObject({ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });
});

describe("durable deliveries and exactly-once events on one data folder", () => {
  let dataDir: string;
  const running: RunningSandbox[] = [];
  const receivers: Receiver[] = [];
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "cloudcost-events-"));
  });
  afterAll(async () => {
    await Promise.all([...running.map((s) => s.stop()), ...receivers.map((r) => r.close())]);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const serve = async (args: string[]) => {
    const s = await startSandbox({ dataDir, args });
    running.push(s);
    return s;
  };

  test("a restarted serve resumes a pending retry with the same webhook-id, and evaluates nothing twice", async () => {
    const receiver = await Receiver.start((n) => (n === 0 ? 500 : 204));
    receivers.push(receiver);
    const first = await serve(["--webhook-backoff-ms", "1500"]);
    const token = await first.token("read,write");
    const alertId = await createAlert(first, token, crossingAlert(receiver.url));
    await step(first, token);
    const [failed] = await receiver.waitFor(1);
    await first.stop();

    const second = await serve(["--webhook-backoff-ms", "1500"]);
    await step(second, token);
    const event = await onlyEvent(second, token, alertId);
    const [, retried] = await receiver.waitFor(2);
    expect(retried!.headers["webhook-id"]).toBe(failed!.headers["webhook-id"]);
    expect(retried!.headers["webhook-id"]).toBe(event.id);
    const webhook = await eventually(async () => {
      const d = (await deliveries(second, token, event.id)).find((x) => x.channel === "webhook");
      return d?.status === "succeeded" ? d : undefined;
    }, "the resumed delivery succeeded");
    expect(webhook.attempts.map((a) => a.statusCode)).toEqual([500, 204]);
    await second.stop();
  });

  test("two serve processes on one folder: each threshold and each report run makes one event, one webhook, one message per recipient", async () => {
    const receiver = await Receiver.start();
    receivers.push(receiver);
    // Both evaluate every 200 ms, so they race on every crossing.
    const [a, b] = [await serve(["--evaluate-every-ms", "200"]), await serve(["--evaluate-every-ms", "200"])];
    const token = await a.token("read,write");
    const thresholds = [50, 80, 100].map((percent) => ({ percent, basis: "actual" }));
    const alertId = await createAlert(a, token, crossingAlert(receiver.url, thresholds));
    const reportId = fields(
      await call(b, "POST", "/reports", {
        token,
        json: reportBody({
          // Due once in the 25 hours the clock moves below, whatever the time of day the test runs at: two
          // hours from now (a fixed time within an hour of now would fall in that window twice).
          schedule: { frequency: "daily", time: new Date(Date.now() + 2 * 3_600_000).toISOString().slice(11, 16), timezone: "UTC" },
          recipients: ["x@example.com", "y@example.com"],
        }),
      }),
    ).id as string;
    await receiver.waitFor(3);
    expect((await control(b, "POST", "/spend", token, { accountId: "444455556666", service: "Amazon S3", amount: 1000 })).status).toBe(200);
    await step(a, token, "P1D");
    await step(b, token, "PT1H");
    // Several more evaluation rounds of both processes.
    await new Promise((r) => setTimeout(r, 1500));

    const fired = await events(a, token, alertId);
    expect(fired.map((e) => (e.type === "budget_alert.threshold_crossed" ? e.data.threshold.percent : 0)).sort()).toEqual([100, 50, 80]);
    expect(await events(b, token, alertId)).toEqual(fired);
    expect(receiver.received.map((r) => r.headers["webhook-id"]).sort()).toEqual(fired.map((e) => e.id).sort());
    const runs = await events(a, token, reportId);
    expect(runs).toHaveLength(1);
    const outbox = fields(await control(a, "GET", "/outbox?limit=200", token)).items as { eventId: string; to: string }[];
    expect(
      outbox
        .filter((m) => m.eventId === runs[0]!.id)
        .map((m) => m.to)
        .sort(),
    ).toEqual(["x@example.com", "y@example.com"]);
    for (const e of fired) expect(outbox.filter((m) => m.eventId === e.id).map((m) => m.to)).toEqual(["ops@example.com"]);
  });
});

describe("--smtp-url relays captured e-mail", () => {
  let sandbox: RunningSandbox;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await SmtpSink.start();
    sandbox = await startSandbox({ args: ["--smtp-url", sink.url] });
  });
  afterAll(async () => {
    await Promise.all([sandbox?.dispose(), sink?.close()]);
  });

  test("a report run's message reaches the SMTP server with its attachment, and the delivery records the SMTP reply", async () => {
    const token = await sandbox.token("read,write");
    const reportId = fields(
      await call(sandbox, "POST", "/reports", {
        token,
        json: reportBody({ schedule: { frequency: "daily", time: "06:00", timezone: "UTC" }, recipients: ["finops@example.com"] }),
      }),
    ).id as string;
    await step(sandbox, token, "P1D");
    const [run] = await events(sandbox, token, reportId);
    const email = await eventually(async () => {
      const d = (await deliveries(sandbox, token, run!.id)).find((x) => x.channel === "email");
      return d?.status === "succeeded" ? d : undefined;
    }, "the relayed e-mail delivery");
    expect(email.attempts.map((a) => a.statusCode)).toEqual([250]);
    expect(sink.messages).toHaveLength(1);
    expect(sink.messages[0]!.to).toEqual(["<finops@example.com>"]);
    expect(sink.messages[0]!.data).toMatch(/^Subject: =\?UTF-8\?Q\?Scheduled_report_=22Weekly_summary=22/m);
    // The CSV, base64-encoded in its MIME part: it starts with the header row.
    expect(sink.messages[0]!.data).toContain(Buffer.from("provider,amount").toString("base64"));
    expect(sink.messages[0]!.data).toMatch(/filename=weekly-summary-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv/);
    // The outbox keeps it too.
    const outbox = fields(await control(sandbox, "GET", "/outbox", token)).items as { eventId: string }[];
    expect(outbox.map((m) => m.eventId)).toEqual([run!.id]);
  });

  test("serve refuses an --smtp-url that is not smtp:// (usage error, exit 2)", async () => {
    const result = await sandbox.cli(["serve", "--port", "0", "--smtp-url", "http://127.0.0.1:25"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--smtp-url must be an smtp:\/\/ or smtps:\/\/ URL/);
  });
});
