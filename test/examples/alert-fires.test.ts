import * as pulumi from "@pulumi/pulumi";
import { freePort } from "../../scripts/demo/free-port";
import { runExample } from "./example-program";
import { idOf, startDeployment, valueOf, type Deployment } from "@cloudcost/testkit";
import { startReceiver, type Receiver } from "../../examples/alert-fires/receiver";

/**
 * examples/alert-fires as its README runs it: `pulumi up` (here through the engine stand-in and the real
 * provider host), the receiver started with the stack's secret output, spend injected with the sandbox
 * CLI; the actual threshold fires once and the receiver verifies and prints the webhook.
 */
let d: Deployment;
let outputs: Record<string, unknown>;
let receiver: Receiver;
const printed: string[] = [];

beforeAll(async () => {
  d = await startDeployment();
  const port = await freePort();
  outputs = await runExample("alert-fires", {
    "cloudcost-test:receiverUrl": `http://127.0.0.1:${port}/webhooks/cloudcost`,
    "cloudcost-test:owner": "oncall@example.com",
  });
  receiver = await startReceiver({ secret: await valueOf<string>(outputs.webhookSigningSecret), port, log: (line) => printed.push(line) });
});
afterAll(async () => {
  await receiver?.close();
  await d?.stop();
});

/** The alert's events for one threshold basis. */
const eventsOfAlert = async (alertId: string, basis: "actual" | "forecast") => {
  const all = [];
  for await (const e of d.api.listEvents({ type: "budget_alert.threshold_crossed" }))
    if (e.type === "budget_alert.threshold_crossed" && e.data.alertId === alertId && e.data.threshold.basis === basis) all.push(e);
  return all;
};

describe("examples/alert-fires", () => {
  it("declares a budget just above the month's spend so far, with the receiver as its webhook", async () => {
    const alert = await d.api.getAlert(idOf(d, "checkout-monthly"));
    expect(alert).toMatchObject({
      name: "Checkout monthly budget",
      groupId: idOf(d, "checkout"),
      period: "monthly",
      recipients: ["oncall@example.com"],
      webhookUrl: receiver.url,
    });
    expect(alert.thresholds).toEqual(
      expect.arrayContaining([
        { percent: 100, basis: "forecast" },
        { percent: 100, basis: "actual" },
      ]),
    );
    expect(alert.amount).toBeGreaterThan(alert.currentSpend);
    expect(await valueOf(outputs.budgetAmount)).toBe(alert.amount);
    // The actual spend has not reached it yet (the forecast warning may already have fired: it should).
    expect(await eventsOfAlert(alert.id, "actual")).toEqual([]);
  });

  it("hands the receiver the signing secret as a Pulumi secret", async () => {
    expect(await pulumi.isSecret(outputs.webhookSigningSecret as pulumi.Output<string>)).toBe(true);
    expect(await valueOf(outputs.webhookSigningSecret)).toBe((await d.api.getWebhookSigningSecret()).secret);
  });

  it("fires when injected spend crosses the budget, once per threshold: the receiver verifies and prints the events, the e-mail is captured", async () => {
    const alertId = idOf(d, "checkout-monthly");
    const added = await d.sandbox.cli([
      "spend",
      "add",
      "--org",
      "demo",
      "--account",
      "444455556666",
      "--service",
      "Amazon EC2",
      "--amount",
      "150",
    ]);
    expect(added).toMatchObject({ code: 0, stderr: "" });

    const isActual = (e: { data: Record<string, unknown> }) => (e.data.threshold as { basis: string }).basis === "actual";
    const event = await receiver.next((e) => e.data.alertId === alertId && isActual(e));
    expect(event).toEqual(await d.api.getEvent(event.id));
    expect(event).toMatchObject({
      type: "budget_alert.threshold_crossed",
      data: { alertName: "Checkout monthly budget", threshold: { percent: 100, basis: "actual" } },
    });
    expect(printed).toContain(
      `received and verified ${event.id} budget_alert.threshold_crossed: "Checkout monthly budget" reached 100% (actual) of ${String(event.data.amount)} USD; spend ${String(event.data.spend)} (period ${String(event.data.periodStart)} to ${String(event.data.periodEnd)})`,
    );
    expect(await eventsOfAlert(alertId, "actual")).toHaveLength(1);
    // The forecast passed the budget no later than the spend did: its warning came too, once.
    const [warning, ...more] = await eventsOfAlert(alertId, "forecast");
    expect(more).toEqual([]);
    expect(await receiver.next((e) => e.id === warning!.id)).toEqual(warning);

    const outbox = await d.sandbox.cliJson<{ eventId: string; to: string }[]>(["outbox", "list", "--org", "demo", "--json"]);
    expect(outbox).toContainEqual(expect.objectContaining({ eventId: event.id, to: "oncall@example.com" }));
  });

  it("acts once per webhook-id: a redelivery is acknowledged but not handled again", async () => {
    const [event] = await eventsOfAlert(idOf(d, "checkout-monthly"), "actual");
    const handled = receiver.events.length;
    await d.api.redeliverEvent(event!.id);
    for (let i = 0; i < 200 && !printed.includes(`received ${event!.id} again (already handled)`); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(printed).toContain(`received ${event!.id} again (already handled)`);
    expect(receiver.events).toHaveLength(handled);
  });

  it("refuses a request whose signature does not verify", async () => {
    const before = receiver.rejected;
    const forged = await fetch(receiver.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "evt_forged0000000000000",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,bm90IGEgc2lnbmF0dXJl",
      },
      body: JSON.stringify({
        id: "evt_forged0000000000000",
        type: "budget_alert.threshold_crossed",
        createdAt: new Date().toISOString(),
        data: {},
      }),
    });
    expect(forged.status).toBe(401);
    expect(receiver.rejected).toBe(before + 1);
    expect(receiver.events.map((e) => e.id)).not.toContain("evt_forged0000000000000");
  });
});
