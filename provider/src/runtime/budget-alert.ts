import { AlertId, AlertInput, alertRules, z } from "@cloudcost/api";
import type { BudgetAlert } from "@cloudcost/api";
import { BUDGET_ALERT_DEFAULTS } from "../budget-alert-defaults";
import { ruleFailures } from "./failures";
import { costFilters, emailSet, inCents, nullsDropped, plannedAmountSet, thresholdSet, type Props } from "./normalise";
import { apiBody, comparedInputs, pick, type ResourceSpec } from "./resource-spec";

const schema = AlertInput.extend({ adoptId: AlertId.optional() });
type Checked = z.output<typeof schema>;

const diffKeys = comparedInputs(schema);

/** Requests: create 1 (POST), read 1, update 1 (PUT), delete 1. */
export const budgetAlertSpec: ResourceSpec<Checked, BudgetAlert> = {
  typeName: "BudgetAlert",
  schema,
  diffKeys,
  /*
   * The webhook is a secret the service need not echo: read back, it is the value last sent. It is read
   * back as an input too (refresh replaces the stored inputs, and `ignoreChanges: ["webhookUrl"]` copies
   * the stored input), and stays encrypted there: for a provider that does not accept secrets the engine
   * marks a read-back input secret when the stored one was (pulumi provider_plugin.go Read, annotateSecrets).
   */
  writeOnly: ["webhookUrl"],
  normalise(props) {
    const p: Props = { ...BUDGET_ALERT_DEFAULTS, ...nullsDropped(props) };
    // A set that normalises to none (an empty filter, no planned amounts) is left out, as if never written.
    return nullsDropped({
      ...p,
      amount: inCents(p.amount),
      thresholds: thresholdSet(p.thresholds),
      recipients: emailSet(p.recipients ?? []),
      filters: costFilters(p.filters),
      plannedAmounts: plannedAmountSet(p.plannedAmounts),
    });
  },
  crossFieldFailures: (c) => ruleFailures(alertRules, c),
  outputs: ({ id: _id, ...rest }) => rest,
  inputs: (a) => pick(a, diffKeys),
  get: (client, id) => client.getAlert(id),
  list: (client, pageSize) => client.listAlerts(pageSize),
  create: (client, c, options) => client.createAlert(apiBody(c), options),
  update: async (client, id, c, changed) => (changed.length ? client.replaceAlert(id, apiBody(c)) : undefined),
  remove: (client, id) => client.deleteAlert(id).then(() => undefined),
  // A change is judged as a create: Check does not know the id, and the rules are the same but the 404.
  validate: (client, c, { adoptId }) => client.validateAlert(apiBody(c), adoptId),
};
