import type { ReportFields, ScheduledReport } from "@cloudcost/api";
import type { Db } from "./connection";
import { GROUP_REFERENCING_TABLES } from "./tables";
import { GroupScopedTable } from "./group-scoped-table";
import type { Groups } from "./groups";
import { nextRunAt } from "./next-run";

export type Reports = GroupScopedTable<ReportFields, ScheduledReport>;

/**
 * Scheduled reports. Answered as the stored fields (in the contract's order, so ETags stay stable) plus
 * `nextRunAt`, computed on read from the schedule in its time zone.
 */
export function reportStore(db: Db, groups: Groups): Reports {
  return new GroupScopedTable<ReportFields, ScheduledReport>(
    db,
    GROUP_REFERENCING_TABLES.report,
    "rpt",
    "scheduled report",
    groups,
    (_orgId, s) => ({
      id: s.id,
      ...s.fields,
      nextRunAt: s.fields.enabled ? nextRunAt(s.fields.schedule) : null,
      lastRunAt: null,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    }),
  );
}
