import { conflict } from "../errors";
import type { ApiHandlers } from "./handler";

export const eventHandlers = {
  listEvents: (c) => ({ body: c.ctx.events.page(c.orgId, c.query) }),
  getEvent: (c) => ({ body: c.ctx.events.require(c.orgId, c.params.eventId) }),
  listDeliveries: (c) => {
    c.ctx.events.body(c.orgId, c.params.eventId); // 404 for another organization's event
    return { body: { items: c.ctx.deliveries.list(c.params.eventId) } };
  },
  /** One more attempt, due now; the delivery worker sends it with the same `webhook-id` (the event ID). */
  redeliverEvent: (c) => {
    c.ctx.events.body(c.orgId, c.params.eventId);
    if (!c.ctx.deliveries.redeliver(c.params.eventId, Date.now()))
      throw conflict(`Event ${c.params.eventId} has no webhook to send: its alert has no webhookUrl, or it is a report event.`);
    const delivery = c.ctx.deliveries.webhook(c.params.eventId);
    if (!delivery) throw new Error(`webhook delivery of ${c.params.eventId} vanished`);
    return { body: delivery, location: `/api/v1/events/${c.params.eventId}/deliveries` };
  },
  getWebhookSigningSecret: (c) => ({ body: { secret: c.ctx.signingSecrets.current(c.orgId) } }),
  rotateWebhookSigningSecret: (c) => ({ body: { secret: c.ctx.signingSecrets.rotate(c.orgId, Date.now()) } }),
} satisfies ApiHandlers;
