import { API_BASE_PATH } from "@cloudcost/api/contract";
import { redeliverWebhook } from "../service/redeliver-webhook";
import type { ApiHandlers } from "./handler";

export const eventHandlers = {
  listEvents: (c) => ({ body: c.ctx.events.page(c.orgId, c.query) }),
  getEvent: (c) => ({ body: c.ctx.events.require(c.orgId, c.params.eventId) }),
  listDeliveries: (c) => {
    c.ctx.events.body(c.orgId, c.params.eventId); // 404 for another organization's event
    return { body: { items: c.ctx.deliveries.list(c.params.eventId) } };
  },
  /** One more attempt, due now; the delivery worker sends it with the same `webhook-id` (the event ID). */
  redeliverEvent: (c) => ({
    body: redeliverWebhook(c.ctx, c.orgId, c.params.eventId),
    location: `${API_BASE_PATH}/events/${c.params.eventId}/deliveries`,
  }),
  getWebhookSigningSecret: (c) => ({ body: { secret: c.ctx.signingSecrets.current(c.orgId) } }),
  rotateWebhookSigningSecret: (c) => ({ body: { secret: c.ctx.signingSecrets.rotate(c.orgId, Date.now()) } }),
} satisfies ApiHandlers;
