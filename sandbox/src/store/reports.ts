import { ReportInput, type ReportFields, type ScheduledReport } from "@cloudcost/api/contract";
import type { Db } from "./connection";
import { GROUP_REFERENCING_TABLES } from "./tables";
import { GroupScopedTable } from "./group-scoped-table";
import type { Groups } from "./groups";
import { nextRunAt } from "./next-run";
import type { Clocks } from "./clocks";
import type { ReportRuns } from "./report-runs";

export type Reports = GroupScopedTable<ReportFields, ScheduledReport>;

/**
 * Scheduled reports. Answered as the stored fields (in the contract's order, so ETags stay stable) plus
 * `nextRunAt`, computed on read from the schedule in its time zone, and `lastRunAt` (events/report-runner.ts).
 */
export function reportStore(db: Db, groups: Groups, clocks: Clocks, runs: ReportRuns): Reports {
  return new GroupScopedTable<ReportFields, ScheduledReport>(
    db,
    GROUP_REFERENCING_TABLES.report,
    "rpt",
    "scheduled report",
    groups,
    (orgId, s) => ({
      id: s.id,
      ...s.fields,
      // On the organization's clock (sandbox controls), like the runs themselves.
      nextRunAt: s.fields.enabled ? nextRunAt(s.fields.schedule, clocks.now(orgId)) : null,
      lastRunAt: runs.lastRunAt(s.id),
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    }),
    // Rows written before issue 27 lack `filters` and `webhookUrl`: the contract's defaults fill them in.
    (stored) => ReportInput.parse(stored),
  );
}
