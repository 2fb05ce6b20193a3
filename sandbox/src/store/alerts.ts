import type { AlertFields, BudgetAlert, Page, PageQuery } from "@cloudcost/api";
import type { Costs } from "../costs/cost-reads";
import type { Db } from "../database";
import { GROUP_REFERENCING_TABLES } from "./group-references";
import { GroupScopedTable, groupScopedSchema, type Stored } from "./group-scoped-table";
import type { Groups } from "./groups";

export const ALERT_SCHEMA = groupScopedSchema(GROUP_REFERENCING_TABLES.alert);

/** Budget alerts; their spend fields are computed on read from the cost data of the current period. */
export class Alerts {
  private readonly table: GroupScopedTable<AlertFields>;

  constructor(
    db: Db,
    groups: Groups,
    private readonly costs: Costs,
  ) {
    this.table = new GroupScopedTable<AlertFields>(db, GROUP_REFERENCING_TABLES.alert, "alr", "budget alert", groups);
  }

  list(orgId: string): BudgetAlert[] {
    return this.table.all(orgId).map((s) => this.view(orgId, s));
  }

  page(orgId: string, q: PageQuery): Page<BudgetAlert> {
    return this.table.page(orgId, q, (s) => this.view(orgId, s));
  }

  require(orgId: string, id: string): BudgetAlert {
    return this.view(orgId, this.table.require(orgId, id));
  }

  create(orgId: string, fields: AlertFields): BudgetAlert {
    return this.view(orgId, this.table.insert(orgId, fields));
  }

  replace(orgId: string, id: string, fields: AlertFields): BudgetAlert {
    return this.view(orgId, this.table.replace(orgId, id, fields));
  }

  delete(orgId: string, id: string): void {
    this.table.delete(orgId, id);
  }

  /** The stored fields (in the contract's order: `AlertInput` and `BudgetAlert` list them alike) plus what the server computes. */
  private view(orgId: string, s: Stored<AlertFields>): BudgetAlert {
    return { id: s.id, ...s.fields, ...this.costs.periodSpend(orgId, s.fields.groupId, s.fields.period), createdAt: s.createdAt, updatedAt: s.updatedAt };
  }
}
