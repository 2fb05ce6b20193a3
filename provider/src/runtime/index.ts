import type { ResourceKind } from "../dynamic-provider";
import { budgetAlertSpec } from "./budget-alert";
import { cloudGroupSpec } from "./cloud-group";
import { handlersFor, type Handlers } from "./handlers";
import { scheduledReportSpec } from "./scheduled-report";

/*
 * `@cloudcost/pulumi/runtime`: loaded by the dynamic-provider host at call time, which looks the handlers
 * up by resource kind (`require(…)[kind][operation]`, see dynamic-provider.ts). Nothing here is ever
 * serialized into state.
 */
export const CloudGroup: Handlers = handlersFor(cloudGroupSpec);
export const BudgetAlert: Handlers = handlersFor(budgetAlertSpec);
export const ScheduledReport: Handlers = handlersFor(scheduledReportSpec);

/** The same handlers keyed by kind (tests and tools). */
export const handlers: Record<ResourceKind, Handlers> = { CloudGroup, BudgetAlert, ScheduledReport };
