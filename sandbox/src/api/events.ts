import { ServiceError } from "../errors";
import type { ApiHandlers } from "./handler";

/** Until the events engine lands: the operations exist in the contract and answer 501 Not Implemented. */
const notYet = (): never => {
  throw new ServiceError(501, "not-implemented", "Not implemented", "Events are not implemented yet.");
};

export const eventHandlers = {
  listEvents: notYet,
  getEvent: notYet,
  listDeliveries: notYet,
  redeliverEvent: notYet,
  getWebhookSigningSecret: notYet,
  rotateWebhookSigningSecret: notYet,
} satisfies ApiHandlers;
