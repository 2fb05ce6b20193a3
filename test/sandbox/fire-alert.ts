import { Event, EventPage } from "@cloudcost/api";
import { sandboxControl, type RunningSandbox } from "@cloudcost/testkit";
import { alertBody, call, fields } from "./api-client";

export interface FireOptions {
  /** A token of the organization with the write scope. */
  token: string;
  name: string;
  /** A connected account of the organization: the spend is injected there. */
  accountId: string;
  webhookUrl?: string;
  recipients?: string[];
}

/**
 * Makes a budget alert fire the way a user would see it happen: an alert 10 above the spend so far, then
 * 50 of injected spend. Resolves with its `budget_alert.threshold_crossed` event once recorded.
 */
export async function fireAlert(sb: RunningSandbox, o: FireOptions): Promise<Event> {
  const body = (amount: number) =>
    alertBody({
      name: o.name,
      amount,
      thresholds: [{ percent: 100, basis: "actual" }],
      webhookUrl: o.webhookUrl ?? null,
      recipients: o.recipients ?? [],
    });
  const created = fields(await call(sb, "POST", "/alerts", { token: o.token, json: body(1_000_000) }));
  const amount = Math.ceil(Number(created.currentSpend)) + 10;
  const replaced = await call(sb, "PUT", `/alerts/${String(created.id)}`, { token: o.token, json: body(amount) });
  if (replaced.status !== 200) throw new Error(`PUT /alerts answered ${replaced.status}: ${replaced.text}`);
  await sandboxControl(sb, o.token, "/spend", { accountId: o.accountId, service: "Amazon EC2", amount: 50 });
  // Bounded: 60 s of polling, then a failure that says what was awaited.
  for (let i = 0; i < 600; i++) {
    const page = EventPage.parse((await call(sb, "GET", "/events?type=budget_alert.threshold_crossed", { token: o.token })).body);
    const fired = page.items.find((e) => e.type === "budget_alert.threshold_crossed" && e.data.alertId === created.id);
    if (fired) return Event.parse(fired);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`alert ${String(created.id)} did not fire within 60 s`);
}
