import { accountHandlers } from "./accounts";
import { alertHandlers, reportHandlers } from "./alerts-and-reports";
import { costHandlers } from "./costs";
import { eventHandlers } from "./events";
import { findingsHandlers } from "./findings";
import { groupHandlers } from "./groups";
import type { HandlerMap } from "./handler";
import { idempotencyKeyHandlers } from "./idempotency-keys";
import { scanHandlers } from "./scans";

/** The logic of every operation of the contract's table, keyed by `operationId` (the type proves none is missing). */
export const handlers: HandlerMap = {
  ...costHandlers,
  ...findingsHandlers,
  ...accountHandlers,
  ...groupHandlers,
  ...alertHandlers,
  ...reportHandlers,
  ...scanHandlers,
  ...eventHandlers,
  ...idempotencyKeyHandlers,
};
