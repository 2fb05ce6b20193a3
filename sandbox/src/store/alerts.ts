import type { AlertFields, BudgetAlert } from "@cloudcost/api";
import type { Costs } from "../costs/cost-reads";
import type { Db } from "./connection";
import { GROUP_REFERENCING_TABLES } from "./tables";
import { GroupScopedTable } from "./group-scoped-table";
import type { Groups } from "./groups";

export type Alerts = GroupScopedTable<AlertFields, BudgetAlert>;

/**
 * Budget alerts. Answered as the stored fields (in the contract's order, so ETags stay stable) plus the
 * spend of their scope in the current period, computed on read from the cost data.
 */
export function alertStore(db: Db, groups: Groups, costs: Costs): Alerts {
  return new GroupScopedTable<AlertFields, BudgetAlert>(db, GROUP_REFERENCING_TABLES.alert, "alr", "budget alert", groups, (orgId, s) => ({
    id: s.id,
    ...s.fields,
    ...costs.periodSpend(orgId, s.fields.groupId, s.fields.period),
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  }));
}
