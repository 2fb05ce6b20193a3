import type { ResourceKind } from "../dynamic-provider";
import { budgetAlertSpec } from "./budget-alert";
import { cloudGroupSpec } from "./cloud-group";
import { handlersFor, type Handlers } from "./handlers";
import type { ResourceSpec } from "./resource-spec";
import type { Props } from "./normalise";
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

/** The resource specs by kind: what the native plugin's front door and its schema are derived from. */
export const specs: Record<ResourceKind, ResourceSpec<Props, { id: string }>> = {
  CloudGroup: cloudGroupSpec,
  BudgetAlert: budgetAlertSpec,
  ScheduledReport: scheduledReportSpec,
};

export { changedKeys, configureFrom } from "./handlers";
export { CREATE_KEY, URN_KEY } from "./create-key";
export { clientFor, currentClient, logRequestsTo } from "./clients";
export { engineAddressOf, engineRequestLog, type EngineLogStubs } from "./engine-log";
export { checkedApiUrl, resolveSettings, SettingsError, type ConfigLookup } from "./settings";
export { SETTINGS_ENV } from "./settings-env";
export { userFacing } from "./user-facing-error";
export type { ResourceSpec } from "./resource-spec";
export type { Props } from "./normalise";
