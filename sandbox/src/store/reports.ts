import type { Page, PageQuery, ReportFields, ScheduledReport } from "@cloudcost/api";
import type { Db } from "../database";
import { GROUP_REFERENCING_TABLES } from "./group-references";
import { GroupScopedTable, groupScopedSchema, type Stored } from "./group-scoped-table";
import type { Groups } from "./groups";
import { nextRunAt } from "./next-run";

export const REPORT_SCHEMA = groupScopedSchema(GROUP_REFERENCING_TABLES.report);

/** Scheduled reports; `nextRunAt` is computed on read from the schedule in its time zone. */
export class Reports {
  private readonly table: GroupScopedTable<ReportFields>;

  constructor(db: Db, groups: Groups) {
    this.table = new GroupScopedTable<ReportFields>(db, GROUP_REFERENCING_TABLES.report, "rpt", "scheduled report", groups);
  }

  list(orgId: string): ScheduledReport[] {
    return this.table.all(orgId).map(view);
  }

  page(orgId: string, q: PageQuery): Page<ScheduledReport> {
    return this.table.page(orgId, q, view);
  }

  require(orgId: string, id: string): ScheduledReport {
    return view(this.table.require(orgId, id));
  }

  create(orgId: string, fields: ReportFields): ScheduledReport {
    return view(this.table.insert(orgId, fields));
  }

  replace(orgId: string, id: string, fields: ReportFields): ScheduledReport {
    return view(this.table.replace(orgId, id, fields));
  }

  delete(orgId: string, id: string): void {
    this.table.delete(orgId, id);
  }
}

/** The stored fields (in the contract's order: `ReportInput` and `ScheduledReport` list them alike) plus what the server computes. */
function view(s: Stored<ReportFields>): ScheduledReport {
  return { id: s.id, ...s.fields, nextRunAt: s.fields.enabled ? nextRunAt(s.fields.schedule) : null, createdAt: s.createdAt, updatedAt: s.updatedAt };
}
