import { AlertInput, type AlertFields, type BudgetAlert } from "@cloudcost/api/contract";
import { budgetAmount, inWindow } from "../costs/budget-amount";
import { todayUtc } from "../costs/calendar";
import type { Costs } from "../costs/cost-reads";
import type { Clocks } from "./clocks";
import type { Db } from "./connection";
import { GROUP_REFERENCING_TABLES } from "./tables";
import { GroupScopedTable } from "./group-scoped-table";
import type { Groups } from "./groups";

export type Alerts = GroupScopedTable<AlertFields, BudgetAlert>;

/**
 * Budget alerts. Answered as the stored fields (in the contract's order, so ETags stay stable) plus the
 * spend of their scope and filters in the current period, its amount (`effectiveAmount`) and whether the
 * alert is active today, all computed on read from the cost data on the organization's clock. Rows written
 * before issue 27 lack its fields: reading them through the contract gives them their defaults.
 */
export function alertStore(db: Db, groups: Groups, costs: Costs, clocks: Clocks): Alerts {
  return new GroupScopedTable<AlertFields, BudgetAlert>(
    db,
    GROUP_REFERENCING_TABLES.alert,
    "alr",
    "budget alert",
    groups,
    (orgId, s) => {
      const spend = costs.periodSpend(orgId, s.fields, s.fields.period);
      const amount = budgetAmount(costs, orgId, s.fields, spend.periodStart);
      return {
        id: s.id,
        ...s.fields,
        effectiveAmount: amount.amount,
        effectiveAmountSource: amount.source,
        active: s.fields.enabled && inWindow(s.fields, todayUtc(clocks.now(orgId))),
        ...spend,
        createdAt: s.createdAt,
        updatedAt: s.updatedAt,
      };
    },
    (stored) => AlertInput.parse(stored),
  );
}
