import { AlertId, AlertInput, z } from "@cloudcost/api";
import type { BudgetAlert } from "@cloudcost/api";
import { BUDGET_ALERT_DEFAULTS } from "../budget-alert-defaults";
import { emailSet, nullsDropped, objectSet, type Props } from "./normalise";
import { apiBody, comparedInputs, pick, type ResourceSpec } from "./resource-spec";

const schema = AlertInput.extend({ adoptId: AlertId.optional() });
type Checked = z.output<typeof schema>;

const diffKeys = comparedInputs(schema);
/**
 * `webhookUrl` is left out of the inputs read back on purpose: it is a secret, and inputs read back from
 * the service are not guaranteed to be encrypted in state. Drift of the webhook still shows, through the
 * outputs diff.
 */
const readBackKeys = diffKeys.filter((k) => k !== "webhookUrl");

/** Requests: create 1 (POST), read 1, update 1 (PUT), delete 1. */
export const budgetAlertSpec: ResourceSpec<Checked, BudgetAlert> = {
  typeName: "BudgetAlert",
  schema,
  diffKeys,
  normalise(props) {
    const p: Props = { ...BUDGET_ALERT_DEFAULTS, ...nullsDropped(props) };
    return { ...p, thresholds: objectSet(p.thresholds, ["basis", "percent"]), recipients: emailSet(p.recipients ?? []) };
  },
  outputs: ({ id: _id, ...rest }) => rest,
  inputs: (a) => pick(a, readBackKeys),
  get: (client, id) => client.getAlert(id),
  create: (client, c) => client.createAlert(apiBody(c)),
  update: async (client, id, c, changed) => (changed.length ? client.replaceAlert(id, apiBody(c)) : undefined),
  remove: (client, id) => client.deleteAlert(id).then(() => undefined),
};
