import type { Delivery } from "@cloudcost/api/contract";
import type { SandboxContext } from "./context";
import { conflict } from "../errors";
import { writeTransaction } from "../store/connection";

/**
 * One more attempt of an event's webhook, due now: the delivery worker sends it with the same
 * `webhook-id` (the event ID). 404 for another organization's event, 409 when the event has no webhook.
 * `POST /events/{eventId}/redeliver` and the portal's Redeliver button both come here.
 */
export function redeliverWebhook(ctx: SandboxContext, orgId: string, eventId: string): Delivery {
  return writeTransaction(ctx.db, () => {
    ctx.events.body(orgId, eventId);
    if (!ctx.deliveries.redeliver(eventId, Date.now()))
      throw conflict(`Event ${eventId} has no webhook to send: its alert has no webhookUrl, or it is a report event.`);
    const delivery = ctx.deliveries.webhook(eventId);
    if (!delivery) throw new Error(`webhook delivery of ${eventId} vanished`);
    return delivery;
  });
}
