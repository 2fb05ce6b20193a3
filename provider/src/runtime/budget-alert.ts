import { AlertId, AlertInput, z } from "@cloudcost/api";
import type { BudgetAlert } from "@cloudcost/api";
import { emailSet, nullsDropped, objectSet, type Props } from "./normalise";
import type { ResourceSpec } from "./resource-spec";

const schema = AlertInput.extend({ adoptId: AlertId.optional() });
type Checked = z.output<typeof schema>;

/** Provider defaults for what the contract requires (decision, see README). */
const DEFAULTS = { currency: "USD", period: "monthly", thresholds: [{ percent: 100, basis: "actual" }] };

function body(c: Checked): AlertInput {
  const { adoptId: _adoptId, ...fields } = c;
  return fields;
}

/**
 * `webhookUrl` is left out on purpose: it is a secret, and inputs read back from the service are not
 * guaranteed to be encrypted in state. Drift of the webhook still shows, through the outputs diff.
 */
function inputsOf(a: BudgetAlert): Props {
  return { name: a.name, amount: a.amount, currency: a.currency, period: a.period, groupId: a.groupId, thresholds: a.thresholds, recipients: a.recipients, enabled: a.enabled };
}

/** Requests: create 1 (POST), read 1, update 1 (PUT), delete 1. */
export const budgetAlertSpec: ResourceSpec<Checked, BudgetAlert> = {
  typeName: "BudgetAlert",
  schema,
  diffKeys: ["name", "amount", "currency", "period", "groupId", "thresholds", "recipients", "webhookUrl", "enabled"],
  normalise(props) {
    const p: Props = { ...DEFAULTS, ...nullsDropped(props) };
    return { ...p, thresholds: objectSet(p.thresholds, ["basis", "percent"]), recipients: emailSet(p.recipients ?? []) };
  },
  outputs: ({ id: _id, ...rest }) => rest,
  inputs: inputsOf,
  get: (client, id) => client.getAlert(id),
  create: (client, c) => client.createAlert(body(c)),
  update: async (client, id, c, changed) => (changed.length ? client.replaceAlert(id, body(c)) : undefined),
  remove: (client, id) => client.deleteAlert(id).then(() => undefined),
};
