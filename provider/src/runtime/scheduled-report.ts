import { ReportId, ReportInput, reportRules, z } from "@cloudcost/api";
import type { ScheduledReport } from "@cloudcost/api";
import { ruleFailures } from "./failures";
import { costFilters, emailSet, nullsDropped, type Props } from "./normalise";
import { apiBody, comparedInputs, pick, type ResourceSpec } from "./resource-spec";

const schema = ReportInput.extend({ adoptId: ReportId.optional() });
type Checked = z.output<typeof schema>;

const diffKeys = comparedInputs(schema);

const isPlainObject = (v: unknown): v is Props => v !== null && typeof v === "object" && !Array.isArray(v);

/** Requests: create 1 (POST), read 1, update 1 (PUT), delete 1. */
export const scheduledReportSpec: ResourceSpec<Checked, ScheduledReport> = {
  typeName: "ScheduledReport",
  schema,
  diffKeys,
  /** As BudgetAlert's: the service need not echo the secret webhook; the value last sent stands for it. */
  writeOnly: ["webhookUrl"],
  normalise(props) {
    const p = nullsDropped(props);
    // A day field that does not apply is null in the service's answer and absent in a program: the same.
    const schedule = isPlainObject(p.schedule) ? nullsDropped(p.schedule) : p.schedule;
    return nullsDropped({ ...p, schedule, recipients: emailSet(p.recipients), filters: costFilters(p.filters) });
  },
  crossFieldFailures: (c) => ruleFailures(reportRules, c),
  outputs: ({ id: _id, ...rest }) => rest,
  inputs: (r) => pick(r, diffKeys),
  get: (client, id) => client.getReport(id),
  list: (client, pageSize) => client.listReports(pageSize),
  create: (client, c, options) => client.createReport(apiBody(c), options),
  update: async (client, id, c, changed) => (changed.length ? client.replaceReport(id, apiBody(c)) : undefined),
  remove: (client, id) => client.deleteReport(id).then(() => undefined),
  // A change is judged as a create: Check does not know the id, and the rules are the same but the 404.
  validate: (client, c, { adoptId }) => client.validateReport(apiBody(c), adoptId),
};
